import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, OWNER_TOKEN, spawnServer, tempDataDir, type ChildServer } from '../helpers/server';
import { waitFor } from '../automations/helpers';

/**
 * Automation runs shared by several processes (docs "Operations", "Roles"): two worker processes
 * (the first leads, the second follows) claim the runs an api process stores, each run with a
 * lease (`FOR UPDATE SKIP LOCKED`), so both execute runs and none executes a run twice; a worker
 * killed with SIGKILL leaves its claimed runs to the other once their leases run out.
 */
describe('run leases: two workers share the runs of an api process', () => {
  let database: TestDatabase;
  let db: pg.Client;
  let slow: http.Server;
  let slowUrl: string;
  const processes: ChildServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    // Answers each call after 150 ms, so runs stay in flight long enough for both workers to claim.
    slow = http.createServer((req, res) => {
      req.resume();
      setTimeout(() => res.end('{"ok":true}'), 150);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const child of processes) await child.stop('SIGKILL');
    await db.end();
    await new Promise<void>((resolve) => slow.close(() => resolve()));
    await database.drop();
  });

  test('both workers execute runs, each run once; a killed worker’s runs are taken over', async () => {
    const env = {
      DATABASE_URL: database.url,
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'leases-test-key-0123456789abcdefghi',
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_POLL_MS: '100',
      TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000',
      TASKSPACE_RUN_LEASE_MS: '1500',
    };
    const workers: ChildServer[] = [];
    for (let i = 0; i < 2; i++) {
      workers.push(await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'worker' }));
      processes.push(workers[i]!);
    }
    expect(workers[1]!.output()).toContain('Following: the PostgreSQL database');
    expect((await call(workers[0]!.url, 'GET', '/healthz')).body).toEqual({ ok: true, role: 'worker', leader: true });
    expect((await call(workers[1]!.url, 'GET', '/healthz')).body).toEqual({ ok: true, role: 'worker', leader: false });
    const api = await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'api' });
    processes.push(api);
    const request = (method: string, path: string, body?: unknown) => call(api.url, method, path, { token: OWNER_TOKEN, body });
    const workspaceId = (await request('GET', '/api/v1/workspaces')).body.items[0].id;
    const projectId = (await request('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Leases' })).body.item.id;
    const created = await request('POST', '/api/v1/automations', {
      workspaceId,
      name: 'Call then make',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'call', type: 'http.request', method: 'POST', url: `${slowUrl}/call/{{ trigger.n }}` },
        { id: 'make', type: 'task.create', projectId, text: 'made {{ trigger.n }}' },
      ],
    });
    expect(created.status).toBe(200);
    const inbound = new URL(created.body.item.webhook.url).pathname;
    const fire = async (from: number, to: number) => {
      for (let n = from; n < to; n++) expect((await call(api.url, 'POST', inbound, { body: { n } })).status).toBe(200);
    };
    const made = async () => (await db.query<{ text: string }>('SELECT text FROM tasks WHERE project_id = $1', [projectId])).rows.map((r) => r.text);
    const ownerOf = (worker: ChildServer) => `%:${worker.child.pid}:%`;
    const executedBy = async (worker: ChildServer) =>
      Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM automation_runs WHERE status = 'completed' AND lease_owner LIKE $1", [ownerOf(worker)])).rows[0]!.n);

    const completed = async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM automation_runs WHERE status = 'completed'")).rows[0]!.n);
    await fire(0, 60);
    await waitFor(async () => (await completed()) === 60, 'the first 60 runs to complete', 30_000);
    expect(await executedBy(workers[0]!)).toBeGreaterThan(0);
    expect(await executedBy(workers[1]!)).toBeGreaterThan(0);
    expect((await executedBy(workers[0]!)) + (await executedBy(workers[1]!))).toBe(60);

    // The follower dies with runs claimed; the leader takes them over when their leases run out.
    await fire(60, 100);
    await waitFor(
      async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM automation_runs WHERE status = 'running' AND lease_owner LIKE $1", [ownerOf(workers[1]!)])).rows[0]!.n) > 0,
      'the follower to execute runs',
    );
    await workers[1]!.stop('SIGKILL');
    await waitFor(async () => (await completed()) === 100, 'every run to complete', 30_000);
    const texts = await made();
    expect(texts.sort()).toEqual(Array.from({ length: 100 }, (_, n) => `made ${n}`).sort());
    const runs = await db.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM automation_runs GROUP BY status');
    expect(runs.rows).toEqual([{ status: 'completed', n: '100' }]);
  }, 90_000);
});
