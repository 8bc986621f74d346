import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, fetchHttp, MemoryStore, type Engine, type RunRecord } from '../../engine/src';
import { waitFor } from '../helpers/wait';
import { MemService, receiver, TestClock } from './helpers';

const WS = 'ws1';
const OWNER = 'u1';

function setup(opts: { store?: MemoryStore; service?: MemService; clock?: TestClock; maxConcurrentRuns?: number } = {}) {
  const store = opts.store ?? new MemoryStore();
  const service = opts.service ?? new MemService();
  const clock = opts.clock ?? new TestClock();
  // random: () => 0 takes the full backoff ceiling, so retry times are exact.
  const engine = createEngine({
    store,
    service,
    http: fetchHttp(),
    clock,
    autoTick: false,
    maxConcurrentRuns: opts.maxConcurrentRuns,
    random: () => 0,
  });
  return { store, service, clock, engine };
}

function taskAdded(id: string, payload: Record<string, unknown> = {}, depth = 0) {
  return {
    id,
    type: 'task.added',
    workspaceId: WS,
    depth,
    payload: {
      projectId: 'p1',
      projectTitle: 'Inbox',
      projectLink: 'http://x/api/v1/projects/p1',
      nodeId: 'n1',
      nodeText: 'Call Bob',
      assignees: [{ handle: 'ann' }],
      createdBy: 'owner',
      parentId: 'n0',
      ...payload,
    },
  };
}

async function settle(engine: Engine, runId: string): Promise<RunRecord> {
  await engine.idle();
  return (await engine.getRun(runId))!.run;
}

