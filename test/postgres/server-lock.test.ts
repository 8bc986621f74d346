import pg from 'pg';
import { PRESENCE_LOCK_CLASS, presenceKey } from '../../server/src/platform/db/postgres/presence';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { waitFor } from '../helpers/wait';
import { call, OWNER_TOKEN, spawnServer, startServer, tempDataDir, type TestServer } from '../helpers/server';

/**
 * One leader per PostgreSQL database (docs "Operations", "Roles"): a second server on the database
 * of a running one starts as a follower (it serves the API and executes its share of runs, and
 * `/healthz` says `leader: false`), and takes the lead over when the leader ends, however it ends
 * (a clean stop or kill -9).
 */
describe('the PostgreSQL server lock', () => {
  let database: TestDatabase;
  const running: TestServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const server of running) await server.close();
    await database.drop();
  });

  const health = async (url: string) => (await call(url, 'GET', '/healthz')).body as { ok: boolean; role: string; leader: boolean };

  test('a second server follows the first one and leads once it stops', async () => {
    const first = await startServer({ env: { DATABASE_URL: database.url } });
    expect(await health(first.url)).toEqual({ ok: true, role: 'all', leader: true });
    const second = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(second);
    expect(await health(second.url)).toEqual({ ok: true, role: 'all', leader: false });
    // Both serve the API on the same data.
    expect((await call(second.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    expect((await call(first.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
    await first.close();
    await waitFor(async () => (await health(second.url)).leader, 'the follower to take the lead');
    await second.close();
    running.pop();
  });

  test("a follower whose connection is cut connects again and shows itself present again", async () => {
    const leader = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(leader);
    const follower = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(follower);
    const key = presenceKey(follower.built.services.workerId!);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const presence = async () =>
        (
          await db.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted", [
            PRESENCE_LOCK_CLASS,
            key,
          ])
        ).rows.map((r) => r.pid);
      const [before] = await presence();
      expect(before).toBeDefined();
      await db.query('SELECT pg_terminate_backend($1)', [before]);
      await waitFor(async () => {
        const now = await presence();
        return now.length === 1 && now[0] !== before;
      }, 'the follower to hold its presence lock on a new connection');
      expect(await health(follower.url)).toEqual({ ok: true, role: 'all', leader: false });
      await leader.close();
      running.splice(running.indexOf(leader), 1);
      await waitFor(async () => (await health(follower.url)).leader, 'the follower to take the lead');
    } finally {
      await db.end();
      await follower.close();
      running.splice(running.indexOf(follower), 1);
    }
  });

  test('a leader killed with SIGKILL leaves no lock behind: the follower takes over', async () => {
    const child = await spawnServer(tempDataDir(), { DATABASE_URL: database.url });
    expect((await health(child.url)).leader).toBe(true);
    const follower = await startServer({ env: { DATABASE_URL: database.url } });
    running.push(follower);
    expect((await health(follower.url)).leader).toBe(false);
    await child.stop('SIGKILL');
    // PostgreSQL ends the dead process's session when its socket closes, and the lock with it.
    await waitFor(async () => (await health(follower.url)).leader, 'the follower to take the lead after the leader was killed');
    expect((await call(follower.url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN })).status).toBe(200);
  });
});
