import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../server/src/platform/db/connection';
import { migrate } from '../../server/src/platform/db/migrate';
import { migrations } from '../../server/src/platform/db/migrations';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import { emptyStoreEnv } from '../helpers/test-store';

/**
 * The oldest schema this release upgrades from: the frozen baseline (version 20; SQLite's
 * migrations 001…020 applied one by one, PostgreSQL's one baseline), made by the real migrations
 * of the list, run only that far.
 */
export const OLDEST_LIST = [migrations[0]] as const;
/** Its version. */
export const OLDEST_VERSION = migrations[0].version;

/** A store at the oldest schema for `dataDir`, open for writing rows as that release would. */
export interface OldStore {
  dialect: 'sqlite' | 'postgres';
  /** The columns of each table of the old schema (`schema_migrations` left out). */
  columns(): Promise<Map<string, string[]>>;
  /** Inserts rows of `table` (values for `columns`, in order), without foreign-key or trigger checks while loading. */
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes the store of `dataDir` (a new SQLite file, or on PostgreSQL a new, empty database named in
 * the directory) with the migrations up to {@link OLDEST_VERSION} only.
 */
export async function oldStore(dataDir: string): Promise<OldStore> {
  const url = emptyStoreEnv(dataDir).DATABASE_URL;
  if (url) {
    const pool = createPostgresPool(url, { max: 1 });
    await migratePostgres(pool, OLDEST_LIST);
    return {
      dialect: 'postgres',
      async columns() {
        const { rows } = await pool.query<{ t: string; c: string }>(
          `SELECT table_name AS t, column_name AS c FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`,
        );
        const map = new Map<string, string[]>();
        for (const { t, c } of rows) map.set(t, [...(map.get(t) ?? []), c]);
        return map;
      },
      async insert(table, columns, rows) {
        const client = await pool.connect();
        try {
          // The test's own connection as the superuser: foreign keys and triggers are off while loading.
          await client.query('BEGIN');
          await client.query('SET LOCAL session_replication_role = replica');
          const list = columns.map((c) => `"${c}"`).join(', ');
          const marks = columns.map((_, i) => `$${i + 1}`).join(', ');
          for (const row of rows) await client.query(`INSERT INTO "${table}" (${list}) VALUES (${marks})`, row);
          // Rows written with their ids: identity columns go on after the highest, as they would have.
          const identities = await client.query<{ c: string }>(
            `SELECT column_name AS c FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'YES'`,
            [table],
          );
          for (const { c } of identities.rows) {
            await client.query(
              `SELECT setval(pg_get_serial_sequence('"${table}"', '${c}'), COALESCE((SELECT max("${c}") FROM "${table}"), 0) + 1, false)`,
            );
          }
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const db = new Database(path.join(dataDir, DB_FILE));
  db.pragma('journal_mode = WAL');
  migrate(db, OLDEST_LIST);
  // better-sqlite3 turns foreign keys on by default: off while loading (rows come in any order).
  db.pragma('foreign_keys = OFF');
  return {
    dialect: 'sqlite',
    async columns() {
      const map = new Map<string, string[]>();
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'")
        .pluck()
        .all() as string[];
      for (const t of tables)
        map.set(
          t,
          (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name),
        );
      return map;
    },
    async insert(table, columns, rows) {
      // Foreign keys are off on this connection; triggers stay on (see the caller).
      const statement = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const row of rows) statement.run(...(row as never[]));
      })();
    },
    close: async () => void db.close(),
  };
}