describe('engine: actions, variables and branches', () => {
  test('task.added variables are the section 6.2 fields plus createdBy and parentId; HTTP output feeds a branch (then path)', async () => {
    const rx = await receiver([{ status: 200, body: { ok: true, ticket: 'T-7' } }]);
    const { engine, service } = setup();
    const automation = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Ticket',
        trigger: { type: 'task.added' },
        actions: [
          {
            id: 'fetch',
            type: 'http.request',
            method: 'POST',
            url: rx.url + '/tickets',
            query: { src: '{{ automation.name }}' },
            headers: { 'X-Run': '{{ run.id }}', Authorization: 'Bearer s3cret' },
            body: { type: 'json', value: { title: '{{ trigger.nodeText }}', who: '{{ trigger.assignees }}', n: 1 } },
          },
          {
            id: 'check',
            type: 'branch',
            conditions: {
              anyOf: [
                {
                  allOf: [
                    { left: '{{ steps.fetch.body.ok }}', operator: 'equals', right: 'true' },
                    { left: '{{ steps.fetch.status }}', operator: 'lt', right: 300 },
                  ],
                },
              ],
            },
            then: [
              {
                id: 'made',
                type: 'task.create',
                projectId: '{{ trigger.projectId }}',
                text: 'Ticket {{ steps.fetch.body.ticket }} for {{ trigger.nodeText }}',
              },
            ],
            else: [
              { id: 'other', type: 'task.update', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.nodeId }}', text: 'failed' },
            ],
          },
          { id: 'ask', type: 'agent.command', agentId: 'ag1', command: 'summarize', input: '{{ steps.made.text }}' },
        ],
      },
    });
    const [run] = await engine.submit(taskAdded('e1'));
    expect(run!.automationId).toBe(automation.id);
    const done = await settle(engine, run!.id);
    expect(done.status).toBe('completed');
    expect(Object.keys(done.trigger.variables).sort()).toEqual(
      ['assignees', 'createdBy', 'nodeId', 'nodeText', 'parentId', 'projectId', 'projectLink', 'projectTitle'].sort(),
    );

    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.url).toBe('/tickets?src=Ticket');
    expect(rx.received[0]!.headers['content-type']).toBe('application/json');
    expect(rx.received[0]!.headers['x-run']).toBe(run!.id);
    expect(JSON.parse(rx.received[0]!.body)).toEqual({ title: 'Call Bob', who: [{ handle: 'ann' }], n: 1 });

    const { steps } = (await engine.getRun(run!.id))!;
    expect(steps.map((s) => [s.stepId, s.status])).toEqual([
      ['fetch', 'succeeded'],
      ['check', 'succeeded'],
      ['made', 'succeeded'],
      ['ask', 'succeeded'],
    ]);
    const fetch = steps[0]!;
    expect(fetch.attempts).toBe(1);
    expect((fetch.input as any).headers.authorization).toBe('[redacted]');
    expect(fetch.output).toMatchObject({ status: 200, body: { ok: true, ticket: 'T-7' } });
    expect(steps[1]!.output).toEqual({ result: true, matchedGroup: 0 });
    expect(steps[3]!.output).toEqual({ text: 'answer to Ticket T-7 for Call Bob' });
    expect([...service.tasks.values()].map((t) => t.text)).toEqual(['Ticket T-7 for Call Bob']);
    const create = service.calls.find((c) => c.op === 'createTask')!;
    expect(create.ctx).toMatchObject({
      workspaceId: WS,
      ownerId: OWNER,
      automationId: automation.id,
      runId: run!.id,
      stepId: 'made',
      depth: 1,
      idempotencyKey: `${run!.id}:made`,
    });
    await rx.close();
  });

  test('the else path runs when the conditions fail, and the untaken path never runs', async () => {
    const rx = await receiver([{ status: 200, body: { ok: false } }]);
    const { engine, service } = setup();
    service.tasks.set('n1', { id: 'n1', projectId: 'p1', text: 'Call Bob', completed: false, assignees: [], fields: {} });
    await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Else',
        trigger: { type: 'task.added' },
        actions: [
          { id: 'fetch', type: 'http.request', method: 'GET', url: rx.url },
          {
            id: 'check',
            type: 'branch',
            conditions: { anyOf: [{ allOf: [{ left: '{{ steps.fetch.body.ok }}', operator: 'equals', right: 'true' }] }] },
            then: [{ id: 'made', type: 'task.create', projectId: 'p1', text: 'x' }],
            else: [
              {
                id: 'upd',
                type: 'task.update',
                projectId: '{{ trigger.projectId }}',
                taskId: '{{ trigger.nodeId }}',
                text: 'Rejected: {{ trigger.nodeText }}',
              },
              { id: 'done', type: 'task.complete', projectId: 'p1', taskId: 'n1' },
              { id: 'who', type: 'task.assign', projectId: 'p1', taskId: 'n1', handles: ['@ann', '{{ trigger.assignees }}'] },
              { id: 'note', type: 'task.setNote', projectId: 'p1', taskId: 'n1', value: 'see {{ trigger.projectLink }}' },
              { id: 'f', type: 'task.setField', projectId: 'p1', taskId: 'n1', fieldId: 'score', value: '{{ steps.fetch.status }}' },
            ],
          },
        ],
      },
    });
    const [run] = await engine.submit(taskAdded('e2'));
    expect((await settle(engine, run!.id)).status).toBe('completed');
    const task = service.tasks.get('n1')!;
    expect(task).toMatchObject({
      text: 'Rejected: Call Bob',
      completed: true,
      assignees: ['ann', 'ann'],
      note: 'see http://x/api/v1/projects/p1',
      fields: { score: 200 },
    });
    expect(service.calls.some((c) => c.op === 'createTask')).toBe(false);
    const { steps } = (await engine.getRun(run!.id))!;
    expect(steps.find((s) => s.stepId === 'made')).toBeUndefined();
    await rx.close();
  });

  test('HTTP Request: form bodies, PUT, query values and text responses', async () => {
    const rx = await receiver([{ status: 201, body: 'created' }]);
    const { engine } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Form',
        trigger: { type: 'webhook' },
        actions: [
          {
            id: 'put',
            type: 'http.request',
            method: 'PUT',
            url: rx.url + '/items/{{ trigger.id }}',
            query: { q: 'a b&c' },
            body: { type: 'form', fields: { name: '{{ trigger.name }}', n: '{{ trigger.n }}' } },
          },
        ],
      },
    });
    const run = await engine.startRun(a.id, { id: 7, name: 'Zoë & co', n: 3 });
    expect((await settle(engine, run.id)).status).toBe('completed');
    expect(rx.received[0]).toMatchObject({ method: 'PUT', url: '/items/7?q=a+b%26c', body: 'name=Zo%C3%AB+%26+co&n=3' });
    expect(rx.received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect((await engine.getRun(run.id))!.steps[0]!.output).toMatchObject({ status: 201, body: 'created' });
    await rx.close();
  });

  test('an unknown variable fails the step (TEMPLATE_ERROR, no retry) and the run', async () => {
    const { engine, service } = setup();
    await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Strict',
        trigger: { type: 'task.added' },
        actions: [{ id: 'c', type: 'task.create', projectId: 'p1', text: '{{ trigger.nodeNote }}' }],
      },
    });
    const [run] = await engine.submit(taskAdded('e3'));
    const done = await settle(engine, run!.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'TEMPLATE_ERROR', transient: false, stepId: 'c' });
    expect(done.error!.message).toContain('trigger.nodeNote');
    const { steps } = (await engine.getRun(run!.id))!;
    expect(steps[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(service.calls).toHaveLength(0);
  });

  test('trigger scope: project and folder (with subfolders through the service)', async () => {
    const { engine, service } = setup();
    service.folders.set('p1', ['f-child', 'f-root', WS]);
    service.folders.set('p2', ['f-other', WS]);
    const byProject = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'P', trigger: { type: 'task.added', scope: { projectId: 'p2' } }, actions: [] },
    });
    const byFolder = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'F', trigger: { type: 'task.added', scope: { folderId: 'f-root' } }, actions: [] },
    });
    const p1 = await engine.submit(taskAdded('s1'));
    expect(p1.map((r) => r.automationId)).toEqual([byFolder.id]);
    const p2 = await engine.submit(taskAdded('s2', { projectId: 'p2' }));
    expect(p2.map((r) => r.automationId)).toEqual([byProject.id]);
    const otherWs = await engine.submit({ ...taskAdded('s3'), workspaceId: 'ws2' });
    expect(otherWs).toHaveLength(0);
    const otherType = await engine.submit({ ...taskAdded('s4'), type: 'task.completed' });
    expect(otherType).toHaveLength(0);
    await engine.idle();
  });

  test('the same event submitted twice starts one run; dedupe keys hold for 24 hours', async () => {
    const { engine, clock } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'D', trigger: { type: 'webhook' }, actions: [] },
    });
    await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'E', trigger: { type: 'task.added' }, actions: [] },
    });
    const first = await engine.submit(taskAdded('dup'));
    const again = await engine.submit(taskAdded('dup'));
    expect(again.map((r) => r.id)).toEqual(first.map((r) => r.id));
    const r1 = await engine.startRun(a.id, { x: 1 }, { dedupeKey: 'k1' });
    clock.advance(23 * 3600_000);
    const r2 = await engine.startRun(a.id, { x: 2 }, { dedupeKey: 'k1' });
    expect(r2.id).toBe(r1.id);
    clock.advance(2 * 3600_000);
    const r3 = await engine.startRun(a.id, { x: 3 }, { dedupeKey: 'k1' });
    expect(r3.id).not.toBe(r1.id);
    expect(r3.trigger.variables).toEqual({ body: { x: 3 }, x: 3 });
    await engine.idle();
  });

  test('loop guard: runs past the depth limit are recorded as skipped and do nothing', async () => {
    const { engine, service } = setup();
    await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'Loop', trigger: { type: 'task.added' }, actions: [{ type: 'task.create', projectId: 'p1', text: 'again' }] },
    });
    const [deep] = await engine.submit(taskAdded('d4', {}, 4));
    expect((await settle(engine, deep!.id)).status).toBe('completed');
    expect(service.calls[0]!.ctx.depth).toBe(5);
    const [tooDeep] = await engine.submit(taskAdded('d5', {}, 5));
    expect(tooDeep).toMatchObject({ status: 'skipped', depth: 6, error: { code: 'DEPTH_LIMIT' } });
    await engine.idle();
    expect(service.calls).toHaveLength(1);
  });
});

