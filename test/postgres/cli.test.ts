import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type pg from 'pg';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { tempDataDir } from '../helpers/server';

/**
 * The admin CLI on PostgreSQL (`DATABASE_URL`): it names the database it uses, refuses one
 * without Taskspace's schema (a server start makes it, never the CLI) and otherwise works on it.
 */

const BIN = path.resolve(__dirname, '../../server/bin/taskspace.js');

function runBin(databaseUrl: string, args: string[], input = '') {
  const { TASKSPACE_DATA_DIR: _unused, ...inherited } = process.env;
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: tempDataDir(),
    env: { ...inherited, DATABASE_URL: databaseUrl },
    input,
    encoding: 'utf8',
  });
}

describe('admin CLI on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: pg.Pool | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await pool?.end();
    await database.drop();
  });

  test('a database without the schema is refused, named, and left without one', async () => {
    const res = runBin(database.url, ['user', 'list']);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`taskspace: PostgreSQL database 127.0.0.1:5432/${database.name} (DATABASE_URL)`);
    expect(res.stderr).toContain(`no Taskspace schema in the PostgreSQL database ${database.name}`);
    expect(res.stdout).toBe('');
    const check = createPostgresPool(database.url, { max: 1 });
    try {
      const { rows } = await check.query("SELECT to_regclass('schema_migrations') AS t");
      expect(rows[0].t).toBeNull();
    } finally {
      await check.end();
    }
  });

  test('on a database with the schema every command works; the password comes from stdin', async () => {
    pool = createPostgresPool(database.url, { max: 2 });
    await migratePostgres(pool);
    const created = runBin(database.url, ['user', 'create', '@ann', '--email', 'Ann@Example.org']);
    expect(created.stderr).toContain('(DATABASE_URL)');
    expect(created.status).toBe(0);
    expect(created.stdout).toContain('created user @ann ');
    expect(runBin(database.url, ['user', 'create', 'bob', '--email', 'ann@example.org']).status).toBe(1);
    expect(runBin(database.url, ['user', 'set-password', 'ann'], 'a long enough secret\n').status).toBe(0);
    const ws = runBin(database.url, ['workspace', 'create', 'Team', '--owner', 'ann']);
    expect(ws.status).toBe(0);
    const token = runBin(database.url, ['token', 'create', 'ANN']);
    expect(token.stdout).toMatch(/token \(shown once\): tsk_/);
    const { rows } = await pool.query("SELECT email, password_hash FROM users WHERE handle = 'ann'");
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe('Ann@Example.org');
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(runBin(database.url, ['user', 'list']).stdout).toContain('@ann\tplan=free');
  });
});
