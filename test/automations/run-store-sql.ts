import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ServiceRunStore } from '../../server/src/modules/engine-host/run-store';
import { openDatabase } from '../../server/src/platform/db/connection';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import { PRESENCE_LOCK_CLASS } from '../../server/src/platform/db/postgres/presence';
import { postgresStore, sqliteStore, type Store } from '../../server/src/platform/db/store';
import { createTestDatabase } from '../helpers/postgres';
import { OWNER, T0, WORKSPACE_A, WORKSPACE_B, type RunStoreBackend } from '../engine/run-store-records';

/**
 * The server's `ServiceRunStore` as a backend of the RunStore conformance suite
 * (test/engine/run-store-contract.ts), on a store of its own: a fresh SQLite file in a temporary
 * folder, or a fresh PostgreSQL database. The store is built as the server builds it
 * (services.ts), without failure alerts: the suite checks storage, not events.
 */

/** Writes the user and workspaces the suite's automations refer to (foreign keys). */
async function seed(store: Store): Promise<void> {
  await store.run(
    store.sql.run('INSERT INTO users (id, handle, display_name, created_at) VALUES (?, ?, ?, ?)', [
      OWNER,
      'contract-owner',
      'Contract owner',
      T0,
    ]),
  );
  for (const id of [WORKSPACE_A, WORKSPACE_B])
    await store.run(store.sql.run('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)', [id, id, T0]));
}

/** Deletes every automation; their versions, runs, steps and the rest go with them (ON DELETE CASCADE). */
async function emptied(store: Store): Promise<ServiceRunStore> {
  await store.run(store.sql.run('DELETE FROM automations', []));
  return new ServiceRunStore(store);
}

/** The backend on a new SQLite file (migrated as the server opens it) in a temporary folder, removed by `close`. */
export async function sqliteBackend(): Promise<RunStoreBackend> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-store-contract-'));
  const db = openDatabase(dir);
  const store = sqliteStore(db);
  await seed(store);
  return {
    fresh: () => emptied(store),
    worker: async (name) => `worker-${name}`,
    close: async () => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The backend on a new PostgreSQL database (helpers/postgres.ts), migrated as the server does,
 * dropped by `close`. Its worker ids are live processes' ids: a connection of the backend holds the
 * presence lock of each (`<key>:contract-<name>`), as a running server holds its own, so the
 * store does not take their leases for those of a dead process.
 */
export async function postgresBackend(): Promise<RunStoreBackend> {
  const database = await createTestDatabase();
  const pool = createPostgresPool(database.url);
  const presence = new pg.Client({ connectionString: database.url });
  try {
    await migratePostgres(pool);
    await presence.connect();
  } catch (error) {
    await pool.end();
    await presence.end().catch(() => undefined);
    await database.drop();
    throw error;
  }
  const store = postgresStore(pool);
  await seed(store);
  return {
    fresh: () => emptied(store),
    worker: async (name) => {
      const key = randomInt(1, 2 ** 31);
      await presence.query('SELECT pg_advisory_lock($1, $2)', [PRESENCE_LOCK_CLASS, key]);
      return `${key}:contract-${name}`;
    },
    close: async () => {
      await presence.end();
      await pool.end();
      await database.drop();
    },
  };
}