describe('engine: approval and delay', () => {
  const approvalDef = (extra: Record<string, unknown> = {}) => ({
    name: 'Approve',
    trigger: { type: 'webhook' },
    actions: [
      {
        id: 'ok',
        type: 'approval',
        message: 'Create {{ trigger.title }}?',
        ...extra,
        then: [{ id: 'yes', type: 'task.create', projectId: 'p1', text: 'approved by {{ steps.ok.decidedBy }}' }],
        else: [{ id: 'no', type: 'task.create', projectId: 'p1', text: 'rejected: {{ steps.ok.comment }}' }],
      },
      { id: 'after', type: 'task.create', projectId: 'p1', text: 'after {{ steps.ok.decision }}' },
    ],
  });

  test('approve: the run waits durably, then continues with the decision as variables', async () => {
    const { engine, service } = setup();
    const a = await engine.createAutomation({ workspaceId: WS, ownerId: OWNER, definition: approvalDef() });
    const run = await engine.startRun(a.id, { title: 'X' });
    const waiting = await settle(engine, run.id);
    expect(waiting).toMatchObject({ status: 'waiting', waitingOn: { kind: 'approval', stepId: 'ok' } });
    expect(waiting.wakeAt).toBeUndefined();
    const { steps } = (await engine.getRun(run.id))!;
    expect(steps[0]).toMatchObject({ status: 'waiting', input: { message: 'Create X?', approvers: [] } });
    await engine.decide(run.id, true, { handle: 'ann' }, 'fine');
    expect((await settle(engine, run.id)).status).toBe('completed');
    expect([...service.tasks.values()].map((t) => t.text)).toEqual(['approved by ann', 'after approved']);
    const decided = (await engine.getRun(run.id))!.steps.find((s) => s.stepId === 'ok')!;
    expect(decided.output).toMatchObject({ decision: 'approved', decidedBy: 'ann', comment: 'fine', timedOut: false });
    await expect(engine.decide(run.id, true, { handle: 'ann' })).rejects.toMatchObject({ status: 409 });
  });

  test('reject ends the run by default; with onReject "else" it takes the false path', async () => {
    const { engine, service } = setup();
    const ending = await engine.createAutomation({ workspaceId: WS, ownerId: OWNER, definition: approvalDef() });
    const r1 = await engine.startRun(ending.id, { title: 'X' });
    await settle(engine, r1.id);
    await engine.decide(r1.id, false, { handle: 'bob' });
    expect(await settle(engine, r1.id)).toMatchObject({ status: 'rejected' });
    expect(service.tasks.size).toBe(0);

    const branching = await engine.createAutomation({ workspaceId: WS, ownerId: OWNER, definition: approvalDef({ onReject: 'else' }) });
    const r2 = await engine.startRun(branching.id, { title: 'Y' });
    await settle(engine, r2.id);
    await engine.decide(r2.id, false, { handle: 'bob' }, 'too expensive');
    expect((await settle(engine, r2.id)).status).toBe('completed');
    expect([...service.tasks.values()].map((t) => t.text)).toEqual(['rejected: too expensive', 'after rejected']);
  });

  test('approvers restrict who decides; the timeout decides by policy', async () => {
    const { engine, clock, service } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: approvalDef({ approvers: ['@carol'], timeoutMinutes: 60, onTimeout: 'approve' }),
    });
    const run = await engine.startRun(a.id, { title: 'Z' });
    const waiting = await settle(engine, run.id);
    expect(waiting.wakeAt).toBe(clock.now() + 3600_000);
    await expect(engine.decide(run.id, true, { handle: 'ann' })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    clock.advance(59 * 60_000);
    await engine.tick();
    expect((await settle(engine, run.id)).status).toBe('waiting');
    clock.advance(60_000);
    await engine.tick();
    expect((await settle(engine, run.id)).status).toBe('completed');
    const step = (await engine.getRun(run.id))!.steps.find((s) => s.stepId === 'ok')!;
    expect(step.output).toMatchObject({ decision: 'approved', decidedBy: null, timedOut: true });
    expect(step.durationMs).toBe(3600_000);
    expect([...service.tasks.values()].map((t) => t.text)).toEqual(['approved by ', 'after approved']);
  });

  test('delay for a duration and until a templated time', async () => {
    const { engine, clock, service } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Delays',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'wait', type: 'delay', minutes: 30 },
          { id: 'one', type: 'task.create', projectId: 'p1', text: 'after {{ steps.wait.until }}' },
          { id: 'until', type: 'delay', until: '{{ trigger.at }}' },
          { id: 'two', type: 'task.create', projectId: 'p1', text: 'second' },
        ],
      },
    });
    const start = clock.now();
    const run = await engine.startRun(a.id, { at: new Date(start + 2 * 3600_000).toISOString() });
    expect(await settle(engine, run.id)).toMatchObject({
      status: 'waiting',
      wakeAt: start + 1800_000,
      waitingOn: { kind: 'delay', stepId: 'wait' },
    });
    clock.advance(1799_000);
    await engine.tick();
    expect((await settle(engine, run.id)).status).toBe('waiting');
    expect(service.tasks.size).toBe(0);
    clock.advance(1000);
    await engine.tick();
    expect(await settle(engine, run.id)).toMatchObject({ status: 'waiting', wakeAt: start + 2 * 3600_000 });
    expect(service.tasks.size).toBe(1);
    clock.advance(2 * 3600_000);
    await engine.tick();
    expect((await settle(engine, run.id)).status).toBe('completed');
    expect([...service.tasks.values()].map((t) => t.text)).toEqual([`after ${new Date(start + 1800_000).toISOString()}`, 'second']);
  });
});

