import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addUser, client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, runsOf, settledRuns, sleep } from './helpers';

/** The building-block actions (comment.create, task.get, task.find, project.create), task.added's extra variables and trigger filters. */
describe('automation building blocks', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' });
  });
  afterAll(() => server.close());

  const testRun = async (automationId: string, payload: Record<string, unknown> = {}) => {
    const res = await api.post(`/api/v1/automations/${automationId}/test`, { payload });
    expect(res.status).toBe(200);
    return res.body.item;
  };
  const outputs = (run: any) => Object.fromEntries(run.steps.map((s: any) => [s.id, s.output]));

  test('comment.create, task.get and project.create act through the API logic', async () => {
    const projectId = await newProject(server, 'Blocks');
    const [a] = await addTasks(server, projectId, ['Task A']);
    const field = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Score', type: 'number' })).body.item;
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${a!.id}/fields/${field.id}`, { value: 4 })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${a!.id}/assignees`, { handles: ['ann'] })).status).toBe(200);
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Blocks',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'note', type: 'comment.create', projectId, taskId: '{{ trigger.taskId }}', text: 'From {{ automation.name }}\nline two' },
        { id: 'read', type: 'task.get', projectId, taskId: '{{ trigger.taskId }}' },
        { id: 'proj', type: 'project.create', name: 'Made by {{ automation.name }}', content: '- first\n  - nested\n- second' },
        { id: 'inFolder', type: 'project.create', folderId: server.workspaceId, name: 'Second' },
      ],
    });
    const run = await testRun(automation.id, { taskId: a!.id });
    expect(run.status).toBe('completed');
    const out = outputs(run);
    expect(out.note).toMatchObject({ taskId: a!.id, text: 'From Blocks\nline two', author: { handle: 'owner' } });
    const comments = (await api.get(`/api/v1/projects/${projectId}/tasks/${a!.id}/comments`)).body.items;
    expect(comments.map((c: any) => c.id)).toContain(out.note.id);
    expect(out.read).toMatchObject({
      id: a!.id,
      text: 'Task A',
      completed: false,
      fields: [{ fieldId: field.id, name: 'Score', value: 4 }],
    });
    expect(out.read.assignees.map((x: any) => x.handle)).toEqual(['ann']);
    expect(out.proj).toMatchObject({ name: 'Made by Blocks', workspaceId: server.workspaceId });
    expect((await api.get(`/api/v1/projects/${out.proj.id}`)).body.item.name).toBe('Made by Blocks');
    const tasks = (await api.get(`/api/v1/projects/${out.proj.id}/tasks`)).body.items;
    expect(tasks.map((t: any) => t.text)).toEqual(['first', 'nested', 'second']);
    expect(out.inFolder).toMatchObject({ name: 'Second', folderId: server.workspaceId });
  });

  test('refused inputs fail the step with the service error naming the field', async () => {
    const projectId = await newProject(server, 'Refusals');
    const [a] = await addTasks(server, projectId, ['Task']);
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Refused',
      trigger: { type: 'webhook' },
      actions: [{ id: 'empty', type: 'comment.create', projectId, taskId: a!.id, text: '{{ trigger.text }}', onError: 'continue' }],
    });
    const run = await testRun(automation.id, { text: 'x'.repeat(10_001) });
    expect(run.steps[0].status).toBe('failed');
    expect(run.steps[0].error).toMatchObject({ status: 400, details: { field: 'text' } });
  });

  test('task.find filters by text, completion, assignee and field value, paged by after', async () => {
    const projectId = await newProject(server, 'Find');
    const tasks = await addTasks(server, projectId, ['Alpha one', 'Beta', 'Alpha two', 'Alpha three', 'Gamma']);
    const [a1, , a2, a3] = tasks;
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${a2!.id}/complete`)).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${a3!.id}/assignees`, { handles: ['ann'] })).status).toBe(200);
    const field = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'text' })).body.item;
    for (const t of [a1!, a3!])
      expect((await api.put(`/api/v1/projects/${projectId}/tasks/${t.id}/fields/${field.id}`, { value: 'ready' })).status).toBe(200);
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Finder',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'page1', type: 'task.find', projectId, filter: { text: 'alpha' }, limit: 2 },
        { id: 'page2', type: 'task.find', projectId, filter: { text: 'alpha' }, limit: 2, after: '{{ steps.page1.next }}' },
        { id: 'open', type: 'task.find', projectId, filter: { text: 'alpha', completed: '{{ trigger.done }}' } },
        { id: 'mine', type: 'task.find', projectId, filter: { assignee: '@ann' } },
        { id: 'ready', type: 'task.find', projectId, filter: { field: { fieldId: 'stage', value: 'ready' } }, limit: 1 },
        {
          id: 'ready2',
          type: 'task.find',
          projectId,
          filter: { field: { fieldId: field.id, value: 'ready' } },
          after: '{{ steps.ready.next }}',
        },
      ],
    });
    const run = await testRun(automation.id, { done: false });
    expect(run.status).toBe('completed');
    const out = outputs(run);
    const texts = (page: any) => page.items.map((t: any) => t.text);
    expect(texts(out.page1)).toEqual(['Alpha one', 'Alpha two']);
    expect(out.page1.next).toBe(a2!.id);
    expect(out.page2).toEqual({ items: [expect.objectContaining({ text: 'Alpha three' })] });
    expect(texts(out.open)).toEqual(['Alpha one', 'Alpha three']);
    expect(texts(out.mine)).toEqual(['Alpha three']);
    expect(out.ready).toEqual({ items: [expect.objectContaining({ id: a1!.id })], next: a1!.id });
    expect(texts(out.ready2)).toEqual(['Alpha three']);
    expect(out.ready2.next).toBeUndefined();
  });

  test('save checks name the field', async () => {
    const projectId = await newProject(server, 'Checks');
    const save = (definition: Record<string, unknown>) =>
      api.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'Checked', ...definition });
    const refused = async (definition: Record<string, unknown>, field: string, reason: string) => {
      const res = await save(definition);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toMatchObject({ field, reason });
    };
    const webhook = { type: 'webhook' };
    await refused({ trigger: webhook, actions: [{ type: 'comment.create', projectId, taskId: 'x' }] }, 'actions[0].text', 'required');
    await refused({ trigger: webhook, actions: [{ type: 'task.find', projectId, limit: 101 }] }, 'actions[0].limit', 'too_large');
    await refused(
      { trigger: webhook, actions: [{ type: 'task.find', projectId, filter: { colour: 'red' } }] },
      'actions[0].filter.colour',
      'unknown_field',
    );
    await refused({ trigger: webhook, actions: [{ type: 'task.get', projectId }] }, 'actions[0].taskId', 'required');
    await refused(
      { trigger: webhook, actions: [{ type: 'project.create', folderId: 'nope', name: 'X' }] },
      'actions[0].folderId',
      'not_found',
    );
    await refused(
      { trigger: webhook, actions: [{ type: 'comment.create', projectId: 'nope', taskId: 'x', text: 'y' }] },
      'actions[0].projectId',
      'not_found',
    );
    await refused(
      { trigger: webhook, actions: [{ type: 'task.get', projectId, taskId: '{{ trigger.x }}', text: 'y' }] },
      'actions[0].text',
      'unknown_field',
    );
    const rule = (left: string, operator = 'equals', right = 'x') => ({ anyOf: [{ allOf: [{ left, operator, right }] }] });
    await refused(
      { trigger: { type: 'task.added', filter: rule('{{ trigger.nodeTxt }}') }, actions: [] },
      'trigger.filter.anyOf[0].allOf[0].left',
      'unknown_variable',
    );
    await refused(
      { trigger: { type: 'task.added', filter: rule('{{ trigger.nodeText', 'equals') }, actions: [] },
      'trigger.filter.anyOf[0].allOf[0].left',
      'invalid_template',
    );
    await refused(
      { trigger: { type: 'task.added', filter: rule('{{ trigger.nodeText }}', 'matches', '(a') }, actions: [] },
      'trigger.filter.anyOf[0].allOf[0].right',
      'invalid_format',
    );
    await refused({ trigger: { type: 'task.added', filter: { anyOf: [] } }, actions: [] }, 'trigger.filter.anyOf', 'too_few');
    const ok = await save({ trigger: { type: 'task.added', filter: rule('{{ trigger.createdBy }}'), scope: { projectId } }, actions: [] });
    expect(ok.status).toBe(200);
  });

  test('task.added gives createdBy and parentId; a trigger filter refuses events before a run exists', async () => {
    const projectId = await newProject(server, 'Filtered');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Urgent only',
      trigger: {
        type: 'task.added',
        scope: { projectId },
        filter: {
          anyOf: [
            {
              allOf: [
                { left: '{{ trigger.nodeText }}', operator: 'contains', right: 'urgent' },
                { left: '{{ trigger.parentId }}', operator: 'is_not_empty' },
              ],
            },
          ],
        },
      },
      actions: [
        { id: 'who', type: 'set', values: { createdBy: '{{ trigger.createdBy }}', parentId: '{{ trigger.parentId }}' } },
        {
          id: 'say',
          type: 'comment.create',
          projectId: '{{ trigger.projectId }}',
          taskId: '{{ trigger.nodeId }}',
          text: 'Seen by {{ automation.name }}',
        },
      ],
    });
    const [parent] = await addTasks(server, projectId, ['urgent top-level task']);
    await addTasks(server, projectId, [{ content: 'calm subtask', taskId: parent!.id, placement: 'beforeend' }]);
    const [child] = await addTasks(server, projectId, [{ content: 'urgent subtask', taskId: parent!.id, placement: 'beforeend' }]);
    const [run] = await settledRuns(api, automation.id);
    expect(run.status).toBe('completed');
    expect(run.trigger.variables).toMatchObject({ nodeId: child!.id, parentId: parent!.id, createdBy: 'owner' });
    expect(outputs(run).who).toEqual({ createdBy: 'owner', parentId: parent!.id });
    await sleep(300);
    expect(await runsOf(api, automation.id)).toHaveLength(1);
  });

  test('the documented building-block example runs as pasted', async () => {
    const projectId = await newProject(server, 'Weekly');
    await addTasks(server, projectId, ['Open item']);
    const docs = readFileSync(join(__dirname, '../../docs/automations.md'), 'utf8');
    const block = docs
      .split('```json')
      .map((b) => b.split('```')[0]!)
      .find((b) => b.includes('"Weekly review"'))!;
    const definition = JSON.parse(block.replaceAll('"W"', JSON.stringify(server.workspaceId)).replaceAll('"P"', JSON.stringify(projectId)));
    const automation = await createAutomation(api, server.workspaceId, {
      ...definition,
      actions: definition.actions.map((a: any) => (a.type === 'task.find' ? { ...a, filter: { completed: false } } : a)),
    });
    const run = await testRun(automation.id, { scheduledAt: '2030-01-07T09:00:00.000Z', firedAt: '2030-01-07T09:00:00.000Z' });
    expect(run.status).toBe('completed');
    expect(outputs(run).review.name).toBe('Review 2030-01-07');
  });
});
