import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV } from './helpers';

/** Saving an automation checks what it names against its workspace (docs "Automations", "Validation"). */
describe('automation references are checked when saved', () => {
  let server: TestServer;
  let other: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer({ env: AUTOMATION_ENV });
    other = await startServer({ env: AUTOMATION_ENV });
    api = client(server, server.token);
    addUser(server, 'amy', { workspaceId: server.workspaceId, role: 'Participant' });
    addUser(server, 'loner');
  });
  afterAll(async () => {
    await server?.close();
    await other?.close();
  });

  const save = (definition: Record<string, unknown>) =>
    api.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'Checked', ...definition });
  const approval = (approvers: string[]) => ({
    trigger: { type: 'webhook' },
    actions: [{ id: 'ok', type: 'approval', approvers, then: [{ id: 'inner', type: 'approval', approvers }] }],
  });

  test('approvers must be members of the workspace (any case, with or without @)', async () => {
    expect((await save(approval(['@amy', 'AMY', 'owner']))).status).toBe(200);
    const stranger = await save(approval(['amy', '@loner']));
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details).toEqual({ field: 'actions[0].approvers[1]', reason: 'not_a_member' });
    expect(stranger.body.message).toContain('@loner');
    const unknown = await save({
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', then: [{ id: 'inner', type: 'approval', approvers: ['nobody'] }] }],
    });
    expect(unknown.body.error.details).toEqual({ field: 'actions[0].then[0].approvers[0]', reason: 'not_a_member' });
  });

  test('every x-picker parameter written out in full is checked: fields, assignees, automations of triggers and steps', async () => {
    const projectId = await newProject(server, 'Picked');
    const [task] = await addTasks(server, projectId, ['Picked task']);
    const stage = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'text' })).body.item;
    const detailsOf = async (definition: Record<string, unknown>) => {
      const res = await save(definition);
      expect(res.status).toBe(400);
      return res.body.error.details;
    };
    const ref = { projectId, taskId: task!.id };
    // A field by id (task.setField) or by name (field.changed), of the step's or the scope's project.
    expect(
      await detailsOf({
        trigger: { type: 'webhook' },
        actions: [{ id: 'f', type: 'task.setField', ...ref, fieldId: 'no-such-field', value: 'x' }],
      }),
    ).toEqual({ field: 'actions[0].fieldId', reason: 'not_found' });
    expect(await detailsOf({ trigger: { type: 'field.changed', scope: { projectId }, field: 'Stgae' }, actions: [] })).toEqual({
      field: 'trigger.field',
      reason: 'not_found',
    });
    // Assignees are members (like approvers).
    expect(
      await detailsOf({ trigger: { type: 'webhook' }, actions: [{ id: 'a', type: 'task.assign', ...ref, handles: ['amy', '@loner'] }] }),
    ).toEqual({ field: 'actions[0].handles[1]', reason: 'not_a_member' });
    // A run-event trigger's automation.
    expect(await detailsOf({ trigger: { type: 'automation.failed', automationId: 'no-such-automation' }, actions: [] })).toEqual({
      field: 'trigger.automationId',
      reason: 'not_found',
    });
    // Templates are left to run time; existing references pass.
    const ok = await save({
      trigger: { type: 'field.changed', scope: { projectId }, field: 'stage' },
      actions: [
        { id: 'f', type: 'task.setField', ...ref, fieldId: stage.id, value: 'x' },
        { id: 'g', type: 'task.setField', projectId, taskId: '{{ trigger.nodeId }}', fieldId: '{{ trigger.fieldId }}', value: 'y' },
        { id: 'a', type: 'task.assign', ...ref, handles: ['@AMY', 'owner'] },
      ],
    });
    expect(ok.status).toBe(200);
  });

  test("a trigger scope must name one of the workspace's projects or folders, on create and on update", async () => {
    const mine = await newProject(server, 'Mine');
    const theirs = await newProject(other, 'Theirs');
    const created = await save({ trigger: { type: 'task.added', scope: { projectId: mine } }, actions: [] });
    expect(created.status).toBe(200);
    const foreign = await save({ trigger: { type: 'task.added', scope: { projectId: theirs } }, actions: [] });
    expect(foreign.body.error.details).toEqual({ field: 'trigger.scope.projectId', reason: 'not_found' });
    const folder = await save({ trigger: { type: 'task.completed', scope: { folderId: other.workspaceId } }, actions: [] });
    expect(folder.body.error.details).toEqual({ field: 'trigger.scope.folderId', reason: 'not_found' });
    const update = await api.put(`/api/v1/automations/${created.body.item.id}`, {
      name: 'Checked',
      trigger: { type: 'task.added', scope: { projectId: theirs } },
      actions: [],
    });
    expect(update.status).toBe(400);
    expect((await api.get(`/api/v1/automations/${created.body.item.id}`)).body.item.trigger.scope).toEqual({ projectId: mine });
  });

  test('an HTTP Request URL with credentials is refused; templated URLs are left to run time', async () => {
    const creds = await save({
      trigger: { type: 'webhook' },
      actions: [{ id: 'call', type: 'http.request', method: 'GET', url: 'https://user:pw@example.org/x' }],
    });
    expect(creds.body.error.details).toEqual({ field: 'actions[0].url', reason: 'credentials_not_allowed' });
    expect(
      (
        await save({
          trigger: { type: 'webhook' },
          actions: [{ id: 'call', type: 'http.request', method: 'GET', url: '{{ trigger.url }}' }],
        })
      ).status,
    ).toBe(200);
  });
});