describe('engine: retries', () => {
  test('transient failures (503, then 429 with Retry-After) are retried with exponential backoff', async () => {
    const rx = await receiver([
      { status: 503, body: 'down' },
      { status: 429, body: 'slow', headers: { 'retry-after': '7' } },
      { status: 200, body: { fine: 1 } },
    ]);
    const { engine, clock } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'R',
        trigger: { type: 'webhook' },
        actions: [{ id: 'call', type: 'http.request', method: 'GET', url: rx.url, retry: { initialDelayMs: 1000, factor: 2 } }],
      },
    });
    const run = await engine.startRun(a.id, {});
    const t0 = clock.now();
    expect(await settle(engine, run.id)).toMatchObject({
      status: 'waiting',
      wakeAt: t0 + 1000,
      waitingOn: { kind: 'retry', stepId: 'call' },
    });
    let step = (await engine.getRun(run.id))!.steps[0]!;
    expect(step).toMatchObject({
      status: 'retrying',
      attempts: 1,
      nextAttemptAt: t0 + 1000,
      error: { code: 'HTTP_STATUS', status: 503, transient: true },
    });
    await engine.tick(); // not due yet
    expect(rx.received).toHaveLength(1);
    clock.advance(1000);
    await engine.tick();
    // second attempt: 429 asks for 7 s, more than the 2 s backoff
    expect(await settle(engine, run.id)).toMatchObject({ status: 'waiting', wakeAt: t0 + 1000 + 7000 });
    clock.advance(7000);
    await engine.tick();
    expect((await settle(engine, run.id)).status).toBe('completed');
    step = (await engine.getRun(run.id))!.steps[0]!;
    expect(step).toMatchObject({ status: 'succeeded', attempts: 3, output: { status: 200, body: { fine: 1 } } });
    expect(step.error).toBeUndefined();
    expect(step.durationMs).toBe(8000);
    expect(rx.received).toHaveLength(3);
    await rx.close();
  });

  test('permanent failures (4xx) are not retried; retries stop at maxAttempts', async () => {
    const rx = await receiver([{ status: 404, body: { error: 'nope' } }]);
    const down = await receiver([{ status: 500, body: 'boom' }]);
    const { engine, clock } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'P',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'call', type: 'http.request', method: 'DELETE', url: '{{ trigger.url }}', retry: { maxAttempts: 2, initialDelayMs: 10 } },
        ],
      },
    });
    const r1 = await engine.startRun(a.id, { url: rx.url });
    const failed = await settle(engine, r1.id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'HTTP_STATUS', status: 404, transient: false, stepId: 'call' } });
    expect(rx.received).toHaveLength(1);

    const r2 = await engine.startRun(a.id, { url: down.url });
    await settle(engine, r2.id);
    clock.advance(10);
    await engine.tick();
    expect(await settle(engine, r2.id)).toMatchObject({ status: 'failed', error: { status: 500, transient: true } });
    expect(down.received).toHaveLength(2);
    expect((await engine.getRun(r2.id))!.steps[0]).toMatchObject({ status: 'failed', attempts: 2 });
    await rx.close();
    await down.close();
  });

  test('a network error (nothing listening) is transient; failOnHttpError false makes any status an output', async () => {
    const closed = await receiver();
    await closed.close();
    const rx = await receiver([{ status: 418, body: { teapot: true } }]);
    const { engine } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'N',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'tea', type: 'http.request', method: 'GET', url: rx.url, failOnHttpError: false },
          { id: 'gone', type: 'http.request', method: 'GET', url: closed.url },
        ],
      },
    });
    const run = await engine.startRun(a.id, {});
    expect(await settle(engine, run.id)).toMatchObject({ status: 'waiting', waitingOn: { kind: 'retry', stepId: 'gone' } });
    const { steps } = (await engine.getRun(run.id))!;
    expect(steps[0]).toMatchObject({ status: 'succeeded', output: { status: 418, body: { teapot: true } } });
    expect(steps[1]).toMatchObject({ status: 'retrying', error: { code: 'NETWORK_ERROR', transient: true } });
    await engine.cancelRun(run.id);
    expect((await engine.getRun(run.id))!.run.status).toBe('cancelled');
    await rx.close();
  });

  test('a service error with a 4xx status is permanent', async () => {
    const { engine, service } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'S',
        trigger: { type: 'webhook' },
        actions: [{ id: 'c', type: 'task.complete', projectId: 'p1', taskId: 'missing' }],
      },
    });
    const run = await engine.startRun(a.id, {});
    expect(await settle(engine, run.id)).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND', status: 404, transient: false } });
    expect(service.calls).toHaveLength(1);
  });
});

