import { addUser, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { declaredSchemas, type DeclaredSchemas } from '../helpers/declared-schemas';

/**
 * Real answers of the custom field, project and task routes (issue 23, item 1), over real HTTP,
 * validated against the response schema `/openapi.json` declares for their status (exact
 * objects: an undeclared field fails, so does a missing required one). Optional properties the
 * schemas declare (a subtask's `parentId`, a select field's `options`, a date's `time`) are
 * checked to survive serialization.
 */

let server: TestServer;
let schemas: DeclaredSchemas;

beforeAll(async () => {
  server = await startServer();
  schemas = await declaredSchemas(server);
  addUser(server, 'alice', { workspaceId: server.workspaceId, role: 'Participant' });
});
afterAll(() => server.close());

test('the validator rejects an undeclared field and a missing one (exact objects)', () => {
  const validate = schemas.declared('GET', '/api/v1/projects/{projectId}/tasks/{taskId}', 200);
  const good = { ok: true, item: { id: 't', text: 'T', completed: false } };
  expect(validate(good)).toBe(true);
  expect(validate({ ok: true, item: { ...good.item, parentId: 'p' } })).toBe(true);
  expect(validate({ ok: true, item: { ...good.item, rank: 'a0' } })).toBe(false);
  expect(validate({ ok: true, item: { id: 't', text: 'T' } })).toBe(false);
});

test('custom fields and task field values', async () => {
  const { conforms } = schemas;
  const projectId = await newProject(server, 'Fields');
  const [task] = await addTasks(server, projectId, ['Host']);
  const fields = '/api/v1/projects/{projectId}/fields';
  const base = `/api/v1/projects/${projectId}`;
  const made: Record<string, string> = {};
  for (const [name, type, options] of [
    ['Done', 'boolean'],
    ['Points', 'number'],
    ['Notes', 'string'],
    ['Stage', 'select', ['todo', 'done']],
    ['When', 'DateTime'],
  ] as const) {
    const body = await conforms('POST', fields, `${base}/fields`, { body: { name, type, ...(options ? { options } : {}) } });
    made[name] = body.item.id;
    if (type === 'select') {
      expect(body.item.options).toEqual(['todo', 'done']);
      expect(Object.values(body.item.data.options).map((o: any) => o.name)).toEqual(['todo', 'done']);
    }
  }
  await conforms('POST', fields, `${base}/fields`, { body: { name: 'Bad', type: 'colour' }, status: 400 });
  const listed = await conforms('GET', fields, `${base}/fields`);
  expect(listed.items.map((f: any) => f.data.type)).toEqual(['boolean', 'number', 'string', 'Select', 'DateTime']);
  const value = '/api/v1/projects/{projectId}/tasks/{taskId}/fields/{fieldId}';
  await conforms('PUT', value, `${base}/tasks/${task!.id}/fields/${made.Stage}`, { body: { value: 'done' } });
  await conforms('PUT', value, `${base}/tasks/${task!.id}/fields/${made.Points}`, { body: { value: 3.5 } });
  expect((await conforms('GET', value, `${base}/tasks/${task!.id}/fields/${made.Stage}`)).item).toEqual({
    fieldId: made.Stage,
    value: 'done',
  });
  expect((await conforms('GET', value, `${base}/tasks/${task!.id}/fields/${made.Done}`)).item.value).toBeNull();
  await conforms('GET', '/api/v1/projects/{projectId}/tasks/{taskId}/fields', `${base}/tasks/${task!.id}/fields`);
  await conforms('DELETE', value, `${base}/tasks/${task!.id}/fields/${made.Points}`);
  const one = '/api/v1/projects/{projectId}/fields/{fieldId}';
  await conforms('PATCH', one, `${base}/fields/${made.Notes}`, { body: { name: 'Remarks' } });
  await conforms('PUT', '/api/v1/projects/{projectId}/fields/order', `${base}/fields/order`, {
    body: { fieldIds: Object.values(made).reverse() },
  });
  await conforms('DELETE', one, `${base}/fields/${made.When}`);
  await conforms('GET', '/api/v1/projects/{projectId}/task-summaries', `${base}/task-summaries`);
});

test('projects, folders and members', async () => {
  const { conforms } = schemas;
  const folderId = server.workspaceId;
  const created = await conforms('POST', '/api/v1/projects', '/api/v1/projects', {
    body: { folderId, contentType: 'text/markdown', content: '# Plan\n\n- One\n  - Two' },
  });
  const projectId = created.item.id as string;
  const project = '/api/v1/projects/{projectId}';
  await conforms('GET', project, `/api/v1/projects/${projectId}`);
  await conforms('GET', project, '/api/v1/projects/missing', { status: 404 });
  await conforms('PATCH', project, `/api/v1/projects/${projectId}`, { body: { name: 'Plan B' } });
  await conforms('POST', '/api/v1/workspaces/{workspaceId}/projects', `/api/v1/workspaces/${server.workspaceId}/projects`, {
    body: { contentType: 'text/plain', content: 'Template\nStep', isTemplate: true },
  });
  const templates = await conforms('GET', '/api/v1/folders/{folderId}/project-templates', `/api/v1/folders/${folderId}/project-templates`);
  await conforms('POST', '/api/v1/projects/from-template', '/api/v1/projects/from-template', {
    body: { folderId, templateId: templates.items[0].id },
  });
  await conforms('POST', '/api/v1/projects/{projectId}/copy', `/api/v1/projects/${projectId}/copy`, {
    body: { folderId, projectTitle: 'Copy' },
  });
  await conforms('GET', '/api/v1/folders/{folderId}/projects', `/api/v1/folders/${folderId}/projects`);
  await conforms('GET', '/api/v1/folders/{folderId}/projects', `/api/v1/folders/${folderId}/projects?limit=1&page=2&search=plan`);
  await conforms('GET', '/api/v1/me/projects', '/api/v1/me/projects?sort=viewed-asc');
  await conforms('GET', '/api/v1/me/projects', '/api/v1/me/projects?sort=sideways', { status: 400 });
  const members = '/api/v1/projects/{projectId}/members';
  await conforms('PUT', members, `/api/v1/projects/${projectId}/members`, { body: { handles: ['alice'] } });
  const listed = await conforms('GET', members, `/api/v1/projects/${projectId}/members`);
  expect(listed.items.find((m: any) => m.handle === 'alice')).toEqual({ handle: 'alice', displayName: 'alice', projectMember: true });
  await conforms('DELETE', '/api/v1/projects/{projectId}/members/{handle}', `/api/v1/projects/${projectId}/members/alice`);
  const folder = await conforms('POST', '/api/v1/workspaces/{workspaceId}/folders', `/api/v1/workspaces/${server.workspaceId}/folders`, {
    body: { name: 'Old name' },
  });
  await conforms('PATCH', '/api/v1/folders/{folderId}', `/api/v1/folders/${folder.item.id}`, { body: { name: 'New name' } });
  await conforms('POST', '/api/v1/projects/{projectId}/complete', `/api/v1/projects/${projectId}/complete`);
  await conforms('POST', '/api/v1/projects/{projectId}/restore', `/api/v1/projects/${projectId}/restore`);
  await conforms('DELETE', project, `/api/v1/projects/${projectId}`);
});

test('tasks, blocks, assignees, date and note', async () => {
  const { conforms } = schemas;
  const projectId = await newProject(server, 'Tasks');
  const base = `/api/v1/projects/${projectId}/tasks`;
  const created = await conforms('POST', '/api/v1/projects/{projectId}/tasks/', `${base}/`, {
    body: { tasks: [{ contentType: 'text/plain', content: 'Parent' }] },
  });
  const parentId = created.item[0].id as string;
  const [child] = (
    await conforms('POST', '/api/v1/projects/{projectId}/tasks/', `${base}/`, {
      body: { tasks: [{ contentType: 'text/plain', content: 'Child', taskId: parentId, placement: 'beforeend' }] },
    })
  ).item;
  expect(child.parentId).toBe(parentId);
  const list = await conforms('GET', '/api/v1/projects/{projectId}/tasks', `${base}?limit=10&completed=false`);
  expect(list.items.map((t: any) => t.parentId)).toEqual([undefined, parentId]);
  await conforms('GET', '/api/v1/projects/{projectId}/tasks', `${base}?dueBefore=tomorrow`, { status: 400 });
  await conforms('GET', '/api/v1/projects/{projectId}/blocks', `/api/v1/projects/${projectId}/blocks`);
  const task = '/api/v1/projects/{projectId}/tasks/{taskId}';
  expect((await conforms('GET', task, `${base}/${child.id}`)).item.parentId).toBe(parentId);
  await conforms('PUT', task, `${base}/${child.id}`, { body: { contentType: 'text/plain', content: 'Renamed' } });
  await conforms('POST', '/api/v1/projects/{projectId}/tasks/{taskId}/complete', `${base}/${child.id}/complete`);
  await conforms('POST', '/api/v1/projects/{projectId}/tasks/{taskId}/uncomplete', `${base}/${child.id}/uncomplete`);
  await conforms('PUT', '/api/v1/projects/{projectId}/tasks/{taskId}/move', `${base}/${child.id}/move`, {
    body: { target: { taskId: parentId, position: 'afterend' } },
  });
  const assignees = '/api/v1/projects/{projectId}/tasks/{taskId}/assignees';
  await conforms('PUT', assignees, `${base}/${parentId}/assignees`, { body: { handles: ['alice'] } });
  await conforms('GET', assignees, `${base}/${parentId}/assignees`);
  await conforms('DELETE', `${assignees}/{assigneeHandle}`, `${base}/${parentId}/assignees/alice`);
  const date = '/api/v1/projects/{projectId}/tasks/{taskId}/date';
  await conforms('PUT', date, `${base}/${parentId}/date`, {
    body: { start: { date: '2026-05-01' }, end: { date: '2026-05-02', time: '09:30', timezone: 'Europe/Paris' } },
  });
  expect((await conforms('GET', date, `${base}/${parentId}/date`)).item).toEqual({
    start: { date: '2026-05-01', timezone: 'UTC' },
    end: { date: '2026-05-02', time: '09:30', timezone: 'Europe/Paris' },
  });
  await conforms('PUT', date, `${base}/${parentId}/date`, { body: { start: null, end: { date: '2026-05-02', time: null } } });
  await conforms('DELETE', date, `${base}/${parentId}/date`);
  await conforms('GET', date, `${base}/${parentId}/date`, { status: 404 });
  const note = '/api/v1/projects/{projectId}/tasks/{taskId}/note';
  expect((await conforms('PUT', note, `${base}/${parentId}/note`, { body: { type: 'text/markdown', value: '**bold**' } })).item).toEqual({
    type: 'markdown',
    value: '**bold**',
  });
  await conforms('GET', note, `${base}/${parentId}/note`);
  await conforms('DELETE', note, `${base}/${parentId}/note`);
  await conforms('DELETE', task, `${base}/${parentId}`);
});
