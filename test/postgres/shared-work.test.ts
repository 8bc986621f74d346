import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, OWNER_TOKEN, spawnServer, tempDataDir, type ChildServer } from '../helpers/server';
import { waitFor } from '../automations/helpers';

/**
 * Background work shared by several processes (docs "Operations", "Roles"): two worker processes
 * (the first leads, the second follows) and an api process on one database.
 * - Automation runs: both workers claim the runs the api process stores, each run with a lease
 *   (`FOR UPDATE SKIP LOCKED`), so both execute runs and none executes a run twice; a worker
 *   killed with SIGKILL leaves its claimed runs to the other at once (PostgreSQL ends its presence
 *   lock with its connection), long before the leases would run out.
 * - Deliveries: both workers send the deliveries the leader's dispatcher queues (its `NOTIFY` wakes
 *   the other), each once; those in flight in a killed worker are sent again by the other.
 */

/** Two workers and an api process on a fresh database, a receiver answering after 200 ms, and a client on the database. */
function sharedWork(env: Record<string, string>) {
  const fixture = {
    database: undefined as unknown as TestDatabase,
    db: undefined as unknown as pg.Client,
    workers: [] as ChildServer[],
    api: undefined as unknown as ChildServer,
    /** The slow receiver's URL. */
    receiverUrl: '',
    /** Delivery ids (`X-Service-Delivery`) as they arrived. */
    received: [] as string[],
    /** Runs `sql` (one count) on the database. */
    count: async (sql: string, params: unknown[] = []) => Number((await fixture.db.query<{ n: string }>(sql, params)).rows[0]!.n),
    /** `LIKE` pattern of a worker's id (its pid ends it). */
    idOf: (worker: ChildServer) => `%:${worker.child.pid}`,
    request: (method: string, path: string, body?: unknown) => call(fixture.api.url, method, path, { token: OWNER_TOKEN, body }),
  };
  let receiver: http.Server;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.db = new pg.Client({ connectionString: fixture.database.url });
    await fixture.db.connect();
    // Slow answers keep runs and deliveries in flight long enough for both workers to claim some.
    receiver = http.createServer((req, res) => {
      req.resume();
      setTimeout(() => {
        if (req.headers['x-service-delivery']) fixture.received.push(String(req.headers['x-service-delivery']));
        res.end('{"ok":true}');
      }, 200);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fixture.receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const all = {
      DATABASE_URL: fixture.database.url,
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'shared-work-key-0123456789abcdefghij',
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_POLL_MS: '100',
      TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000',
      ...env,
    };
    for (let i = 0; i < 2; i++) fixture.workers.push(await spawnServer(tempDataDir(), { ...all, TASKSPACE_ROLE: 'worker' }));
    fixture.api = await spawnServer(tempDataDir(), { ...all, TASKSPACE_ROLE: 'api' });
  }, 60_000);
  afterAll(async () => {
    for (const child of [...fixture.workers, fixture.api]) await child?.stop('SIGKILL');
    await fixture.db.end();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await fixture.database.drop();
  });
  return fixture;
}