describe('engine: durability of the journal', () => {
  test('a new engine over the same store resumes at the first unfinished step and never repeats a finished one', async () => {
    const rx = await receiver([{ status: 200, body: { n: 1 } }]);
    const store = new MemoryStore();
    const service = new MemService();
    const clock = new TestClock();
    const first = setup({ store, service, clock });
    const a = await first.engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Resume',
        trigger: { type: 'webhook' },
        actions: [
          {
            id: 'one',
            type: 'http.request',
            method: 'POST',
            url: rx.url + '/one',
            body: { type: 'json', value: { v: '{{ trigger.v }}' } },
          },
          { id: 'two', type: 'task.create', projectId: 'p1', text: 'from {{ steps.one.body.n }}' },
          { id: 'pause', type: 'delay', minutes: 5 },
          { id: 'three', type: 'task.create', projectId: 'p1', text: 'three after {{ steps.two.id }}' },
          { id: 'four', type: 'http.request', method: 'POST', url: rx.url + '/four' },
        ],
      },
    });
    // Run A waits on the delay; run B is interrupted inside step "three" (its call never returns).
    const runA = await first.engine.startRun(a.id, { v: 'a' });
    expect((await settle(first.engine, runA.id)).status).toBe('waiting');
    const releases: (() => void)[] = [];
    const held: string[] = [];
    service.gate = (p) => {
      if (!p.text.startsWith('three')) return Promise.resolve();
      held.push(p.text);
      return new Promise<void>((resolve) => releases.push(resolve));
    };
    const runB = await first.engine.startRun(a.id, { v: 'b' });
    await settle(first.engine, runB.id);
    clock.advance(5 * 60_000);
    await first.engine.tick();
    // Run B's step "three" is inside its (held) service call; the journal records the step before calling.
    await waitFor(() => held.includes('three after t2'), "run B's step three to reach the service");
    const mid = (await first.engine.getRun(runB.id))!;
    expect(mid.run.status).toBe('running');
    expect(mid.steps.map((s) => [s.stepId, s.status])).toEqual([
      ['one', 'succeeded'],
      ['two', 'succeeded'],
      ['pause', 'succeeded'],
      ['three', 'running'],
    ]);
    // "Crash": the first engine stops without finishing; its hanging call is abandoned.
    await first.engine.stop(20);
    service.gate = undefined;
    const receivedBefore = rx.received.length;
    const createsBefore = service.calls.filter((c) => c.op === 'createTask').length;
    expect(receivedBefore).toBe(2);

    const second = setup({ store, service, clock });
    await second.engine.start();
    await second.engine.idle();
    for (const id of [runA.id, runB.id]) {
      const { run, steps } = (await second.engine.getRun(id))!;
      expect(run.status).toBe('completed');
      expect(steps.map((s) => s.stepId)).toEqual(['one', 'two', 'pause', 'three', 'four']);
      expect(steps.find((s) => s.stepId === 'one')!.attempts).toBe(1);
    }
    // Step "one" was not repeated: only the two "/four" calls are new.
    expect(rx.received.slice(receivedBefore).map((r) => r.url)).toEqual(['/four', '/four']);
    const newCreates = service.calls
      .filter((c) => c.op === 'createTask')
      .slice(createsBefore)
      .map((c) => (c.params as { text: string }).text);
    // run A: step three once; run B: step three re-attempted (it never finished), nothing else.
    expect(newCreates.sort()).toEqual(['three after t1', 'three after t2'].sort());
    const three = (await second.engine.getRun(runB.id))!.steps.find((s) => s.stepId === 'three')!;
    expect(three.attempts).toBe(2);
    for (const release of releases) release();
    await rx.close();
  });

  test('runs keep the version they started with; disabling cancels waiting runs', async () => {
    const { engine, clock, service } = setup();
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'V1',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'w', type: 'delay', minutes: 1 },
          { id: 'c', type: 'task.create', projectId: 'p1', text: 'v1' },
        ],
      },
    });
    const old = await engine.startRun(a.id, {});
    await settle(engine, old.id);
    const updated = await engine.updateAutomation(a.id, {
      name: 'V2',
      trigger: { type: 'webhook' },
      actions: [{ id: 'c', type: 'task.create', projectId: 'p1', text: 'v2' }],
    });
    expect(updated.version).toBe(2);
    const fresh = await engine.startRun(a.id, {});
    expect(fresh.version).toBe(2);
    await settle(engine, fresh.id);
    clock.advance(60_000);
    await engine.tick();
    await engine.idle();
    expect([...service.tasks.values()].map((t) => t.text).sort()).toEqual(['v1', 'v2']);

    const waiting = await engine.startRun(a.id, {}, { dedupeKey: 'x' });
    const b = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'W', trigger: { type: 'webhook' }, actions: [{ type: 'approval' }] },
    });
    const parked = await engine.startRun(b.id, {});
    await settle(engine, parked.id);
    expect((await engine.getRun(parked.id))!.run.status).toBe('waiting');
    await engine.setEnabled(b.id, false);
    expect((await engine.getRun(parked.id))!.run.status).toBe('cancelled');
    await expect(engine.startRun(b.id, {})).rejects.toMatchObject({ status: 409 });
    const test = await engine.startRun(b.id, {}, { test: true });
    expect(test.test).toBe(true);
    await engine.idle();
    expect((await engine.getRun(waiting.id))!.run.status).toBe('completed');
  });
});

