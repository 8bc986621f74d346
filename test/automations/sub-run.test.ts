import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, endedRuns, runsOf, runWithStatus, settledRuns, waitFor } from './helpers';
import { newProject } from '../helpers/fixtures-tasks';

/**
 * Run another automation (docs "Automations", "Run another automation"): an `automation.run` step
 * starts a run of another automation of the workspace with input variables, waits for it durably
 * (or not), reads its step outputs and response, fails when the child fails, and chains stop at
 * the loop guard.
 */
describe('automation.run (sub-automations)', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  const fire = (a: any, body: unknown) => call(server.url, 'POST', new URL(a.webhook.url).pathname, { body });

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Subs');
  });
  afterAll(() => server.close());

  test('the parent waits for the child, reads its steps and response, and the child sees the input as trigger variables', async () => {
    const child = await createAutomation(api, server.workspaceId, {
      name: 'Make a ticket',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'pause', type: 'delay', seconds: 1 },
        { id: 'make', type: 'task.create', projectId, text: 'Ticket for {{ trigger.customer.name }}' },
        { id: 'answer', type: 'respond', body: { ticket: '{{ steps.make.id }}' } },
      ],
    });
    const parent = await createAutomation(api, server.workspaceId, {
      name: 'Intake',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'sub', type: 'automation.run', automationId: child.id, input: { customer: { name: '{{ trigger.name }}' }, priority: 2 } },
        {
          id: 'note',
          type: 'task.create',
          projectId,
          text: '{{ steps.sub.status }}: {{ steps.sub.response.body.ticket }} / {{ steps.sub.steps.make.text }}',
        },
      ],
    });
    expect((await fire(parent, { name: 'Ada' })).status).toBe(200);
    const waiting = await waitFor(async () => {
      const [r] = await runsOf(api, parent.id);
      return r?.status === 'waiting' && r;
    }, 'the parent waiting for its child');
    expect(waiting.waitingFor).toEqual({ kind: 'automation', stepId: 'sub' });
    const done = await runWithStatus(api, parent.id, waiting.id, 'completed');
    const [childRun] = await settledRuns(api, child.id);
    expect(childRun.trigger).toMatchObject({
      type: 'automation.run',
      eventId: waiting.id,
      variables: { customer: { name: 'Ada' }, priority: 2 },
    });
    expect(childRun.depth).toBe(done.depth + 1);
    const sub = done.steps.find((s: any) => s.id === 'sub');
    expect(sub.input).toMatchObject({ automationId: child.id, wait: true, runId: childRun.id });
    const ticket = childRun.steps.find((s: any) => s.id === 'make').output.id;
    expect(sub.output).toEqual({
      runId: childRun.id,
      status: 'completed',
      steps: {
        pause: expect.any(Object),
        make: expect.objectContaining({ id: ticket }),
        answer: { status: 200, headers: {}, body: { ticket } },
      },
      response: { status: 200, headers: {}, body: { ticket } },
    });
    expect(done.steps.find((s: any) => s.id === 'note').output.text).toBe(`completed: ${ticket} / Ticket for Ada`);
  });

  test('wait: false goes on at once with the child run id', async () => {
    const child = await createAutomation(api, server.workspaceId, {
      name: 'Background',
      trigger: { type: 'webhook' },
      actions: [{ id: 'make', type: 'task.create', projectId, text: 'background {{ trigger.n }}' }],
    });
    const parent = await createAutomation(api, server.workspaceId, {
      name: 'Fire and forget',
      trigger: { type: 'webhook' },
      actions: [{ id: 'sub', type: 'automation.run', automationId: '{{ trigger.target }}', input: { n: '{{ trigger.n }}' }, wait: false }],
    });
    await fire(parent, { target: child.id, n: 5 });
    const [run] = await settledRuns(api, parent.id);
    expect(run.status).toBe('completed');
    const [childRun] = await settledRuns(api, child.id);
    expect(run.steps[0].output).toEqual({ runId: childRun.id, status: 'queued' });
    expect(childRun.steps[0].output.text).toBe('background 5');
  });

  test('cancelling a parent cancels the runs it waits for, down the chain; children it did not wait for go on', async () => {
    const sleeper = (name: string) =>
      createAutomation(api, server.workspaceId, {
        name,
        trigger: { type: 'webhook' },
        actions: [{ id: 'sleep', type: 'delay', seconds: 3600 }],
      });
    const grandchild = await sleeper('Deep sleeper');
    const background = await sleeper('Background sleeper');
    const child = await createAutomation(api, server.workspaceId, {
      name: 'Middle',
      trigger: { type: 'webhook' },
      actions: [{ id: 'deeper', type: 'automation.run', automationId: grandchild.id }],
    });
    const parent = await createAutomation(api, server.workspaceId, {
      name: 'Top',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'detached', type: 'automation.run', automationId: background.id, wait: false },
        { id: 'sub', type: 'automation.run', automationId: child.id },
      ],
    });
    await fire(parent, {});
    const waitingRun = async (automationId: string) =>
      waitFor(async () => {
        const [r] = await runsOf(api, automationId);
        return r?.status === 'waiting' && r;
      }, `a waiting run of ${automationId}`);
    const top = await waitingRun(parent.id);
    const middle = await waitingRun(child.id);
    const deep = await waitingRun(grandchild.id);
    const detached = await waitingRun(background.id);
    const cancelled = await api.post(`/api/v1/automations/${parent.id}/runs/${top.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.item.status).toBe('cancelled');
    await runWithStatus(api, child.id, middle.id, 'cancelled');
    await runWithStatus(api, grandchild.id, deep.id, 'cancelled');
    expect((await api.get(`/api/v1/automations/${background.id}/runs/${detached.id}`)).body.item.status).toBe('waiting');
    expect((await api.get(`/api/v1/automations/${parent.id}/runs/${top.id}`)).body.item.status).toBe('cancelled');
  });

  test('a failing child fails the parent step with SUB_RUN_FAILED and the child error; an unknown target fails with NOT_FOUND', async () => {
    const child = await createAutomation(api, server.workspaceId, {
      name: 'Breaks',
      trigger: { type: 'webhook' },
      // Built by a template: a literal unknown task is refused when saving.
      actions: [{ id: 'bad', type: 'task.update', projectId, taskId: "{{ 'no-such-task' }}", text: 'x' }],
    });
    const parent = await createAutomation(api, server.workspaceId, {
      name: 'Calls a broken one',
      trigger: { type: 'webhook' },
      actions: [{ id: 'sub', type: 'automation.run', automationId: '{{ trigger.target }}' }],
    });
    await fire(parent, { target: child.id });
    await fire(parent, { target: 'nope' });
    const [broken, unknown] = await endedRuns(api, parent.id, 2);
    expect(broken.status).toBe('failed');
    expect(broken.error).toMatchObject({ code: 'SUB_RUN_FAILED', stepId: 'sub' });
    expect(broken.steps[0].error.details).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND' } });
    expect(unknown.status).toBe('failed');
    expect(unknown.error).toMatchObject({ code: 'NOT_FOUND', stepId: 'sub' });
  });

  test('an automation calling itself stops at the loop guard, and every run of the chain ends', async () => {
    const self = await createAutomation(api, server.workspaceId, { name: 'Recursive', trigger: { type: 'webhook' }, actions: [] });
    const updated = await api.put(`/api/v1/automations/${self.id}`, {
      name: 'Recursive',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'again', type: 'automation.run', automationId: self.id, input: { level: '{{ trigger.level | default: 0 | plus: 1 }}' } },
      ],
    });
    expect(updated.status).toBe(200);
    await fire(self, { level: 0 });
    // Parents wait on their child until the failure reaches them: wait for the whole chain to end.
    const runs = await endedRuns(api, self.id, 6, 30000);
    expect(runs.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'skipped']);
    expect(runs[5].error.code).toBe('DEPTH_LIMIT');
    expect(runs[4].error.code).toBe('SUB_RUN_FAILED');
  });

  test('a literal automationId outside the workspace is refused when saving', async () => {
    const res = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad target',
      trigger: { type: 'webhook' },
      actions: [{ type: 'automation.run', automationId: 'not-an-automation' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'actions[0].automationId', reason: 'not_found' });
  });
});
