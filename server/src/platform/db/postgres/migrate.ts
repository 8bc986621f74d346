import type pg from 'pg';
import { migrationsFor, type Migration, type MigrationList } from '../migrate';
import { migrations as allMigrations } from '../migrations';

/**
 * Key of the session-level advisory lock held while migrating (`pg_advisory_lock`), so processes
 * starting together against one database migrate it once, one after the other. The bytes of the
 * ASCII text "taskspac"; any fixed value works as long as nothing else on the database uses it.
 */
export const MIGRATION_LOCK_KEY = 0x7461736b73706163n;

/**
 * Applies the PostgreSQL side of every migration of `list` not yet recorded in `schema_migrations`
 * (version BIGINT PRIMARY KEY, name, applied_at in ms since the epoch), creating that table when
 * missing: the baseline at version 20, then each later migration's `up.postgres`. Each runs in its own
 * transaction together with its record, in ascending version order, on one connection of `pool`
 * holding the advisory lock {@link MIGRATION_LOCK_KEY}: concurrent callers wait for it, then find
 * the migrations recorded and apply nothing. The lock is released and the connection returned
 * before this resolves or rejects.
 * @param list the migration list; the service's (platform/db/migrations) by default.
 * @throws the PostgreSQL error of the first failing migration (that migration is rolled back,
 *   the ones before it stay applied); connection errors as pg reports them.
 */
export async function migratePostgres(pool: pg.Pool, list: MigrationList = allMigrations): Promise<void> {
  const client = await pool.connect();
  // Set when the connection may be unusable; it is then closed instead of returned to the pool,
  // which also ends the session and with it any advisory lock it still holds.
  let discard: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      await applyPending(client, migrationsFor(list, 'postgres'));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch((error: Error) => {
        discard = error;
      });
    }
  } catch (error) {
    discard ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(discard);
  }
}

/** Creates `schema_migrations` when missing and applies the pending `migrations` in ascending version order. */
async function applyPending(client: pg.PoolClient, migrations: Migration[]): Promise<void> {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  // As text: the pool may not be one of createPostgresPool's, which parse BIGINT as a number.
  const { rows } = await client.query<{ version: string }>('SELECT version::text AS version FROM schema_migrations');
  const applied = new Set(rows.map((row) => Number(row.version)));
  const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
  for (const migration of pending) await applyOne(client, migration);
}

/**
 * Runs `migration.up` and records it, in one transaction.
 * @throws the error of `up` or of the record, after rolling back.
 */
async function applyOne(client: pg.PoolClient, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    // Without parameters pg sends the text as one simple query, so `up` may hold many statements.
    await client.query(migration.up);
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      Date.now(),
    ]);
    await client.query('COMMIT');
  } catch (error) {
    // A failing ROLLBACK means a broken connection, which migratePostgres closes: report the migration's error.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
