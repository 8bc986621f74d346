import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { migrations } from '../../server/src/platform/db/migrations';
import { AUTOMATION_ENV } from '../automations/helpers';
import { dbOf, openStore } from '../helpers/db';
import { addTasks } from '../helpers/fixtures-tasks';
import { call, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { emptyStoreEnv, onPostgres } from '../helpers/test-store';
import { mediaBytes } from './helpers';

/**
 * Upgrades from a real old release (docs/operations.md "Upgrades"): the fixture in
 * `fixtures/v20/` was written by the last release at schema version 20 (its commit is in the
 * manifest) — its own server and CLI, driven over HTTP by `fixtures/make-release-fixture.mjs` —
 * and holds its store as it left it: the SQLite data directory, and a `pg_dump` of its PostgreSQL
 * database. This release starts on that store, upgrades it, and must answer every request the old
 * release answered with everything the old release said (fields added since may be there too).
 */

const FIXTURE = path.join(__dirname, 'fixtures', 'v20');
// The default media store of each store: on PostgreSQL now `database`, while the old release's media are files.
const ENV = AUTOMATION_ENV;

interface StoreFixture {
  workspaceId: string;
  projectId: string;
  automationId: string;
  mediaId: string;
  bobToken: string;
  mediaBytes: string;
  answers: Record<string, unknown>;
}

/** A data directory holding the fixture's store for the store this run uses. */
function restoreFixture(): string {
  const dataDir = tempDataDir();
  if (!onPostgres()) {
    fs.cpSync(path.join(FIXTURE, 'sqlite'), dataDir, { recursive: true });
    return dataDir;
  }
  const url = emptyStoreEnv(dataDir).DATABASE_URL!;
  const loaded = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-f', path.join(FIXTURE, 'postgres', 'dump.sql')], {
    encoding: 'utf8',
  });
  if (loaded.status !== 0) throw new Error(`psql could not load the fixture: ${loaded.stderr}`);
  // The key and the media files the release kept in its data directory (before migration 021 media were files on PostgreSQL too).
  fs.cpSync(path.join(FIXTURE, 'postgres'), dataDir, { recursive: true, filter: (f) => !f.endsWith('dump.sql') });
  return dataDir;
}

describe('upgrade of a store written by the release at schema 20', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'manifest.json'), 'utf8')) as {
    release: string;
    stores: Record<'sqlite' | 'postgres', StoreFixture>;
  };
  const fixture = manifest.stores[onPostgres() ? 'postgres' : 'sqlite'];
  let server: TestServer;

  beforeAll(async () => {
    const dataDir = restoreFixture();
    const old = openStore(dataDir, { readonly: true });
    try {
      expect(await old.db.value('SELECT max(version) FROM schema_migrations')).toBe(20);
    } finally {
      await old.close();
    }
    server = await startServer({ dataDir, env: ENV });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  test('the start applies every later migration', async () => {
    const latest = Math.max(...migrations.map((m) => ('version' in m ? m.version : 0)));
    expect(await dbOf(server).value('SELECT max(version) FROM schema_migrations')).toBe(latest);
  });

  test('every answer of the old release comes back with everything it said', async () => {
    const paths = Object.keys(fixture.answers).filter((p) => p.startsWith('/'));
    expect(paths.length).toBeGreaterThan(20);
    for (const urlPath of paths) {
      const res = await call(server.url, 'GET', urlPath, { token: server.token });
      const body = JSON.parse(JSON.stringify(res.body).replaceAll(server.url, 'BASE'));
      expect({ path: urlPath, status: res.status, body }).toMatchObject({ path: urlPath, status: 200, body: fixture.answers[urlPath] });
    }
    // The second account's token, made by the old release's CLI, still signs in its owner.
    const bob = await call(server.url, 'GET', '/api/v1/workspaces', { token: fixture.bobToken });
    expect(bob.body).toMatchObject(fixture.answers['bob /api/v1/workspaces'] as object);
  });

  test('media bytes, secrets and writes work after the upgrade', async () => {
    expect((await mediaBytes(server, fixture.mediaId)).toString()).toBe(fixture.mediaBytes);
    // The secret written by the old release is readable with its key: a run's HTTP step could use it.
    const secrets = await call(server.url, 'GET', `/api/v1/workspaces/${fixture.workspaceId}/secrets`, { token: server.token });
    expect(secrets.body.items.map((s: { name: string }) => s.name)).toEqual(['OLD_KEY']);
    expect((await addTasks({ ...server, workspaceId: fixture.workspaceId }, fixture.projectId, ['after the upgrade'])).length).toBe(1);
    const run = await call(server.url, 'POST', `/api/v1/automations/${fixture.automationId}/test`, { token: server.token, body: {} });
    expect(run.status).toBeLessThan(300);
  });
});