describe('shared runs: two workers execute the runs an api process stores', () => {
  // Ten minutes: a killed worker's runs can only come back through its presence lock ending with it.
  const f = sharedWork({ TASKSPACE_RUN_LEASE_MS: '600000' });

  test('both workers execute runs, each run once; a killed worker’s runs are taken over at once', async () => {
    const [leader, follower] = f.workers as [ChildServer, ChildServer];
    expect(follower.output()).toContain('Following: the PostgreSQL database');
    expect((await call(leader.url, 'GET', '/healthz')).body).toEqual({ ok: true, role: 'worker', leader: true });
    expect((await call(follower.url, 'GET', '/healthz')).body).toEqual({ ok: true, role: 'worker', leader: false });
    const workspaceId = (await f.request('GET', '/api/v1/workspaces')).body.items[0].id;
    const projectId = (
      await f.request('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Leases' })
    ).body.item.id;
    const created = await f.request('POST', '/api/v1/automations', {
      workspaceId,
      name: 'Call then make',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'call', type: 'http.request', method: 'POST', url: `${f.receiverUrl}/call/{{ trigger.n }}` },
        { id: 'make', type: 'task.create', projectId, text: 'made {{ trigger.n }}' },
      ],
    });
    expect(created.status).toBe(200);
    const inbound = new URL(created.body.item.webhook.url).pathname;
    const fire = async (from: number, to: number) => {
      for (let n = from; n < to; n++) expect((await call(f.api.url, 'POST', inbound, { body: { n } })).status).toBe(200);
    };
    const completed = () => f.count("SELECT count(*) AS n FROM automation_runs WHERE status = 'completed'");
    const executedBy = (worker: ChildServer) =>
      f.count("SELECT count(*) AS n FROM automation_runs WHERE status = 'completed' AND lease_owner LIKE $1", [f.idOf(worker)]);

    await fire(0, 60);
    await waitFor(async () => (await completed()) === 60, 'the first 60 runs to complete', 30_000);
    expect(await executedBy(leader)).toBeGreaterThan(0);
    expect(await executedBy(follower)).toBeGreaterThan(0);
    expect((await executedBy(leader)) + (await executedBy(follower))).toBe(60);

    // The follower dies with runs claimed; the leader takes them over at once, not when their leases run out.
    await fire(60, 100);
    await waitFor(
      async () =>
        (await f.count("SELECT count(*) AS n FROM automation_runs WHERE status = 'running' AND lease_owner LIKE $1", [f.idOf(follower)])) >
        0,
      'the follower to execute runs',
    );
    await follower.stop('SIGKILL');
    await waitFor(async () => (await completed()) === 100, 'every run to complete', 30_000);
    const texts = (await f.db.query<{ text: string }>('SELECT text FROM tasks WHERE project_id = $1', [projectId])).rows.map((r) => r.text);
    expect(texts.sort()).toEqual(Array.from({ length: 100 }, (_, n) => `made ${n}`).sort());
    expect(await f.count('SELECT count(*) AS n FROM automation_runs')).toBe(100);
  }, 90_000);
});

describe('shared deliveries: two workers send the deliveries the leader queues', () => {
  // Four at once per process: the leader cannot hold every delivery, the follower takes its share.
  // An hour between polls: the follower sends because the leader's NOTIFY wakes it.
  const f = sharedWork({ TASKSPACE_WEBHOOKS_CONCURRENCY: '4', TASKSPACE_WEBHOOKS_POLL_MS: '3600000' });

  test('both send, each delivery once; the deliveries in flight in a killed worker are sent again by the other', async () => {
    const [leader, follower] = f.workers as [ChildServer, ChildServer];
    const workspaceId = (await f.request('GET', '/api/v1/workspaces')).body.items[0].id;
    for (const target of ['a', 'b', 'c']) {
      expect(
        (await f.request('POST', '/api/v2/webhooks', { targetUrl: `${f.receiverUrl}/${target}`, events: ['project.created'] })).status,
      ).toBe(200);
    }
    const senders = new Set<string>();
    const sends = (worker: ChildServer) => [...senders].some((sender) => sender.endsWith(`:${worker.child.pid}`));
    const succeeded = () => f.count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'");
    const deliveryIds = async () => (await f.db.query<{ id: string }>('SELECT id FROM webhook_deliveries')).rows.map((r) => r.id);
    const project = async (n: number) =>
      expect(
        (await f.request('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: `# P${n}` }))
          .status,
      ).toBe(200);

    for (let n = 0; n < 12; n++) await project(n);
    await waitFor(
      async () => {
        for (const row of (
          await f.db.query<{ sender: string }>("SELECT DISTINCT claimed_by AS sender FROM webhook_deliveries WHERE status = 'sending'")
        ).rows) {
          senders.add(row.sender);
        }
        return sends(leader) && sends(follower);
      },
      'both workers to send deliveries',
      20_000,
    );
    await waitFor(async () => (await succeeded()) === 36, 'the 36 deliveries to succeed', 30_000);
    expect([...f.received].sort()).toEqual((await deliveryIds()).sort());

    // The follower dies with deliveries in flight; the leader sends them again.
    for (let n = 12; n < 24; n++) await project(n);
    await waitFor(
      async () =>
        (await f.count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'sending' AND claimed_by LIKE $1", [
          f.idOf(follower),
        ])) > 0,
      'the follower to send',
    );
    await follower.stop('SIGKILL');
    await waitFor(async () => (await succeeded()) === 72, 'every delivery to succeed', 30_000);
    expect((await deliveryIds()).filter((id) => !f.received.includes(id))).toEqual([]);
  }, 90_000);
});
