import { addUser, call, client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runsOf, settledRuns, waitFor } from './helpers';

/** Every trigger kind, fired by real API calls against a real server. */
describe('automation triggers', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  const noop = (text: string) => [{ id: 'mark', type: 'task.create', projectId: '{{ trigger.projectId }}', text }];

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Triggers');
  });
  afterAll(() => server.close());

  test('task added: the run sees exactly the section 6.2 fields plus createdBy', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On add',
      trigger: { type: 'task.added', scope: { projectId } },
      actions: [
        {
          id: 'echo',
          type: 'branch',
          conditions: { anyOf: [{ allOf: [{ left: '{{ trigger.nodeText }}', operator: 'starts_with', right: 'Call' }] }] },
        },
      ],
    });
    const [task] = await addTasks(server, projectId, ['Call the bank']);
    const [run] = await settledRuns(api, a.id);
    expect(run.status).toBe('completed');
    expect(run.trigger.type).toBe('task.added');
    const v = run.trigger.variables;
    expect(Object.keys(v).sort()).toEqual(['assignees', 'createdBy', 'nodeId', 'nodeText', 'projectId', 'projectLink', 'projectTitle']);
    expect(v).toMatchObject({ projectId, nodeId: task!.id, nodeText: 'Call the bank', projectTitle: 'Triggers', assignees: [] });
    expect(v.projectLink).toBe(`${server.url}/projects/${projectId}`);
    expect(run.steps[0].output).toEqual({ result: true, matchedGroup: 0 });
    await api.post(`/api/v1/automations/${a.id}/disable`);
  });

  test('task completed: section 6.2 fields plus custom field values as keys', async () => {
    const field = await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Priority', type: 'number' });
    expect(field.status).toBe(200);
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On done',
      trigger: { type: 'task.completed', scope: { projectId } },
      actions: [],
    });
    const [task] = await addTasks(server, projectId, ['Ship it']);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${field.body.item.id}`, { value: 3 })).status).toBe(200);
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${task!.id}/complete`)).status).toBe(200);
    const [run] = await settledRuns(api, a.id);
    const v = run.trigger.variables;
    expect(v).toMatchObject({
      projectId,
      nodeId: task!.id,
      nodeText: 'Ship it',
      projectTitle: 'Triggers',
      completedBy: 'owner',
      assignees: [],
      Priority: 3,
    });
    expect(v.completedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(v.triggerTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(v.projectLink).toContain(projectId);
    await api.post(`/api/v1/automations/${a.id}/disable`);
  });

  test('new comment', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On comment',
      trigger: { type: 'comment.created' },
      actions: noop('re: {{ trigger.commentText }}'),
    });
    const [task] = await addTasks(server, projectId, ['Discuss']);
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${task!.id}/comments`, { text: 'looks good' })).status).toBe(200);
    const [run] = await settledRuns(api, a.id);
    expect(run.status).toBe('completed');
    expect(run.trigger.variables).toMatchObject({ projectId, nodeId: task!.id, commentText: 'looks good', author: 'owner' });
    expect(run.steps[0].output.text).toBe('re: looks good');
    await api.post(`/api/v1/automations/${a.id}/disable`);
  });

  test('due date: a date that has just passed fires once', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On due',
      trigger: { type: 'task.due', scope: { folderId: server.workspaceId } },
      actions: [],
    });
    const [task, witness] = await addTasks(server, projectId, ['Pay rent', 'Due witness']);
    const justPassed = async (taskId: string) => {
      const now = new Date(Date.now() - 60_000);
      const date = now.toISOString().slice(0, 10);
      const time = now.toISOString().slice(11, 16);
      expect(
        (
          await api.put(`/api/v1/projects/${projectId}/tasks/${taskId}/date`, {
            start: { date, time, timezone: 'UTC' },
            end: { date, time, timezone: 'UTC' },
          })
        ).status,
      ).toBe(200);
    };
    await justPassed(task!.id);
    const [run] = await settledRuns(api, a.id);
    expect(run.trigger.type).toBe('task.due');
    expect(run.trigger.variables).toMatchObject({ projectId, nodeId: task!.id, nodeText: 'Pay rent' });
    // Witness: a second due date, set only now, fires on a later scan; by then a repeat of the first would show.
    await justPassed(witness!.id);
    const runs = await settledRuns(api, a.id, 2);
    expect(runs.map((r) => r.trigger.variables.nodeId)).toEqual([task!.id, witness!.id]);
    await api.post(`/api/v1/automations/${a.id}/disable`);
  });

  test('project completed, scoped to a folder (subfolders included); other folders do not fire', async () => {
    const parent = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Clients' })).body.item.id;
    const child = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Acme', parentId: parent })).body.item.id;
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On project done',
      trigger: { type: 'project.completed', scope: { folderId: parent } },
      actions: [],
    });
    const inside = (await api.post('/api/v1/projects', { folderId: child, contentType: 'text/markdown', content: '# Inside' })).body.item
      .id;
    const outside = await newProject(server, 'Outside');
    expect((await api.post(`/api/v1/projects/${outside}/complete`)).status).toBe(200);
    expect((await api.post(`/api/v1/projects/${inside}/complete`)).status).toBe(200);
    const [run] = await settledRuns(api, a.id);
    expect(run.trigger.variables).toMatchObject({ projectId: inside, projectTitle: 'Inside', completedBy: 'owner' });
    // Witness: a project completed later directly in the scoped folder; once its run exists, the outside one had its chance.
    const witness = (await api.post('/api/v1/projects', { folderId: parent, contentType: 'text/markdown', content: '# Witness' })).body.item
      .id;
    expect((await api.post(`/api/v1/projects/${witness}/complete`)).status).toBe(200);
    const runs = await settledRuns(api, a.id, 2);
    expect(runs.map((r) => r.trigger.variables.projectId)).toEqual([inside, witness]);
    await api.post(`/api/v1/automations/${a.id}/disable`);
  });

  test('schedule: a cron with seconds fires once per slot', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Tick',
      trigger: { type: 'schedule', cron: '* * * * * *' },
      actions: [],
    });
    const runs = await waitFor(async () => {
      const list = await runsOf(api, a.id);
      return list.length >= 2 && list;
    }, 'two schedule runs');
    await api.post(`/api/v1/automations/${a.id}/disable`);
    const slots = runs.map((r: any) => r.trigger.variables.scheduledAt);
    expect(new Set(slots).size).toBe(slots.length);
    for (const slot of slots) expect(slot).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
  });

  test('webhook: every top-level body field is a variable; a token is required when asked; Idempotency-Key gives one run', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Inbound',
      trigger: { type: 'webhook', requireToken: true },
      actions: [{ id: 'make', type: 'task.create', projectId, text: 'Lead {{ trigger.name }} <{{ trigger.contact.email }}>' }],
    });
    expect(a.webhook.url).toMatch(new RegExp(`^${server.url}/webhooks/[A-Za-z0-9_-]{32,}$`));
    expect(a.webhook.token).toMatch(/^whk_/);
    const path = new URL(a.webhook.url).pathname;
    const body = { name: 'Ada', contact: { email: 'ada@example.com' }, n: 2 };
    expect((await call(server.url, 'POST', path, { body })).status).toBe(401);
    expect((await call(server.url, 'POST', path, { body, headers: { authorization: 'Bearer wrong-token-1234567' } })).status).toBe(401);

    const auth = { authorization: `Bearer ${a.webhook.token}`, 'idempotency-key': 'lead-1' };
    for (let i = 0; i < 3; i++) expect((await call(server.url, 'POST', path, { body, headers: auth })).status).toBe(200);
    const [run] = await settledRuns(api, a.id);
    expect(run.trigger).toMatchObject({ type: 'webhook', variables: body });
    expect(run.steps[0].output.text).toBe('Lead Ada <ada@example.com>');
    // without the key every call is its own run; this later run is also the witness that the
    // rejected calls and the repeated keyed calls above added no run of their own
    await call(server.url, 'POST', path, { body: { name: 'Bob', contact: {} }, headers: { authorization: auth.authorization } });
    const runs = await settledRuns(api, a.id, 2);
    expect(runs.map((r) => r.trigger.variables.name)).toEqual(['Ada', 'Bob']);
    expect(runs[1]).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_ERROR' } });
    // the token is shown only once
    const again = await api.get(`/api/v1/automations/${a.id}`);
    expect(again.body.item.webhook).toEqual({ id: a.webhook.id, url: a.webhook.url, requiresToken: true });
  });

  test('loop guard: an automation creating tasks on "task added" (its own changes included) stops at the depth limit', async () => {
    const loopProject = await newProject(server, 'Loop');
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Echo',
      // Without includeOwnChanges its own tasks would start nothing (task-change-triggers.test.ts).
      trigger: { type: 'task.added', scope: { projectId: loopProject }, includeOwnChanges: true },
      actions: [{ type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'echo of {{ trigger.nodeText }}' }],
    });
    await addTasks(server, loopProject, ['seed']);
    const runs = await settledRuns(api, a.id, 6);
    expect(runs.map((r) => [r.depth, r.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
      [4, 'completed'],
      [5, 'completed'],
      [6, 'skipped'],
    ]);
    expect(runs[5].error.code).toBe('DEPTH_LIMIT');
    // Witness: a second seed starts a second chain; once it has stopped too, a continuation of the
    // first chain (a 7th run, a 7th task) would show.
    await addTasks(server, loopProject, ['witness']);
    const all = await settledRuns(api, a.id, 12);
    const chain = [1, 2, 3, 4, 5, 6].map((d) => [d, d === 6 ? 'skipped' : 'completed']);
    expect(all.map((r) => [r.depth, r.status])).toEqual([...chain, ...chain]);
    const tasks = (await api.get(`/api/v1/projects/${loopProject}/tasks`)).body.items;
    expect(tasks).toHaveLength(12);
  });
});

describe('triggers for the remaining service events', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  test('task.assigned, project.created, project.assigned and project.joined start runs with the event fields', async () => {
    const pia = addUser(server, 'pia', { workspaceId: server.workspaceId, role: 'Participant' });
    const automations: Record<string, any> = {};
    for (const type of ['task.assigned', 'project.created', 'project.assigned', 'project.joined']) {
      automations[type] = await createAutomation(api, server.workspaceId, { name: `On ${type}`, trigger: { type }, actions: [] });
    }
    const projectId = await newProject(server, 'Events');
    const [task] = await addTasks(server, projectId, ['Call the bank']);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/assignees`, { handles: ['pia'] })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/members`, { handles: ['pia'] })).status).toBe(200);
    expect((await client(server, pia).put(`/api/v1/projects/${projectId}/members`, { handles: ['pia', 'owner'] })).status).toBe(403);
    expect((await api.put(`/api/v1/projects/${projectId}/members`, { handles: ['owner'] })).status).toBe(200);

    const link = `${server.url}/projects/${projectId}`;
    const [created] = await settledRuns(api, automations['project.created'].id);
    expect(created.trigger).toMatchObject({
      type: 'project.created',
      variables: { projectId, projectTitle: 'Events', projectLink: link, createdBy: 'owner' },
    });
    const [assignedTask] = await settledRuns(api, automations['task.assigned'].id);
    expect(assignedTask.trigger.variables).toMatchObject({
      projectId,
      nodeId: task!.id,
      nodeText: 'Call the bank',
      added: [{ handle: 'pia' }],
      assignedBy: 'owner',
    });
    const [assigned] = await settledRuns(api, automations['project.assigned'].id);
    expect(assigned.trigger.variables).toMatchObject({ projectId, handle: 'pia', assignedBy: 'owner' });
    const [joined] = await settledRuns(api, automations['project.joined'].id);
    expect(joined.trigger.variables).toMatchObject({ projectId, handle: 'owner' });
    expect(joined.trigger.variables.assignedBy).toBeUndefined();
    for (const a of Object.values(automations)) expect(await runsOf(api, a.id)).toHaveLength(1);
  });
});

describe('webhook bodies beyond JSON objects', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await automationServer();
  });
  afterAll(() => server.close());

  test('an array is trigger.body (a loop can walk it), a scalar too, and a form spreads its fields like an object', async () => {
    const api = client(server, server.token);
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Any body',
      trigger: { type: 'webhook' },
      actions: [{ id: 'kind', type: 'set', values: { body: '{{ trigger.body }}', name: '{{ trigger.name | default: "-" }}' } }],
    });
    const path = new URL(automation.webhook.url).pathname;
    expect((await call(server.url, 'POST', path, { body: [{ sku: 'a' }, { sku: 'b' }] })).status).toBe(200);
    expect((await call(server.url, 'POST', path, { body: 42 })).status).toBe(200);
    expect(
      (
        await call(server.url, 'POST', path, {
          rawBody: 'name=Ada&tag=x&tag=y',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(200);
    expect((await call(server.url, 'POST', path, { body: { name: 'Grace', body: 'kept' } })).status).toBe(200);
    const runs = await settledRuns(api, automation.id, 4);
    expect(runs.map((r: any) => r.steps[0].output)).toEqual([
      { body: [{ sku: 'a' }, { sku: 'b' }], name: '-' },
      { body: 42, name: '-' },
      { body: { name: 'Ada', tag: ['x', 'y'] }, name: 'Ada' },
      { body: 'kept', name: 'Grace' },
    ]);
    // Plus the call's own variables (method, headers, query, rawBody, http): see inbound-senders.test.ts.
    expect(runs[2].trigger.variables).toMatchObject({
      body: { name: 'Ada', tag: ['x', 'y'] },
      name: 'Ada',
      tag: ['x', 'y'],
      method: 'POST',
      rawBody: 'name=Ada&tag=x&tag=y',
    });
  });
});
