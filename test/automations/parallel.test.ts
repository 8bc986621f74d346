import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, spawnServer, tempDataDir, type ChildServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, automationServer, createAutomation, runWithStatus, waitFor } from './helpers';

/** A server answering after `?ms=` (default 300): notes the most requests held at once, and requests whose caller hung up. */
async function timedServer() {
  let inFlight = 0;
  const state = { most: 0, hungUp: [] as string[] };
  const server = http.createServer((req, res) => {
    inFlight++;
    state.most = Math.max(state.most, inFlight);
    const ms = Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? 300);
    const timer = setTimeout(() => {
      inFlight--;
      res
        .writeHead(req.url!.startsWith('/fail') ? 422 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ path: req.url }));
    }, ms);
    req.socket.once('close', () => {
      if (!res.writableEnded) {
        clearTimeout(timer);
        inFlight--;
        state.hungUp.push(req.url!);
      }
    });
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parallel steps (docs/automations.md "Parallel steps"). */
describe('parallel', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let target: Awaited<ReturnType<typeof timedServer>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    target = await timedServer();
  });
  afterAll(async () => {
    await target.close();
    await server.close();
  });

  async function testRun(actions: unknown[]) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Parallel', trigger: { type: 'webhook' }, actions });
    return (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
  }

  test('join all: branches run at the same time; the output and later steps see every branch', async () => {
    target.state.most = 0;
    const run = await testRun([
      {
        id: 'fan',
        type: 'parallel',
        branches: {
          crm: [{ id: 'crm', type: 'http.request', method: 'GET', url: `${target.url}/crm?ms=400` }],
          erp: [
            { id: 'erp', type: 'http.request', method: 'GET', url: `${target.url}/erp?ms=400` },
            { id: 'erpNote', type: 'set', values: { status: '{{ steps.erp.status }}' } },
          ],
        },
      },
      { id: 'after', type: 'set', values: { both: '{{ steps.crm.body.path }} {{ steps.erpNote.status }}' } },
    ]);
    expect(run.status).toBe('completed');
    expect(target.state.most).toBe(2);
    const fan = run.steps.find((s: any) => s.id === 'fan');
    expect(Object.keys(fan.output.branches).sort()).toEqual(['crm', 'erp']);
    expect(fan.output.branches.erp.erpNote).toEqual({ status: 200 });
    expect(fan.output.first).toBeUndefined();
    expect(run.steps.find((s: any) => s.id === 'after').output).toEqual({ both: '/crm?ms=400 200' });
  });

  test('join first: the first branch to finish wins, the others are stopped', async () => {
    const run = await testRun([
      {
        id: 'race',
        type: 'parallel',
        join: 'first',
        branches: {
          fast: [
            { id: 'ping', type: 'http.request', method: 'GET', url: `${target.url}/ping?ms=300` },
            { id: 'quick', type: 'set', values: { v: 'fast' } },
          ],
          slow: [{ id: 'lazy', type: 'http.request', method: 'GET', url: `${target.url}/lazy?ms=20000` }],
        },
      },
    ]);
    expect(run.status).toBe('completed');
    const race = run.steps.find((s: any) => s.id === 'race');
    expect(race.output).toMatchObject({ branches: { fast: { quick: { v: 'fast' }, ping: { status: 200 } } }, first: 'fast' });
    expect(Object.keys(race.output.branches)).toEqual(['fast']);
    await waitFor(() => target.state.hungUp.some((u) => u.startsWith('/lazy')), 'the slow branch request to be aborted');
    expect(run.steps.find((s: any) => s.id === 'lazy')).toMatchObject({
      status: 'failed',
      error: { code: 'CANCELLED', message: "branch 'fast' finished first" },
    });
  });

  test('join all fails with the first failing branch and stops the others; onError applies to the parallel step', async () => {
    const branches = {
      bad: [{ id: 'bad', type: 'http.request', method: 'POST', url: `${target.url}/fail?ms=300` }],
      long: [{ id: 'long', type: 'http.request', method: 'GET', url: `${target.url}/long?ms=20000` }],
    };
    const run = await testRun([{ id: 'both', type: 'parallel', branches }]);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'HTTP_STATUS', stepId: 'bad' } });
    await waitFor(() => target.state.hungUp.some((u) => u.startsWith('/long')), 'the other branch to be stopped');
    const handled = await testRun([
      {
        id: 'both',
        type: 'parallel',
        branches: { bad: [{ ...branches.bad[0], id: 'bad2' }], ok: [{ id: 'fine', type: 'set', values: { a: 1 } }] },
        onError: 'continue',
      },
      { id: 'after', type: 'set', values: { failed: '{{ steps.both.error.stepId }}' } },
    ]);
    expect(handled.status).toBe('completed');
    expect(handled.steps.find((s: any) => s.id === 'after').output).toEqual({ failed: 'bad2' });
  });

  test('branches that wait on people or events, and a single branch, are refused when saved', async () => {
    const waiting = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'p', type: 'parallel', branches: { a: [{ id: 'ok', type: 'approval' }], b: [{ id: 'x', type: 'set', values: { a: 1 } }] } },
      ],
    });
    expect(waiting.status).toBe(400);
    expect(waiting.body.error.details.field).toBe('actions[0].branches.a[0]');
    const single = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'webhook' },
      actions: [{ id: 'p', type: 'parallel', branches: { a: [{ id: 'x', type: 'set', values: { a: 1 } }] } }],
    });
    expect(single.status).toBe(400);
    expect(single.body.error.details.field).toBe('actions[0].branches');
  });
});

describe('parallel across kill -9', () => {
  let first: ChildServer | undefined;
  let second: ChildServer | undefined;
  afterAll(async () => {
    await first?.stop('SIGKILL');
    await second?.stop();
  });

  test('a parallel step with a branch waiting on a delay finishes after a kill -9, each step once', async () => {
    const dataDir = tempDataDir();
    first = await spawnServer(dataDir, AUTOMATION_ENV);
    let api = client(first, 'tsk_test_owner_token');
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    const automation = (
      await api.post('/api/v1/automations', {
        workspaceId,
        name: 'Durable parallel',
        trigger: { type: 'webhook' },
        actions: [
          {
            id: 'fan',
            type: 'parallel',
            branches: {
              later: [
                { id: 'nap', type: 'delay', seconds: 3 },
                { id: 'woke', type: 'set', values: { a: 1 } },
              ],
              now: [{ id: 'instant', type: 'set', values: { b: 2 } }],
            },
          },
          { id: 'after', type: 'set', values: { sum: '{{ steps.woke.a | plus: steps.instant.b }}' } },
        ],
      })
    ).body.item;
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(run.status).toBe('waiting');
    await first.stop('SIGKILL');
    first = undefined;
    second = await spawnServer(dataDir, AUTOMATION_ENV);
    api = client(second, 'tsk_test_owner_token');
    const done = await runWithStatus(api, automation.id, run.id, 'completed', 20_000);
    expect(done.steps.map((s: any) => [s.id, s.status, s.attempts]).sort()).toEqual(
      [
        ['after', 'succeeded', 1],
        ['fan', 'succeeded', 1],
        ['instant', 'succeeded', 1],
        ['nap', 'succeeded', 1],
        ['woke', 'succeeded', 1],
      ].sort(),
    );
    expect(done.steps.find((s: any) => s.id === 'after').output).toEqual({ sum: 3 });
  });
});