describe('engine: an automation deleted while its run executes', () => {
  test('the run goes with it quietly: no store-error warning, no retry, the engine idles', async () => {
    const service = new MemService();
    let release!: () => void;
    service.gate = () => new Promise<void>((resolve) => (release = resolve));
    const warnings: string[] = [];
    const store = new MemoryStore();
    const engine = createEngine({
      store,
      service,
      http: fetchHttp(),
      clock: new TestClock(),
      autoTick: false,
      logger: { warn: (_data, message) => warnings.push(message), error: (_data, message) => warnings.push(message) },
    });
    const automation = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Deleted mid-run',
        trigger: { type: 'task.added' },
        actions: [
          { type: 'task.create', projectId: 'p1', text: 'first' },
          { type: 'task.create', projectId: 'p1', text: 'second' },
        ],
      },
    });
    const [run] = await engine.submit(taskAdded('gone-1'));
    // The run is inside its first service call when its automation is deleted.
    await waitFor(() => release !== undefined, 'the run to reach the service');
    await engine.deleteAutomation(automation.id);
    service.gate = undefined;
    release();
    await engine.idle();
    expect(await store.getRun(run!.id)).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(service.calls.map((c) => (c.params as { text: string }).text)).toEqual(['first']);
  });
});

describe('engine: concurrency limit', () => {
  test('at most N runs execute at once; the rest start in submission order', async () => {
    const service = new MemService();
    const releases: (() => void)[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    service.gate = () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise<void>((resolve) =>
        releases.push(() => {
          inFlight--;
          resolve();
        }),
      );
    };
    const { engine } = setup({ service, maxConcurrentRuns: 2 });
    await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'C',
        trigger: { type: 'task.added' },
        actions: [{ type: 'task.create', projectId: 'p1', text: '{{ trigger.nodeText }}' }],
      },
    });
    for (let i = 1; i <= 6; i++) await engine.submit(taskAdded(`c${i}`, { nodeText: `run ${i}` }));
    const started = () => service.calls.map((c) => (c.params as { text: string }).text);
    // Both admitted runs are held inside their service call; the other four can only be queued.
    await waitFor(() => releases.length === 2, 'the first two runs to reach the service');
    expect(started()).toEqual(['run 1', 'run 2']);
    expect(engine.load()).toEqual({ active: 2, queued: 4 });
    for (let i = 0; i < 6; i++) {
      while (releases.length === 0) await new Promise((r) => setTimeout(r, 5));
      releases.shift()!();
      await new Promise((r) => setTimeout(r, 10));
    }
    await engine.idle();
    expect(started()).toEqual(['run 1', 'run 2', 'run 3', 'run 4', 'run 5', 'run 6']);
    expect(maxInFlight).toBe(2);
  });
});

