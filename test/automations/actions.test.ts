import { addUser, client, runCli, type TestServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation } from './helpers';

/** Every action kind, with its effect checked through the API. */
describe('automation actions', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' });
  });
  afterAll(() => server.close());

  test('task actions and an agent command act through the same logic as the API', async () => {
    const projectId = await newProject(server, 'Actions');
    const [a, b, c] = await addTasks(server, projectId, ['Task A', 'Task B', 'Task C']);
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${a!.id}/complete`)).status).toBe(200);
    const field = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Score', type: 'number' })).body.item;
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Scribe',
        data: { type: 'agent', data: { commands: [{ id: 'sum', name: 'Summarise', prompt: 'Summarise: {{ input }}' }] } },
      })
    ).body.item;

    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Everything',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'create',
          type: 'task.create',
          projectId: '{{ trigger.projectId }}',
          text: 'Created for {{ trigger.label }}',
          referenceTaskId: '{{ trigger.a }}',
          placement: 'afterbegin',
        },
        {
          id: 'update',
          type: 'task.update',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.b }}',
          text: 'B updated by {{ automation.name }}',
        },
        { id: 'complete', type: 'task.complete', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.b }}' },
        { id: 'reopen', type: 'task.uncomplete', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.a }}' },
        { id: 'assign', type: 'task.assign', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.b }}', handles: ['ann', 'owner'] },
        {
          id: 'date',
          type: 'task.setDate',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.b }}',
          start: { date: '2030-01-02', time: '09:00', timezone: 'Europe/Paris' },
          end: { date: '{{ trigger.endDate }}' },
        },
        {
          id: 'note',
          type: 'task.setNote',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.b }}',
          value: 'note of run {{ run.id }}',
        },
        {
          id: 'score',
          type: 'task.setField',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.b }}',
          fieldId: '{{ trigger.fieldId }}',
          value: '{{ trigger.score }}',
        },
        {
          id: 'move',
          type: 'task.move',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ steps.create.id }}',
          targetTaskId: '{{ trigger.c }}',
          position: 'afterend',
        },
        { id: 'drop', type: 'task.delete', projectId: '{{ trigger.projectId }}', taskId: '{{ trigger.c }}' },
        {
          id: 'ask',
          type: 'agent.command',
          agentId: '{{ trigger.agentId }}',
          command: 'Summarise',
          input: 'the {{ trigger.label }} of {{ steps.update.text }}',
        },
      ],
    });
    const payload = {
      projectId,
      a: a!.id,
      b: b!.id,
      c: c!.id,
      fieldId: field.id,
      agentId: agent.id,
      label: 'demo',
      score: 7,
      endDate: '2030-01-03',
    };
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    const run = res.body.item;
    expect(run).toMatchObject({ status: 'completed', test: true, depth: 1 });
    expect(run.steps.map((s: any) => [s.id, s.status, s.attempts])).toEqual(
      ['create', 'update', 'complete', 'reopen', 'assign', 'date', 'note', 'score', 'move', 'drop', 'ask'].map((id) => [
        id,
        'succeeded',
        1,
      ]),
    );
    const out = Object.fromEntries(run.steps.map((s: any) => [s.id, s.output]));
    const created = out.create;
    expect(created).toMatchObject({ text: 'Created for demo', parentId: a!.id, completed: false });

    // Effects, read back through the API.
    const tasks = await allTasks(server, projectId);
    expect(tasks.map((t) => [t.text, t.completed])).toEqual([
      ['Task A', false],
      ['B updated by Everything', true],
      ['Created for demo', false],
    ]);
    expect(tasks[2]!.id).toBe(created.id);
    expect(tasks[2]!.parentId).toBeUndefined(); // moved out of A, after C (which was then deleted)
    const base = `/api/v1/projects/${projectId}/tasks/${b!.id}`;
    expect((await api.get(`${base}/assignees`)).body.items.map((x: any) => x.handle).sort()).toEqual(['ann', 'owner']);
    expect((await api.get(`${base}/date`)).body.item).toMatchObject({
      start: { date: '2030-01-02', time: '09:00', timezone: 'Europe/Paris' },
      end: { date: '2030-01-03' },
    });
    expect((await api.get(`${base}/note`)).body.item).toEqual({ type: 'text', value: `note of run ${run.id}` });
    expect((await api.get(`${base}/fields/${field.id}`)).body.item).toEqual({ fieldId: field.id, value: 7 });
    expect((await api.get(`/api/v1/projects/${projectId}/tasks/${c!.id}`)).status).toBe(404);

    // The agent command is a conversation of the agent, visible through the convos endpoints.
    expect(out.ask.text).toBe('[offline] Summarise: the demo of B updated by Everything');
    const convo = await api.get(`/api/v1/agents/${agent.id}/convos/${out.ask.conversationId}`);
    expect(convo.status).toBe(200);
    expect(convo.body.item.data.messages.at(-1)).toEqual({ role: 'assistant', content: out.ask.text });
  });

  test('a task action refused by the service validation fails the step permanently with its error', async () => {
    const projectId = await newProject(server, 'Refusals');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Too long',
      trigger: { type: 'webhook' },
      actions: [{ id: 'make', type: 'task.create', projectId, text: '{{ trigger.text }}' }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { text: 'x'.repeat(2001) } });
    expect(res.body.item).toMatchObject({
      status: 'failed',
      error: { code: 'VALIDATION_ERROR', status: 400, transient: false, stepId: 'make' },
    });
    expect(res.body.item.steps[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { details: { field: 'tasks[0].content', reason: 'too_long' } },
    });
    const other = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { text: 'line\nbreak' } });
    expect(other.body.item.error.details.reason).toBe('contains_line_break');
    expect(await allTasks(server, projectId)).toHaveLength(0);
  });

  test("projects and agents of the owner's other workspaces are out of an automation's reach (404, nothing written)", async () => {
    const made = runCli(server.dataDir, 'workspace', 'create', 'Elsewhere', '--owner', 'owner');
    const otherWorkspace = /created workspace (\S+)/.exec(made.out)![1]!;
    const foreignProject = await newProject(server, 'Foreign', otherWorkspace);
    const foreignAgent = (
      await api.post(`/api/v1/folders/${otherWorkspace}/agents`, {
        name: 'Far',
        data: { type: 'agent', data: { commands: [{ name: 'c', prompt: 'p' }] } },
      })
    ).body.item;
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Reach',
      trigger: { type: 'webhook' },
      actions: [{ id: 'make', type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'injected' }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { projectId: foreignProject } });
    expect(res.body.item).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND', status: 404, transient: false, stepId: 'make' } });
    expect(await allTasks(server, foreignProject)).toHaveLength(0);
    const agentRun = await createAutomation(api, server.workspaceId, {
      name: 'Ask far',
      trigger: { type: 'webhook' },
      // Built by a template: a literal agent of another workspace is refused when saving.
      actions: [{ id: 'ask', type: 'agent.command', agentId: `{{ "${foreignAgent.id}" }}`, command: 'c', input: 'x' }],
    });
    const asked = await api.post(`/api/v1/automations/${agentRun.id}/test`, { payload: {} });
    expect(asked.body.item).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND', stepId: 'ask' } });
    expect((await api.get(`/api/v1/agents/${foreignAgent.id}/convos`)).body.items).toEqual([]);
  });

  test('HTTP Request: the SSRF guard refuses loopback targets without the development switch, at save time when it can', async () => {
    const strict = await automationServer({ TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '0' });
    try {
      const sapi = client(strict, strict.token);
      // A URL written out in full that the guard will always refuse is refused when saved.
      const meta = await sapi.post('/api/v1/automations', {
        workspaceId: strict.workspaceId,
        name: 'SSRF',
        trigger: { type: 'webhook' },
        actions: [{ id: 'meta', type: 'http.request', method: 'GET', url: 'https://169.254.169.254/latest/meta-data' }],
      });
      expect(meta.status).toBe(400);
      expect(meta.body.error.details).toEqual({ field: 'actions[0].url', reason: 'blocked_address' });
      const plain = await sapi.post('/api/v1/automations', {
        workspaceId: strict.workspaceId,
        name: 'SSRF',
        trigger: { type: 'webhook' },
        actions: [{ id: 'local', type: 'http.request', method: 'GET', url: `${strict.url}/healthz` }],
      });
      expect(plain.body.error.details).toEqual({ field: 'actions[0].url', reason: 'insecure_scheme' });
      // A templated URL is checked when the step runs.
      const automation = await createAutomation(sapi, strict.workspaceId, {
        name: 'SSRF',
        trigger: { type: 'webhook' },
        actions: [{ id: 'meta', type: 'http.request', method: 'GET', url: '{{ trigger.target }}' }],
      });
      const res = await sapi.post(`/api/v1/automations/${automation.id}/test`, {
        payload: { target: 'https://169.254.169.254/latest/meta-data' },
      });
      expect(res.body.item).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET', transient: false } });
      const again = await sapi.post(`/api/v1/automations/${automation.id}/test`, { payload: { target: `${strict.url}/healthz` } });
      expect(again.body.item).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET' } });
      expect(again.body.item.steps[0].attempts).toBe(1);
    } finally {
      await strict.close();
    }
  });
});
