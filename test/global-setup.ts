import { beginRun } from './helpers/temp-run';
import { migratePostgres } from '../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../server/src/platform/db/postgres/pool';
import { withAdminClient } from './helpers/postgres';
import { POSTGRES_ADMIN_VARIABLE, POSTGRES_PREFIX_VARIABLE, databaseUrl, newRunPrefix, templateName } from './helpers/test-store';

/**
 * jest globalSetup: every temporary folder of this run goes under one run folder (see
 * helpers/temp-run.ts). With `DATABASE_URL` set, the suites run on PostgreSQL (helpers/test-store.ts):
 * the URL moves to {@link POSTGRES_ADMIN_VARIABLE} (so no server picks it up by accident) and a
 * template database with the current schema is made for the run.
 */
export default async function globalSetup(): Promise<void> {
  beginRun();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return;
  delete process.env.DATABASE_URL;
  const prefix = newRunPrefix();
  process.env[POSTGRES_ADMIN_VARIABLE] = adminUrl;
  process.env[POSTGRES_PREFIX_VARIABLE] = prefix;
  const template = templateName(prefix);
  await withAdminClient(adminUrl, (admin) => admin.query(`CREATE DATABASE "${template}"`));
  const pool = createPostgresPool(databaseUrl(adminUrl, template), { max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
}
