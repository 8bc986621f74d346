import { addUser, client, type TestServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runsOf } from './helpers';

/**
 * Step tests (docs "Automations", "Step tests"): `POST /automations/{id}/steps/{stepId}/test` runs
 * one step with a trigger sample and pinned outputs of earlier steps, recorded as a test run.
 */
describe('step tests', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  let automation: any;
  const definition = () => ({
    name: 'Step tests',
    trigger: { type: 'task.added' },
    actions: [
      { id: 'check', type: 'set', values: { body: { ok: 'yes' } } },
      {
        id: 'greet',
        type: 'set',
        values: { msg: 'Hi {{ trigger.nodeText }}, ok={{ steps.check.body.ok }}', whole: '{{ steps.check.body }}' },
      },
      { id: 'make', type: 'task.create', projectId, text: 'Made by {{ steps.greet.msg }}' },
      {
        id: 'each',
        type: 'loop',
        items: '{{ trigger.assignees }}',
        actions: [{ id: 'inner', type: 'set', values: { item: '{{ loop.item }}' } }],
      },
    ],
  });
  const testStep = (stepId: string, body: Record<string, unknown>, as = api, id = automation.id) =>
    as.post(`/api/v1/automations/${id}/steps/${stepId}/test`, body);

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Step tests');
    automation = await createAutomation(api, server.workspaceId, definition(), { enabled: false });
  });
  afterAll(() => server.close());

  test("pinned outputs and the trigger sample reach the step's templates; recorded as a one-step test run", async () => {
    const res = await testStep('greet', { trigger: { nodeText: 'Ann' }, steps: { check: { body: { ok: 'pinned' } } } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({
      stepId: 'greet',
      type: 'set',
      path: 'actions[1]',
      status: 'succeeded',
      sideEffects: false,
      output: { msg: 'Hi Ann, ok=pinned', whole: { ok: 'pinned' } },
    });
    expect(res.body.item.durationMs).toBeGreaterThanOrEqual(0);
    const run = (await api.get(`/api/v1/automations/${automation.id}/runs/${res.body.item.runId}`)).body.item;
    expect(run).toMatchObject({ test: true, status: 'completed', trigger: { variables: { nodeText: 'Ann' } } });
    expect(run.steps.map((s: any) => s.id)).toEqual(['greet']);
  });

  test('a draft definition is tested without saving it', async () => {
    const draft = definition();
    (draft.actions[1] as any).values = { msg: 'Draft {{ steps.check.body.ok }}' };
    const res = await testStep('greet', { definition: draft, steps: { check: { body: { ok: 1 } } } });
    expect(res.status).toBe(200);
    expect(res.body.item.output).toEqual({ msg: 'Draft 1' });
    expect((await api.get(`/api/v1/automations/${automation.id}`)).body.item.version).toBe(1);
  });

  test('a side-effecting step says so and acts for real', async () => {
    const res = await testStep('make', { trigger: {}, steps: { greet: { msg: 'the step test' } } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ stepId: 'make', status: 'succeeded', sideEffects: true });
    const taskId = res.body.item.output.id;
    expect(typeof taskId).toBe('string');
    const task = await api.get(`/api/v1/projects/${projectId}/tasks/${taskId}`);
    expect(task.status).toBe(200);
    expect(JSON.stringify(task.body)).toContain('Made by the step test');
  });

  test('a reference to an unknown variable is a 400 naming it', async () => {
    const draft = definition();
    (draft.actions[1] as any).values = { msg: '{{ steps.chek.body.ok }}' };
    const unknown = await testStep('greet', { definition: draft, steps: { check: { body: { ok: 1 } } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ reason: 'unknown_variable' });
    expect(unknown.body.message).toContain('steps.chek');

    // Known to the definition, but not in the samples.
    const unpinned = await testStep('greet', { trigger: { nodeText: 'Ann' }, steps: {} });
    expect(unpinned.status).toBe(400);
    expect(unpinned.body.error.details).toMatchObject({ reason: 'unknown_variable', field: 'actions[1].values.msg' });
    expect(unpinned.body.message).toContain('steps.check');
  });

  test('a step holding other steps is refused; its inner steps can be tested', async () => {
    const loop = await testStep('each', { trigger: { assignees: ['a'] } });
    expect(loop.status).toBe(400);
    expect(loop.body.error.details).toMatchObject({ reason: 'not_testable', field: 'actions[3]' });
    const inner = await testStep('inner', { trigger: { assignees: ['a'] } });
    expect(inner.status).toBe(400);
    expect(inner.body.message).toContain('loop');

    // A branch evaluates its conditions; the steps it holds do not run.
    const draft = definition();
    draft.actions.push({
      id: 'route',
      type: 'branch',
      conditions: { anyOf: [{ allOf: [{ left: '{{ steps.check.body.ok }}', operator: 'equals', right: 'yes' }] }] },
      then: [{ id: 'never', type: 'task.create', projectId, text: 'must not be created' }],
    } as any);
    const branch = await testStep('route', { definition: draft, steps: { check: { body: { ok: 'yes' } } } });
    expect(branch.status).toBe(200);
    expect(branch.body.item).toMatchObject({ status: 'succeeded', sideEffects: false, output: { result: true } });
    const run = (await api.get(`/api/v1/automations/${automation.id}/runs/${branch.body.item.runId}`)).body.item;
    expect(run.steps.map((s: any) => s.id)).toEqual(['route']);
  });

  test('unknown step 404, unknown automation 404, non-Owner 403, invalid draft 400', async () => {
    expect((await testStep('nope', {})).status).toBe(404);
    expect((await testStep('greet', {}, api, 'no-such-automation')).status).toBe(404);
    const collaborator = client(server, addUser(server, 'stepcolla', { workspaceId: server.workspaceId, role: 'Collaborator' }));
    expect((await testStep('greet', { steps: { check: { body: { ok: 1 } } } }, collaborator)).status).toBe(403);
    const bad = await testStep('greet', {
      definition: { name: 'x', trigger: { type: 'task.added' }, actions: [{ id: 'greet', type: 'set' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toContain('actions[0]');
  });

  test("a webhook trigger's sample is the call's body, as a test run's payload", async () => {
    const hook = await createAutomation(api, server.workspaceId, {
      name: 'Hook',
      trigger: { type: 'webhook' },
      actions: [{ id: 's', type: 'set', values: { v: '{{ trigger.body.name }}/{{ trigger.name }}' } }],
    });
    const res = await testStep('s', { trigger: { name: 'Ann' } }, api, hook.id);
    expect(res.status).toBe(200);
    expect(res.body.item.output).toEqual({ v: 'Ann/Ann' });
  });

  test('step tests are test runs: not counted in the metrics', async () => {
    const runs = await runsOf(api, automation.id);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r: any) => r.test === true)).toBe(true);
    const metrics = await api.get(`/api/v1/automations/${automation.id}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body.item.total).toBe(0);
  });
});
