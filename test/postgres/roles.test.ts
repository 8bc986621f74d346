import pg from 'pg';
import { loadConfig } from '../../server/src/config';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { call, OWNER_TOKEN, spawnServer, tempDataDir, type ChildServer } from '../helpers/server';
import { receiver, waitFor } from '../automations/helpers';

/**
 * Roles on one PostgreSQL database (docs "Operations", "Roles"): one worker process does the
 * background work and three api processes serve the API. Whatever comes in through an api process —
 * writes, inbound webhook calls, test runs, approval decisions, cancellations — is stored there
 * and carried out by the worker: runs execute once, deliveries are made, schedules fire.
 */
describe('TASKSPACE_ROLE: a worker and three api processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const processes: ChildServer[] = [];
  let worker: ChildServer;
  let apis: ChildServer[];

  beforeAll(async () => {
    database = await createTestDatabase();
    rx = await receiver();
    const env = {
      DATABASE_URL: database.url,
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'roles-test-key-0123456789abcdefghij',
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_POLL_MS: '50',
      TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000',
    };
    worker = await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'worker' });
    processes.push(worker);
    apis = [];
    for (let i = 0; i < 3; i++) {
      const api = await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'api' });
      processes.push(api);
      apis.push(api);
    }
  }, 60_000);
  afterAll(async () => {
    for (const child of processes) await child.stop();
    await rx.close();
    await database.drop();
  });

  const on = (server: ChildServer) => (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { token: OWNER_TOKEN, body });

  test('the worker answers only /healthz; api processes take no lock and serve everything', async () => {
    expect(worker.output()).toContain('TASKSPACE_ROLE=worker');
    expect(apis.every((a) => a.output().includes('TASKSPACE_ROLE=api'))).toBe(true);
    expect((await call(worker.url, 'GET', '/healthz')).status).toBe(200);
    const refused = await on(worker)('GET', '/api/v1/workspaces');
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toContain('TASKSPACE_ROLE=worker');
    for (const api of apis) expect((await on(api)('GET', '/api/v1/workspaces')).status).toBe(200);
  });

  test('writes through one api process are read through the other; their signed deliveries are made by the worker', async () => {
    const [a, b] = apis.map(on) as [ReturnType<typeof on>, ReturnType<typeof on>];
    const workspaceId = (await a('GET', '/api/v1/workspaces')).body.items[0].id;
    expect((await a('POST', '/api/v2/webhooks', { targetUrl: `${rx.url}/signed`, events: ['project.created'] })).status).toBe(200);
    const projectId = (
      await b('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Shared\n\n- one' })
    ).body.item.id;
    expect((await a('GET', `/api/v1/projects/${projectId}/tasks`)).body.items.map((t: { text: string }) => t.text)).toEqual(['one']);
    await waitFor(
      () => rx.received.some((r) => r.url === '/signed' && JSON.parse(r.body).payload.projectId === projectId),
      'the signed delivery',
    );
  });

  test('300 concurrent task creates into one project through three api processes: every one answered 200, none 503 BUSY', async () => {
    const [a] = apis.map(on) as [ReturnType<typeof on>];
    const workspaceId = (await a('GET', '/api/v1/workspaces')).body.items[0].id;
    const projectId = (
      await a('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Contended' })
    ).body.item.id;
    // Every process appends to the same sibling list, each computing the next path from the last
    // sibling it read: their groups take turns on the project's lock (docs "Architecture", "Some
    // transactions order themselves with a lock instead") rather than aborting each other.
    const statuses: number[] = [];
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, k) => {
        for (let i = 0; i < 25; i++) {
          const res = await on(apis[(k + i) % apis.length]!)('POST', `/api/v1/projects/${projectId}/tasks/`, {
            tasks: [{ contentType: 'text/plain', content: `t${k}.${i}` }],
          });
          statuses.push(res.status);
          if (res.status === 200) acknowledged.push(res.body.item[0].id);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(acknowledged).toHaveLength(300);
    const stored = (await a('GET', `/api/v1/projects/${projectId}/tasks?limit=500`)).body.items as { id: string }[];
    expect(new Set(stored.map((t) => t.id))).toEqual(new Set(acknowledged));
    // Positions stay unique and each task's rank follows the one before it.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const paths = (await db.query<{ path: string }>('SELECT path FROM tasks WHERE project_id = $1', [projectId])).rows.map((r) => r.path);
      expect(paths).toHaveLength(300);
      expect(new Set(paths).size).toBe(300);
    } finally {
      await db.end();
    }
    // Assignee writes take the same turns.
    const results = await Promise.all(
      acknowledged
        .slice(0, 30)
        .map((id, i) => on(apis[i % apis.length]!)('PUT', `/api/v1/projects/${projectId}/tasks/${id}/assignees`, { handles: ['owner'] })),
    );
    expect(results.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
  });

  test('inbound calls, test runs, approvals and cancellations through api processes are carried out by the worker, once', async () => {
    const [a, b] = apis.map(on) as [ReturnType<typeof on>, ReturnType<typeof on>];
    const workspaceId = (await a('GET', '/api/v1/workspaces')).body.items[0].id;
    const projectId = (await a('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Runs' }))
      .body.item.id;
    const make = async (name: string, actions: unknown[], trigger: unknown = { type: 'webhook' }) => {
      const res = await a('POST', '/api/v1/automations', { workspaceId, name, trigger, actions });
      expect(res.status).toBe(200);
      return res.body.item;
    };
    const intake = await make('Intake', [
      { id: 'wait', type: 'delay', seconds: 1 },
      { id: 'make', type: 'task.create', projectId, text: 'intake {{ trigger.n }}' },
    ]);
    const gated = await make('Gated', [
      { id: 'ok', type: 'approval', message: 'go?' },
      { id: 'make', type: 'task.create', projectId, text: 'approved' },
    ]);
    const sleeper = await make('Sleeper', [{ id: 'sleep', type: 'delay', seconds: 3600 }]);
    const tick = await make('Tick', [], { type: 'schedule', cron: '* * * * * *' });

    // Inbound calls to either api process.
    for (let n = 0; n < 4; n++) {
      const api = apis[n % 2]!;
      expect((await call(api.url, 'POST', new URL(intake.webhook.url).pathname, { body: { n } })).status).toBe(200);
    }
    // A test run through an api process answers with the run the worker executed.
    const tested = await b('POST', `/api/v1/automations/${intake.id}/test`, { payload: { n: 'test' } });
    expect(tested.status).toBe(200);
    expect(tested.body.item.status).toBe('waiting');

    // An approval decided through the other api process.
    expect((await call(apis[0]!.url, 'POST', new URL(gated.webhook.url).pathname, { body: {} })).status).toBe(200);
    const waitingRun = (get: ReturnType<typeof on>, automationId: string) =>
      waitFor(async () => {
        const [run] = (await get('GET', `/api/v1/automations/${automationId}/runs`)).body.items;
        return run?.status === 'waiting' && run;
      }, `a run of ${automationId} waiting`);
    const waiting = await waitingRun(b, gated.id);
    const decided = await b('POST', `/api/v1/automations/${gated.id}/runs/${waiting.id}/approve`, {});
    expect(decided.status).toBe(200);
    expect(decided.body.item.status).toBe('completed');

    // A cancellation through an api process of a run the worker holds waiting.
    expect((await call(apis[1]!.url, 'POST', new URL(sleeper.webhook.url).pathname, { body: {} })).status).toBe(200);
    const sleeping = await waitingRun(a, sleeper.id);
    const cancelled = await a('POST', `/api/v1/automations/${sleeper.id}/runs/${sleeping.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.item.status).toBe('cancelled');

    const texts = async () =>
      ((await a('GET', `/api/v1/projects/${projectId}/tasks?limit=500`)).body.items as { text: string }[]).map((t) => t.text).sort();
    await waitFor(async () => (await texts()).length === 6, 'six tasks');
    expect(await texts()).toEqual(['approved', 'intake 0', 'intake 1', 'intake 2', 'intake 3', 'intake test']);
    // A run's task exists a moment before the run records its end.
    const statuses = async () =>
      ((await a('GET', `/api/v1/automations/${intake.id}/runs`)).body.items as { status: string }[]).map((r) => r.status);
    await waitFor(async () => (await statuses()).every((status) => status !== 'running' && status !== 'queued'), 'the intake runs to end');
    expect(await statuses()).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
    // The worker's schedule fires.
    await waitFor(async () => (await a('GET', `/api/v1/automations/${tick.id}/runs`)).body.items.length >= 2, 'two schedule slots');
  });

  test('api and worker need PostgreSQL; an api process never stands by; anything else is refused', () => {
    expect(() => loadConfig({ TASKSPACE_ROLE: 'api' })).toThrow('TASKSPACE_ROLE=api needs DATABASE_URL');
    expect(() => loadConfig({ TASKSPACE_ROLE: 'worker' })).toThrow('TASKSPACE_ROLE=worker needs DATABASE_URL');
    expect(() => loadConfig({ TASKSPACE_ROLE: 'web' })).toThrow("TASKSPACE_ROLE must be 'all', 'api' or 'worker', got 'web'");
    expect(() =>
      loadConfig({
        DATABASE_URL: database.url,
        TASKSPACE_ROLE: 'api',
        TASKSPACE_STANDBY: '1',
        TASKSPACE_WEBHOOKS_SECRET_KEY: 'k'.repeat(32),
      }),
    ).toThrow('TASKSPACE_STANDBY=1 is for processes that do the background work');
    expect(() => loadConfig({ TASKSPACE_RUN_LEASE_MS: '500' })).toThrow("TASKSPACE_RUN_LEASE_MS must be an integer >= 1000, got '500'");
    expect(loadConfig({}).runLeaseMs).toBe(30_000);
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ DATABASE_URL: database.url, TASKSPACE_ROLE: 'API' }).role).toBe('api');
  });
});

describe('TASKSPACE_ROLE: api processes wake the worker with NOTIFY', () => {
  let database: TestDatabase;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const processes: ChildServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    rx = await receiver();
  });
  afterAll(async () => {
    for (const child of processes) await child.stop();
    await rx.close();
    await database.drop();
  });

  test('with an hour between polls, runs and deliveries stored by an api process are still carried out at once', async () => {
    const env = {
      DATABASE_URL: database.url,
      TASKSPACE_WEBHOOKS_SECRET_KEY: 'roles-test-key-0123456789abcdefghij',
      TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1',
      TASKSPACE_WEBHOOKS_POLL_MS: '3600000',
    };
    const worker = await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'worker' });
    processes.push(worker);
    const apiProcess = await spawnServer(tempDataDir(), { ...env, TASKSPACE_ROLE: 'api' });
    processes.push(apiProcess);
    const api = (method: string, path: string, body?: unknown) => call(apiProcess.url, method, path, { token: OWNER_TOKEN, body });
    const workspaceId = (await api('GET', '/api/v1/workspaces')).body.items[0].id;
    expect((await api('POST', '/api/v2/webhooks', { targetUrl: `${rx.url}/signed`, events: ['project.created'] })).status).toBe(200);
    const projectId = (
      await api('POST', `/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Woken' })
    ).body.item.id;
    await waitFor(
      () => rx.received.some((r) => r.url === '/signed' && JSON.parse(r.body).payload.projectId === projectId),
      'the signed delivery',
      10_000,
    );
    const automation = (
      await api('POST', '/api/v1/automations', {
        workspaceId,
        name: 'At once',
        trigger: { type: 'webhook' },
        actions: [{ id: 'make', type: 'task.create', projectId, text: 'woken' }],
      })
    ).body.item;
    expect((await call(apiProcess.url, 'POST', new URL(automation.webhook.url).pathname, { body: {} })).status).toBe(200);
    await waitFor(
      async () => (await api('GET', `/api/v1/projects/${projectId}/tasks`)).body.items.some((t: { text: string }) => t.text === 'woken'),
      'the run to make its task',
      10_000,
    );
    // Two processes start in it, 6–10 s each on a small machine.
  }, 60_000);
});
