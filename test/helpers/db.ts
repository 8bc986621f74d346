import path from 'node:path';
import type { BuiltApp } from '../../server/src/app';
import { DB_FILE, Db } from '../../server/src/platform/db/connection';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import type { Params } from '../../server/src/platform/db/query';
import { postgresStore, sqliteStore, type Store } from '../../server/src/platform/db/store';
import { storeEnv } from './test-store';

/**
 * Direct reads and writes on a test server's database, on whichever store the run uses (SQLite or
 * PostgreSQL, see helpers/test-store.ts): for checking what is stored (hashes, not secrets) and
 * for setting up states the API cannot reach. Statements use `?` placeholders and SQL both stores
 * accept; alias camelCase columns in double quotes.
 */
export function dbOf(server: { built: BuiltApp }) {
  return storeDb(server.built.services.store);
}

/** The same reads and writes on a store opened by the test itself (a stopped server's data, say). */
export function storeDb(store: Store) {
  return {
    /** Every row of a query. */
    all: <R = Record<string, any>>(text: string, ...params: Params): Promise<R[]> => store.run(store.sql.all<R>(text, params)),
    /** The first row of a query, or undefined. */
    get: <R = Record<string, any>>(text: string, ...params: Params): Promise<R | undefined> => store.run(store.sql.get<R>(text, params)),
    /** The first column of the first row, or undefined. */
    value: async <V = any>(text: string, ...params: Params): Promise<V | undefined> => {
      const row = await store.run(store.sql.get<Record<string, V>>(text, params));
      return row === undefined ? undefined : Object.values(row)[0];
    },
    /** Runs a write; resolves to the number of rows changed. */
    run: async (text: string, ...params: Params): Promise<number> => (await store.run(store.sql.run(text, params))).changes,
  };
}

/** What {@link dbOf} and {@link storeDb} return. */
export type TestDb = ReturnType<typeof storeDb>;

/**
 * A connection of the test's own to a data directory's store, as another process would open it
 * (the server may be running or stopped): the SQLite file, or the directory's own PostgreSQL
 * database on a PostgreSQL run (helpers/test-store.ts). No migrations run. Close it after.
 * @param options `readonly`: open the SQLite file read-only (ignored on PostgreSQL).
 */
export function openStore(dataDir: string, options: { readonly?: boolean } = {}): { db: TestDb; close(): Promise<void> } {
  const url = storeEnv(dataDir).DATABASE_URL;
  if (url) {
    const pool = createPostgresPool(url, { max: 1 });
    return { db: storeDb(postgresStore(pool)), close: () => pool.end() };
  }
  const sqlite = new Db(path.join(dataDir, DB_FILE), { readonly: options.readonly ?? false, fileMustExist: true });
  return { db: storeDb(sqliteStore(sqlite)), close: async () => void sqlite.close() };
}
