import { endRun } from './helpers/temp-run';
import { withAdminClient } from './helpers/postgres';
import { POSTGRES_ADMIN_VARIABLE, POSTGRES_PREFIX_VARIABLE } from './helpers/test-store';

/**
 * jest globalTeardown: removes the run's temporary folder and everything the tests left in it,
 * and on PostgreSQL every database the run made (helpers/test-store.ts).
 */
export default async function globalTeardown(): Promise<void> {
  endRun();
  const adminUrl = process.env[POSTGRES_ADMIN_VARIABLE];
  const prefix = process.env[POSTGRES_PREFIX_VARIABLE];
  if (!adminUrl || !prefix) return;
  await withAdminClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
