import { call, client, spawnServer, tempDataDir, type ChildServer } from '../helpers/server';
import { AUTOMATION_ENV, receiver, runsOf, waitFor } from './helpers';

/**
 * Durability: the server is killed with SIGKILL while runs wait on a delay, an approval, the
 * backoff of a failing HTTP step and a delay in the middle of a loop; after a restart on the same data directory every run finishes
 * exactly once and no step is repeated or lost. A caller waiting on a respond step sees the kill as a
 * failed connection, and its retry (same Idempotency-Key) gets the response of the resumed run. Needs `npx tsc -b server` (npm test does it).
 */
describe('durable runs across SIGKILL', () => {
  let first: ChildServer | undefined;
  let second: ChildServer | undefined;
  afterEach(async () => {
    await first?.stop('SIGKILL');
    await second?.stop();
    first = second = undefined;
  });

  test('delay, approval, a failing-then-recovering HTTP step and a loop each finish exactly once after a kill -9', async () => {
    let flakyUp = false;
    // /flaky answers 503 until flakyUp; everything else 200.
    const rx = await receiver((r) => ({ status: r.url === '/flaky' && !flakyUp ? 503 : 200, body: { ok: true } }));

    const dataDir = tempDataDir();
    first = await spawnServer(dataDir, AUTOMATION_ENV);
    let api = client(first, 'tsk_test_owner_token');
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    const projectId = (await api.post(`/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Durable' }))
      .body.item.id;
    const make = async (name: string, actions: unknown[]) => {
      const res = await api.post('/api/v1/automations', { workspaceId, name, trigger: { type: 'webhook' }, actions });
      expect(res.status).toBe(200);
      return res.body.item;
    };
    const delayed = await make('Delayed', [
      { id: 'before', type: 'task.create', projectId, text: 'before delay' },
      { id: 'wait', type: 'delay', seconds: 4 },
      { id: 'after', type: 'task.create', projectId, text: 'after delay of {{ steps.before.id }}' },
      {
        id: 'ping',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/delay-done`,
        body: { type: 'json', value: { task: '{{ steps.after.id }}' } },
      },
    ]);
    const approved = await make('Approved', [
      { id: 'pre', type: 'http.request', method: 'POST', url: `${rx.url}/pre-approval` },
      { id: 'ok', type: 'approval', message: 'go?' },
      { id: 'make', type: 'task.create', projectId, text: 'approved by {{ steps.ok.decidedBy }}' },
    ]);
    const flaky = await make('Flaky', [
      {
        id: 'call',
        type: 'http.request',
        method: 'GET',
        url: `${rx.url}/flaky`,
        retry: { maxAttempts: 6, initialDelayMs: 1500, factor: 1 },
      },
      { id: 'make', type: 'task.create', projectId, text: 'flaky recovered with {{ steps.call.status }}' },
    ]);
    // A loop killed in the middle: iteration 0 done, iteration 1 waiting on its delay, iteration 2 not started.
    const looped = await make('Looped', [
      {
        id: 'each',
        type: 'loop',
        items: '{{ trigger.items }}',
        actions: [
          { id: 'make', type: 'task.create', projectId, text: 'item {{ loop.item }}' },
          { id: 'ping', type: 'http.request', method: 'POST', url: `${rx.url}/loop/{{ loop.index }}` },
          {
            id: 'slow',
            type: 'branch',
            conditions: { anyOf: [{ allOf: [{ left: '{{ loop.index }}', operator: 'equals', right: 1 }] }] },
            then: [{ id: 'pause', type: 'delay', seconds: 4 }],
          },
        ],
      },
    ]);
    for (const a of [delayed, approved, flaky]) {
      expect((await call(first.url, 'POST', new URL(a.webhook.url).pathname, { body: { n: 1 } })).status).toBe(200);
    }
    const waitingOn = async (a: any, kind: string) =>
      waitFor(async () => {
        const [run] = await runsOf(api, a.id);
        return run?.status === 'waiting' && run.waitingFor?.kind === kind && run;
      }, `${a.name} waiting on ${kind}`);
    expect((await call(first.url, 'POST', new URL(looped.webhook.url).pathname, { body: { items: ['a', 'b', 'c'] } })).status).toBe(200);
    const loopRun = await waitFor(async () => {
      const [run] = await runsOf(api, looped.id);
      return run?.waitingFor?.stepId === 'each[1].pause' && run;
    }, 'the loop waiting in its second iteration');
    expect(
      (await api.get(`/api/v1/automations/${looped.id}/runs/${loopRun.id}`)).body.item.steps.some((s: any) => s.id.startsWith('each[2]')),
    ).toBe(false);
    const delayRun = await waitingOn(delayed, 'delay');
    const approvalRun = await waitingOn(approved, 'approval');
    const flakyRun = await waitingOn(flaky, 'retry');
    const beforeKill = (await api.get(`/api/v1/automations/${delayed.id}/runs/${delayRun.id}`)).body.item.steps;
    expect(beforeKill.map((s: any) => [s.id, s.status])).toEqual([
      ['before', 'succeeded'],
      ['wait', 'waiting'],
    ]);

    await first.stop('SIGKILL');
    first = undefined;
    flakyUp = true;

    second = await spawnServer(dataDir, AUTOMATION_ENV);
    api = client(second, 'tsk_test_owner_token');
    const decided = await api.post(`/api/v1/automations/${approved.id}/runs/${approvalRun.id}/approve`, {});
    expect(decided.status).toBe(200);
    const finished = async (a: any, runId: string) =>
      waitFor(
        async () => {
          const res = await api.get(`/api/v1/automations/${a.id}/runs/${runId}`);
          return res.body.item?.status === 'completed' && res.body.item;
        },
        `${a.name} to complete`,
        20000,
      );
    const d = await finished(delayed, delayRun.id);
    const p = await finished(approved, approvalRun.id);
    const f = await finished(flaky, flakyRun.id);
    const l = await finished(looped, loopRun.id);

    // Exactly one run each; every step once, in order.
    for (const a of [delayed, approved, flaky, looped]) expect(await runsOf(api, a.id)).toHaveLength(1);
    expect(l.steps.filter((s: any) => s.id !== 'each').every((s: any) => s.attempts === 1)).toBe(true);
    expect(l.steps.find((s: any) => s.id === 'each').output.count).toBe(3);
    expect(d.steps.map((s: any) => s.id)).toEqual(['before', 'wait', 'after', 'ping']);
    expect(d.steps[0].output).toEqual(beforeKill[0].output);
    expect(d.steps.every((s: any) => s.attempts === 1)).toBe(true);
    expect(p.steps.map((s: any) => [s.id, s.attempts])).toEqual([
      ['pre', 1],
      ['ok', 1],
      ['make', 1],
    ]);
    expect(f.steps[0]).toMatchObject({ id: 'call', status: 'succeeded', output: { status: 200 } });
    expect(f.steps[0].attempts).toBeGreaterThanOrEqual(2);
    expect(f.steps[0].error).toBeUndefined();

    // The outside world saw each effect once.
    const count = (path: string, status = 200) => rx.answered.filter((x) => x.url === path && x.status === status).length;
    expect(count('/delay-done')).toBe(1);
    expect(count('/pre-approval')).toBe(1);
    expect(count('/flaky')).toBe(1);
    expect(['/loop/0', '/loop/1', '/loop/2'].map((path) => count(path))).toEqual([1, 1, 1]);
    expect(count('/flaky', 503)).toBe(f.steps[0].attempts - 1);
    expect(JSON.parse(rx.received.find((r) => r.url === '/delay-done')!.body)).toEqual({ task: d.steps[2].output.id });
    const tasks = (await api.get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: any) => t.text).sort();
    expect(tasks).toEqual(
      [
        'after delay of ' + d.steps[0].output.id,
        'approved by owner',
        'before delay',
        'flaky recovered with 200',
        'item a',
        'item b',
        'item c',
      ].sort(),
    );
    await rx.close();
  }, 60000);

  test('a respond-to-webhook call interrupted by kill -9 fails cleanly; its retry with the same Idempotency-Key gets the response of the one resumed run', async () => {
    const dataDir = tempDataDir();
    let server = await spawnServer(dataDir, AUTOMATION_ENV);
    first = server;
    let api = client(server, 'tsk_test_owner_token');
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    const projectId = (await api.post(`/api/v1/workspaces/${workspaceId}/projects`, { contentType: 'text/markdown', content: '# Respond' }))
      .body.item.id;
    const a = (
      await api.post('/api/v1/automations', {
        workspaceId,
        name: 'Answer after work',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'make', type: 'task.create', projectId, text: 'order {{ trigger.order }}' },
          { id: 'wait', type: 'delay', seconds: 3 },
          { id: 'answer', type: 'respond', status: 201, body: { taskId: '{{ steps.make.id }}', run: '{{ run.id }}' } },
        ],
      })
    ).body.item;
    const path = new URL(a.webhook.url).pathname;
    const headers = { 'Idempotency-Key': 'order-7' };
    // The caller waits for the response while the run sits in its delay; then the server dies.
    const pending = call(server.url, 'POST', path, { body: { order: 7 }, headers }).then(
      (res) => ({ answered: res }),
      (error: Error) => ({ error }),
    );
    const run = await waitFor(async () => {
      const [r] = await runsOf(api, a.id);
      return r?.status === 'waiting' && r.waitingFor?.stepId === 'wait' && r;
    }, 'the run waiting in its delay');
    await server.stop('SIGKILL');
    first = undefined;
    const outcome = await pending;
    // A clean error (the connection is gone), never a half-written answer.
    expect('error' in outcome).toBe(true);

    server = await spawnServer(dataDir, AUTOMATION_ENV);
    second = server;
    api = client(server, 'tsk_test_owner_token');
    const retry = await call(server.url, 'POST', path, { body: { order: 7 }, headers });
    expect(retry.status).toBe(201);
    expect(retry.body.run).toBe(run.id);
    const done = (await api.get(`/api/v1/automations/${a.id}/runs/${run.id}`)).body.item;
    expect(done.steps.map((s: any) => [s.id, s.status, s.attempts])).toEqual([
      ['make', 'succeeded', 1],
      ['wait', 'succeeded', 1],
      ['answer', 'succeeded', 1],
    ]);
    expect(retry.body.taskId).toBe(done.steps[0].output.id);
    expect(await runsOf(api, a.id)).toHaveLength(1);
    const tasks = (await api.get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: any) => t.text);
    expect(tasks).toEqual(['order 7']);
  }, 60000);
});