describe('engine: schedules', () => {
  test('every N minutes: each slot fires once, also across engine instances; after downtime only the latest slot', async () => {
    const store = new MemoryStore();
    const clock = new TestClock(Date.UTC(2025, 0, 6, 9, 7, 0));
    const first = setup({ store, clock });
    const a = await first.engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'S', trigger: { type: 'schedule', everyMinutes: 15 }, actions: [] },
    });
    const runs = async () => (await store.listRuns({ automationId: a.id, limit: 100 })).reverse();
    await first.engine.tick();
    expect(await runs()).toHaveLength(0); // 09:00 was before the automation existed
    clock.ms = Date.UTC(2025, 0, 6, 9, 15, 30);
    await first.engine.tick();
    await first.engine.tick();
    expect((await runs()).map((r) => r.trigger.variables.scheduledAt)).toEqual(['2025-01-06T09:15:00.000Z']);

    const second = setup({ store, clock });
    await second.engine.start();
    await second.engine.tick();
    expect(await runs()).toHaveLength(1);
    clock.ms = Date.UTC(2025, 0, 6, 10, 5, 0); // 09:30, 09:45 and 10:00 missed
    await second.engine.tick();
    await second.engine.tick();
    expect((await runs()).map((r) => r.trigger.variables.scheduledAt)).toEqual(['2025-01-06T09:15:00.000Z', '2025-01-06T10:00:00.000Z']);
    await second.engine.idle();
    await second.engine.stop();
    expect((await runs()).every((r) => r.status === 'completed' && r.trigger.type === 'schedule')).toBe(true);
  });

  test('cron with a time zone; disabled schedules do not fire and resume from the next slot', async () => {
    const clock = new TestClock(Date.UTC(2025, 0, 6, 7, 0, 0)); // Monday 08:00 in Paris
    const { engine, store } = setup({ clock });
    const a = await engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'Cron', trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' }, actions: [] },
    });
    const runs = async () =>
      (await store.listRuns({ automationId: a.id, limit: 100 })).reverse().map((r) => r.trigger.variables.scheduledAt);
    clock.ms = Date.UTC(2025, 0, 6, 8, 0, 1); // 09:00:01 Paris
    await engine.tick();
    expect(await runs()).toEqual(['2025-01-06T08:00:00.000Z']);
    await engine.setEnabled(a.id, false);
    clock.ms = Date.UTC(2025, 0, 7, 8, 30, 0);
    await engine.tick();
    expect(await runs()).toHaveLength(1);
    await engine.setEnabled(a.id, true);
    await engine.tick();
    expect(await runs()).toHaveLength(1); // Tuesday's slot passed while disabled
    clock.ms = Date.UTC(2025, 0, 8, 8, 0, 0);
    await engine.tick();
    expect(await runs()).toEqual(['2025-01-06T08:00:00.000Z', '2025-01-08T08:00:00.000Z']);
    await engine.idle();
  });
});

describe('engine: a non-executing engine beside an executing one on the same store', () => {
  test('runs it starts, decisions and cancel requests are carried out by the executing engine, once', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    const clock = new TestClock();
    const executing = createEngine({ store, service, http: fetchHttp(), clock, autoTick: false });
    let notified = 0;
    const recording = createEngine({
      store,
      service,
      http: fetchHttp(),
      clock,
      autoTick: false,
      executes: false,
      onWork: () => notified++,
    });
    await executing.start();
    const make = await recording.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Make',
        trigger: { type: 'webhook' },
        actions: [{ id: 'make', type: 'task.create', projectId: 'p1', text: 'made {{ trigger.n }}' }],
      },
    });
    const gated = await recording.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Gated',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'ok', type: 'approval', message: 'go?' },
          { id: 'make', type: 'task.create', projectId: 'p1', text: 'approved' },
        ],
      },
    });
    const sleeper = await recording.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: { name: 'Sleeper', trigger: { type: 'webhook' }, actions: [{ id: 'sleep', type: 'delay', seconds: 3600 }] },
    });

    // Started by the recording engine: stored as queued, nothing executed until the executing one looks.
    const run = await recording.startRun(make.id, { n: 1 });
    expect(run.status).toBe('queued');
    expect(notified).toBe(1);
    expect(service.tasks.size).toBe(0);
    const settled = recording.waitForRun(run.id, 5000);
    await executing.discover();
    await executing.discover();
    expect((await settled).status).toBe('completed');

    const approval = await recording.startRun(gated.id, {});
    await executing.discover();
    await executing.idle();
    expect((await store.getRun(approval.id))!.status).toBe('waiting');
    const decided = recording.decide(approval.id, true, { handle: 'ann' });
    await decided;
    await executing.discover();
    expect((await recording.waitForRun(approval.id, 5000)).status).toBe('completed');

    const sleeping = await recording.startRun(sleeper.id, {});
    await executing.discover();
    await executing.idle();
    expect((await store.getRun(sleeping.id))!.status).toBe('waiting');
    const cancelling = recording.cancelRun(sleeping.id);
    await waitFor(async () => (await store.listCancelRequests()).includes(sleeping.id), 'the cancel request');
    await executing.discover();
    expect((await cancelling).status).toBe('cancelled');
    expect(await store.listCancelRequests()).toEqual([]);

    expect([...service.tasks.values()].map((t) => t.text).sort()).toEqual(['approved', 'made 1']);
    expect(notified).toBe(5);
    await executing.stop();
  });
});

