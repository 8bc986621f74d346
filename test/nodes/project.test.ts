import { client } from '../helpers/server';
import { byId, byUrl, runNode, runOk, useTaskspaceServer } from './harness';

const PROJECT = 'n8n-nodes-taskspace.taskspaceProject';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

async function newProject(markdown: string): Promise<{ id: string; name: string }> {
  const res = await api().post('/api/v1/projects', {
    folderId: server().workspaceId,
    contentType: 'text/markdown',
    content: markdown,
  });
  expect(res.status).toBe(200);
  return res.body.item;
}

describe('Taskspace Project node', () => {
  test('workspace › get many and folder › create / get many', async () => {
    const workspaces = await runOk(server(), { type: PROJECT, parameters: { resource: 'workspace', operation: 'getMany' } });
    expect(workspaces.map((i) => i.json)).toEqual((await api().get('/api/v1/workspaces')).body.items);

    const created = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'folder', operation: 'create', workspaceId: byId(server().workspaceId), name: 'Clients' },
    });
    expect(created[0].json).toMatchObject({ name: 'Clients', workspaceId: server().workspaceId });
    const folders = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'folder', operation: 'getMany', workspaceId: byId(server().workspaceId) },
    });
    expect(folders.map((i) => i.json.name)).toEqual(['Home', 'Clients']);
    expect(folders.every((i) => i.pairedItem && (i.pairedItem as { item: number }).item === 0)).toBe(true);
  });

  test('project › create from markdown in a folder and in a workspace', async () => {
    const [inFolder] = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'project',
        operation: 'create',
        createIn: 'folder',
        folderId: byId(server().workspaceId),
        content: '# Launch\n- Brief\n  - Quotes\n- Venue',
      },
    });
    expect(inFolder.json).toMatchObject({ name: 'Launch', folderId: server().workspaceId, completed: false });
    const tasks = await api().get(`/api/v1/projects/${inFolder.json.id}/tasks`);
    expect(tasks.body.items.map((t: { text: string }) => t.text)).toEqual(['Brief', 'Quotes', 'Venue']);
    expect(tasks.body.items[1].parentId).toBe(tasks.body.items[0].id);

    const [inWorkspace] = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'project',
        operation: 'create',
        createIn: 'workspace',
        workspaceId: byUrl(`${server().url}/api/v1/workspaces/${server().workspaceId}`),
        content: '# Via workspace\n- One',
      },
    });
    expect((await api().get(`/api/v1/projects/${inWorkspace.json.id}`)).body.item.name).toBe('Via workspace');
  });

  test('project › get (by URL, e.g. an event projectLink), copy, complete, restore, delete', async () => {
    const source = await newProject('# Source\n- a\n  - b');
    const [got] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'project', operation: 'get', projectId: byUrl(`${server().url}/api/v1/projects/${source.id}`) },
    });
    expect(got.json).toMatchObject({ id: source.id, name: 'Source' });

    const [copy] = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'project',
        operation: 'copy',
        projectId: byId(source.id),
        folderId: byId(server().workspaceId),
        options: { projectTitle: 'Copy of source' },
      },
    });
    expect(copy.json.id).not.toBe(source.id);
    const copied = await api().get(`/api/v1/projects/${copy.json.id}/tasks`);
    expect(copied.body.items.map((t: { text: string }) => t.text)).toEqual(['a', 'b']);
    expect((await api().get(`/api/v1/projects/${copy.json.id}`)).body.item.name).toBe('Copy of source');

    await runOk(server(), { type: PROJECT, parameters: { resource: 'project', operation: 'complete', projectId: byId(source.id) } });
    expect((await api().get(`/api/v1/projects/${source.id}`)).body.item.completed).toBe(true);
    await runOk(server(), { type: PROJECT, parameters: { resource: 'project', operation: 'restore', projectId: byId(source.id) } });
    expect((await api().get(`/api/v1/projects/${source.id}`)).body.item.completed).toBe(false);

    const [deleted] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'project', operation: 'delete', projectId: byId(String(copy.json.id)) },
    });
    expect(deleted.json).toEqual({ deleted: true, projectId: copy.json.id });
    expect((await api().get(`/api/v1/projects/${copy.json.id}`)).status).toBe(404);
  });

  test('project › create from template; template › get many', async () => {
    const base = await newProject('# Onboarding\n- Laptop\n- Badge');
    const template = await api().post(`/api/v1/projects/${base.id}/copy`, {
      folderId: server().workspaceId,
      projectTitle: 'Onboarding template',
      isTemplate: true,
    });
    expect(template.status).toBe(200);
    const templates = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'template', operation: 'getMany', folderId: byId(server().workspaceId), returnAll: true },
    });
    expect(templates.map((i) => i.json.id)).toContain(template.body.item.id);

    const [created] = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'project',
        operation: 'createFromTemplate',
        folderId: byId(server().workspaceId),
        templateId: template.body.item.id,
      },
    });
    expect(created.json.isTemplate).toBe(false);
    const tasks = await api().get(`/api/v1/projects/${created.json.id}/tasks`);
    expect(tasks.body.items.map((t: { text: string }) => t.text)).toEqual(['Laptop', 'Badge']);
  });

  test('project › get many in a folder and mine honour Limit and Return All', async () => {
    const folder = await api().post(`/api/v1/workspaces/${server().workspaceId}/folders`, { name: 'Paging' });
    const folderId = folder.body.item.id;
    for (const name of ['P1', 'P2', 'P3']) {
      await api().post('/api/v1/projects', { folderId, contentType: 'text/markdown', content: `# ${name}` });
    }
    const two = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'project', operation: 'getMany', source: 'folder', folderId: byId(folderId), returnAll: false, limit: 2 },
    });
    expect(two).toHaveLength(2);
    const all = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'project', operation: 'getMany', source: 'folder', folderId: byId(folderId), returnAll: true },
    });
    expect(all.map((i) => i.json.name).sort()).toEqual(['P1', 'P2', 'P3']);
    const mine = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'project', operation: 'getMany', source: 'mine', returnAll: true },
    });
    const expected = await api().get('/api/v1/me/projects?limit=500');
    expect(mine.map((i) => i.json.id)).toEqual(expected.body.items.map((p: { id: string }) => p.id));
  });

  test('member › get many and add; field › create and get many; share link › enable and get; block › get many', async () => {
    const project = await newProject('# Team\n- Top 1\n  - Child\n- Top 2');
    const members = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'member', operation: 'getMany', projectId: byId(project.id), returnAll: true },
    });
    expect(members.map((i) => i.json.handle)).toEqual(
      (await api().get(`/api/v1/projects/${project.id}/members`)).body.items.map((m: { handle: string }) => m.handle),
    );

    const [field] = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'field',
        operation: 'create',
        projectId: byId(project.id),
        name: 'Priority',
        type: 'select',
        choices: 'low, high',
      },
    });
    expect(field.json).toMatchObject({
      name: 'Priority',
      type: 'select',
      options: ['low', 'high'],
      data: { displayName: 'Priority', type: 'Select' },
    });
    const fields = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'field', operation: 'getMany', projectId: byId(project.id) },
    });
    expect(fields.map((i) => i.json.id)).toEqual([field.json.id]);

    const [enabled] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'shareLink', operation: 'enable', projectId: byId(project.id) },
    });
    expect(enabled.json).toEqual((await api().get(`/api/v1/projects/${project.id}/shareLink`)).body.item);
    const [link] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'shareLink', operation: 'get', projectId: byId(project.id) },
    });
    expect(String(link.json.viewUrl)).toMatch(/^http/);
    const [disabled] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'shareLink', operation: 'disable', projectId: byId(project.id) },
    });
    expect(disabled.json).toEqual({ disabled: true, projectId: project.id });
    expect((await api().get(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual({ ok: true, item: null });
    const [none] = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'shareLink', operation: 'get', projectId: byId(project.id) },
    });
    expect(none.json).toEqual({ projectId: project.id, enabled: false });
    await api().put(`/api/v1/projects/${project.id}/shareLink`);

    const blocks = await runOk(server(), {
      type: PROJECT,
      parameters: { resource: 'block', operation: 'getMany', projectId: byId(project.id), returnAll: true },
    });
    expect(blocks.map((i) => i.json.text)).toEqual(['Top 1', 'Top 2']);
    const after = await runOk(server(), {
      type: PROJECT,
      parameters: {
        resource: 'block',
        operation: 'getMany',
        projectId: byId(project.id),
        returnAll: true,
        options: { after: String(blocks[0].json.id) },
      },
    });
    expect(after.map((i) => i.json.text)).toEqual(['Top 2']);
  });

  test('member › add makes a workspace member a project member', async () => {
    const { addUser } = await import('../helpers/server');
    addUser(server(), 'dana', { workspaceId: server().workspaceId, role: 'Participant' });
    addUser(server(), 'eli', { workspaceId: server().workspaceId, role: 'Participant' });
    const project = await newProject('# Shared');
    const result = await runNode(server(), {
      type: PROJECT,
      parameters: { resource: 'member', operation: 'add', projectId: byId(project.id), handles: '@dana, ELI' },
    });
    expect(result.error).toBeUndefined();
    // One item per member added, each paired with the input item.
    expect(result.items.map((i) => i.json)).toEqual([
      { handle: 'dana', displayName: 'dana', projectId: project.id },
      { handle: 'eli', displayName: 'eli', projectId: project.id },
    ]);
    expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
    const members = await api().get(`/api/v1/projects/${project.id}/members?limit=100`);
    expect(members.body.items.map((m: { handle: string }) => m.handle)).toContain('dana');
  });
});
