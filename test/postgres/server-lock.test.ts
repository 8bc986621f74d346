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