describe('engine: several executing engines on one store (run leases)', () => {
  const make = (engine: Engine) =>
    engine.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Make',
        trigger: { type: 'webhook' },
        actions: [{ id: 'make', type: 'task.create', projectId: 'p1', text: 'made {{ trigger.n }}' }],
      },
    });

  test('they share the queued runs, each run executed by one of them, once', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    const clock = new TestClock();
    const executedBy = new Map<string, string[]>();
    const engineFor = (workerId: string) =>
      createEngine({
        store,
        service,
        http: fetchHttp(),
        clock,
        autoTick: false,
        maxConcurrentRuns: 2,
        workerId,
        onRunSettled: (run) => executedBy.set(run.id, [...(executedBy.get(run.id) ?? []), workerId]),
      });
    const a = engineFor('a');
    const b = engineFor('b');
    const recording = createEngine({ store, service, http: fetchHttp(), clock, autoTick: false, executes: false });
    const automation = await make(recording);
    const runs: RunRecord[] = [];
    for (let n = 0; n < 12; n++) runs.push(await recording.startRun(automation.id, { n }));

    // Both claim at once: each takes what fits its queue, and more as room frees up.
    await Promise.all([a.start(), b.start()]);
    await waitFor(
      async () => (await Promise.all(runs.map((r) => store.getRun(r.id)))).every((r) => r!.status === 'completed'),
      'every run to complete',
    );

    expect([...executedBy.keys()].sort()).toEqual(runs.map((r) => r.id).sort());
    expect([...executedBy.values()].every((by) => by.length === 1)).toBe(true);
    const counts = {
      a: [...executedBy.values()].filter(([by]) => by === 'a').length,
      b: [...executedBy.values()].filter(([by]) => by === 'b').length,
    };
    expect(counts.a).toBeGreaterThan(0);
    expect(counts.b).toBeGreaterThan(0);
    expect([...service.tasks.values()].map((t) => t.text).sort()).toEqual(runs.map((_, n) => `made ${n}`).sort());
    await Promise.all([a.stop(), b.stop()]);
  });

  test('a run whose engine died is taken over once its lease runs out, not before', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    const engine = createEngine({ store, service, http: fetchHttp(), clock: new TestClock(), autoTick: false, workerId: 'alive' });
    const recording = createEngine({ store, service, http: fetchHttp(), autoTick: false, executes: false });
    const run = await recording.startRun((await make(recording)).id, { n: 1 });
    // Claimed by a process that died right after: its lease holds for 300 ms more.
    expect(await store.claimRun(run.id, { owner: 'dead', now: Date.now(), until: Date.now() + 300 })).toBe(true);
    await engine.start();
    await engine.idle();
    expect((await store.getRun(run.id))!.status).toBe('queued');
    expect(await store.claimRun(run.id, { owner: 'alive', now: Date.now(), until: Date.now() + 1000 })).toBe(false);
    await waitFor(async () => {
      await engine.discover();
      await engine.idle();
      return (await store.getRun(run.id))!.status === 'completed';
    }, 'the run to be taken over');
    expect(service.tasks.size).toBe(1);
    await engine.stop();
  });

  test('cancelling a run another engine executes asks that engine, which stops it at the next step', async () => {
    const store = new MemoryStore();
    const service = new MemService();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = http.createServer((_req, res) => void held.then(() => res.end('{}')));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
    const a = createEngine({ store, service, http: fetchHttp(), autoTick: false, workerId: 'a' });
    const b = createEngine({ store, service, http: fetchHttp(), autoTick: false, workerId: 'b' });
    await b.start();
    const automation = await a.createAutomation({
      workspaceId: WS,
      ownerId: OWNER,
      definition: {
        name: 'Slow',
        trigger: { type: 'webhook' },
        actions: [
          { id: 'call', type: 'http.request', method: 'GET', url },
          { id: 'make', type: 'task.create', projectId: 'p1', text: 'after the call' },
        ],
      },
    });
    await a.start();
    const run = await a.startRun(automation.id, {});
    await waitFor(
      async () => (await store.getSteps(run.id)).some((s) => s.stepId === 'call' && s.status === 'running'),
      'the call to be in flight on a',
    );
    const cancelling = b.cancelRun(run.id);
    await waitFor(async () => (await store.listCancelRequests()).includes(run.id), 'the cancel request');
    await a.discover();
    release();
    expect((await cancelling).status).toBe('cancelled');
    expect(service.tasks.size).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
    await new Promise<void>((resolve) => slow.close(() => resolve()));
  });
});
