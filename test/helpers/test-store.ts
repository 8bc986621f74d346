import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Which store the suites run on. `npm test` runs them on the embedded SQLite file; with
 * `DATABASE_URL` set for jest (`DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test`)
 * the same suites run on PostgreSQL: every data directory a test makes gets a database of its own,
 * copied from a template migrated once per run (global setup), and the global teardown drops them
 * all. The URL given is only used to create and drop those databases.
 */

/** Set by the global setup: the admin URL of the PostgreSQL run (absent on SQLite). */
export const POSTGRES_ADMIN_VARIABLE = 'TASKSPACE_TEST_POSTGRES_ADMIN';
/** Set by the global setup: the name prefix of this run's databases. */
export const POSTGRES_PREFIX_VARIABLE = 'TASKSPACE_TEST_POSTGRES_PREFIX';
/** The file in a test's data directory naming its PostgreSQL database (so a restart finds it). */
const DATABASE_FILE = 'test-database.url';

/** True when this run's suites use PostgreSQL. */
export function onPostgres(): boolean {
  return Boolean(process.env[POSTGRES_ADMIN_VARIABLE]);
}

/** `describe` on SQLite, `describe.skip` on PostgreSQL: for suites about the SQLite file itself. */
export function describeSqliteOnly(name: string, fn: () => void): void {
  (onPostgres() ? describe.skip : describe)(name, fn);
}

/** `test` on SQLite, `test.skip` on PostgreSQL: for a test about the SQLite file of a data directory. */
export function testSqliteOnly(name: string, fn: () => unknown, timeout?: number): void {
  (onPostgres() ? test.skip : test)(name, fn as jest.ProvidesCallback, timeout);
}

/** The admin URL with its database name replaced by `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The name of this run's template database (migrated once by the global setup). */
export function templateName(prefix: string): string {
  return `${prefix}template`;
}

/** A new database prefix for one run: `taskspace_t_<8 hex digits>_`. */
export function newRunPrefix(): string {
  return `taskspace_t_${randomBytes(4).toString('hex')}_`;
}

/**
 * The store settings for a server or CLI on `dataDir`: none on SQLite; on PostgreSQL
 * `DATABASE_URL` of the data directory's own database, created from the run's template the first
 * time (synchronously, with `psql`, so the synchronous CLI helpers can use it too).
 * @throws when `psql` cannot create the database.
 */
export function storeEnv(dataDir: string): Record<string, string> {
  const adminUrl = process.env[POSTGRES_ADMIN_VARIABLE];
  if (!adminUrl) return {};
  const file = path.join(dataDir, DATABASE_FILE);
  if (fs.existsSync(file)) return { DATABASE_URL: fs.readFileSync(file, 'utf8') };
  const prefix = process.env[POSTGRES_PREFIX_VARIABLE]!;
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const created = spawnSync(
    'psql',
    [adminUrl, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE "${name}" TEMPLATE "${templateName(prefix)}"`],
    {
      encoding: 'utf8',
    },
  );
  if (created.status !== 0) throw new Error(`could not create the test database ${name}: ${created.stderr || created.error}`);
  const url = databaseUrl(adminUrl, name);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, url);
  return { DATABASE_URL: url };
}

/**
 * The store settings of a new, empty store for `dataDir` (what `taskspace restore` needs): none on
 * SQLite (the directory is the store); on PostgreSQL a new database without any table (not copied
 * from the run's template), named in the directory as {@link storeEnv} does, dropped by the
 * global teardown.
 * @throws when `psql` cannot create the database, or `dataDir` already names one.
 */
export function emptyStoreEnv(dataDir: string): Record<string, string> {
  const adminUrl = process.env[POSTGRES_ADMIN_VARIABLE];
  if (!adminUrl) return {};
  const file = path.join(dataDir, DATABASE_FILE);
  if (fs.existsSync(file)) throw new Error(`${dataDir} has a database already`);
  const name = `${process.env[POSTGRES_PREFIX_VARIABLE]!}${randomBytes(6).toString('hex')}`;
  const created = spawnSync('psql', [adminUrl, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE "${name}" TEMPLATE template0`], {
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`could not create the test database ${name}: ${created.stderr || created.error}`);
  const url = databaseUrl(adminUrl, name);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, url);
  return { DATABASE_URL: url };
}
