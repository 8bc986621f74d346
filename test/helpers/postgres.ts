import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { waitFor } from './wait';

/** Environment variable with the URL of a PostgreSQL database the tests may create databases from. */
export const ADMIN_URL_VARIABLE = 'TASKSPACE_TEST_POSTGRES_URL';
/** The admin URL when {@link ADMIN_URL_VARIABLE} is unset: the local server, trust authentication. */
export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long (ms) `drop()` lets connections that are closing (pools just ended) leave by themselves. */
const CLOSING_GRACE_MS = 5000;

/** A database of its own for one test file. */
export interface TestDatabase {
  /** Connection URL of the database: the admin URL with the database name replaced. */
  url: string;
  /** The database's name, `taskspace_test_<pid>_<8 hex digits>`. */
  name: string;
  /**
   * Drops the database: waits up to 5 s for connections still closing, terminates any left, then
   * drops it (`WITH (FORCE)`). Safe to call twice.
   * @throws the PostgreSQL error when the admin connection or the drop fails.
   */
  drop(): Promise<void>;
}

/**
 * Creates an empty, uniquely named database on the server of the admin URL
 * (`TASKSPACE_TEST_POSTGRES_URL`, else {@link DEFAULT_ADMIN_URL}), so tests never see what an
 * earlier run or another test file left.
 * @throws the PostgreSQL error when the server cannot be reached or the database cannot be created.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env[ADMIN_URL_VARIABLE] ?? DEFAULT_ADMIN_URL;
  const name = `taskspace_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => dropDatabase(adminUrl, name) };
}

/** Drops database `name` through the admin URL, after its connections are gone. */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, async (admin) => {
    const sessions = async (): Promise<number> =>
      (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0]!.n;
    // pg's pool.end() resolves before its connections have closed; terminating one of those makes
    // pg emit an 'error' on the ended pool, so give them the time to leave first.
    await waitFor(async () => (await sessions()) === 0, `connections to ${name} to close`, CLOSING_GRACE_MS).catch(() => undefined);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** Runs `fn` with a connection to the admin URL, closed afterwards. */
export async function withAdminClient<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}
