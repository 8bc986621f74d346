import { addUser, call, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

type Api = ReturnType<typeof client>;

/** Creates a workspace owned by `owner` through the admin CLI and returns its id. */
function createWorkspace(server: TestServer, name: string, owner: string): string {
  const res = runCli(server.dataDir, 'workspace', 'create', name, '--owner', owner);
  const match = /created workspace (\S+)/.exec(res.out);
  if (!match) throw new Error(res.err || res.out);
  return match[1]!;
}

async function createProject(api: Api, folderId: string, content: string, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/api/v1/projects', { folderId, contentType: 'text/markdown', content, ...extra });
  expect(res.status).toBe(200);
  return res.body.item;
}

/** The `events` rows of one type about one project, oldest first. */
async function eventsFor(
  server: TestServer,
  type: string,
  projectId: string,
): Promise<{ workspaceId: string; payload: any; createdAt: number }[]> {
  const rows = await dbOf(server).all<{ workspace_id: string; payload_json: string; created_at: number }>(
    'SELECT workspace_id, payload_json, created_at FROM events WHERE type = ? ORDER BY seq',
    type,
  );
  return rows
    .map((r) => ({ workspaceId: r.workspace_id, payload: JSON.parse(r.payload_json), createdAt: r.created_at }))
    .filter((e) => e.payload.projectId === projectId);
}

/**
 * A project's whole stored tree in document order with every copied column, ids replaced by
 * positions so two copies compare equal.
 */
async function storedTree(server: TestServer, projectId: string) {
  const db = dbOf(server);
  const tasks = await db.all(
    `SELECT id, parent_id, rank, path, text, content_type, completed, completed_at, completed_by, note_type, note_value,
            start_date, start_time, start_tz, end_date, end_time, end_tz, due_at
       FROM tasks WHERE project_id = ? ORDER BY path`,
    projectId,
  );
  const index = new Map(tasks.map((t, i) => [t.id as string, i]));
  // Fields in creation order as the service itself orders them (created_at, then the insertion
  // order on SQLite or the id on PostgreSQL: fields/service.ts fieldOrder), so a copy's fields,
  // all made in one millisecond, line up with its source's.
  const listed = (await client(server, server.token).get(`/api/v1/projects/${projectId}/fields`)).body.items as { id: string }[];
  const position = new Map(listed.map((f, i) => [f.id, i]));
  const fields = await db.all<{ id: string; name: string }>(
    'SELECT id, name, type, options_json FROM fields WHERE project_id = ?',
    projectId,
  );
  expect(fields.map((f) => f.id).sort()).toEqual([...position.keys()].sort());
  fields.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  const fieldIndex = new Map(fields.map((f, i) => [f.id, i]));
  const values = await db.all<{ task_id: string; field_id: string; value_json: string }>(
    `SELECT v.task_id, v.field_id, v.value_json FROM task_field_values v JOIN tasks t ON t.id = v.task_id
      WHERE t.project_id = ? ORDER BY t.path, v.field_id`,
    projectId,
  );
  const assignees = await db.all<{ task_id: string; user_id: string }>(
    'SELECT a.task_id, a.user_id FROM task_assignees a JOIN tasks t ON t.id = a.task_id WHERE t.project_id = ? ORDER BY t.path',
    projectId,
  );
  return {
    tasks: tasks.map(({ id, parent_id, ...rest }) => ({ ...rest, parent: parent_id === null ? null : index.get(parent_id as string) })),
    fields: fields.map(({ id, ...rest }) => rest),
    values: values.map((v) => ({ task: index.get(v.task_id), field: fieldIndex.get(v.field_id), value: v.value_json })),
    assignees: assignees.map((a) => ({ task: index.get(a.task_id), user: a.user_id })),
  };
}

describe('projects', () => {
  let server: TestServer;
  let api: Api;
  let owner: { handle: string; id: string };
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
    owner = (await api.get('/api/v1/me')).body.item;
  });
  afterAll(() => server.close());

  test('GET a project: the documented item; unknown or outside the caller is 404', async () => {
    const created = await createProject(api, server.workspaceId, '# Alpha\n- a');
    const res = await api.get(`/api/v1/projects/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, item: created });
    expect(Object.keys(res.body.item).sort()).toEqual(
      ['completed', 'completedAt', 'createdAt', 'folderId', 'id', 'isTemplate', 'name', 'workspaceId'].sort(),
    );
    const missing = await api.get('/api/v1/projects/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: "project 'nope' not found",
      statusMessage: 'Not Found',
      error: { code: 'NOT_FOUND', message: "project 'nope' not found" },
    });
    const stranger = addUser(server, 'stranger');
    expect((await client(server, stranger).get(`/api/v1/projects/${created.id}`)).status).toBe(404);
  });

  test("DELETE removes the project with its tasks and drops it from agents' knowledge", async () => {
    const created = await createProject(api, server.workspaceId, '# Doomed\n- a\n  - b');
    const agent = (await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'Reader', data: { type: 'agent', data: {} } }))
      .body.item;
    await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: created.id });
    const deleted = await api.delete(`/api/v1/projects/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await api.get(`/api/v1/projects/${created.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${created.id}/tasks`)).status).toBe(404);
    const left = (await dbOf(server).get<{ n: number }>('SELECT count(*) AS n FROM tasks WHERE project_id = ?', created.id))!;
    expect(left.n).toBe(0);
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item.knowledge.projects).toEqual([]);
    expect((await api.delete(`/api/v1/projects/${created.id}`)).status).toBe(404);
  });

  test('project.created is raised with the documented payload by both creates', async () => {
    const folder = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Events' })).body.item;
    const a = await createProject(api, folder.id, '# From folder');
    const b = (
      await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, { contentType: 'text/plain', content: 'From workspace' })
    ).body.item;
    for (const [project, folderId] of [
      [a, folder.id],
      [b, server.workspaceId],
    ] as const) {
      const events = await eventsFor(server, 'project.created', project.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.workspaceId).toBe(server.workspaceId);
      expect(events[0]!.payload).toEqual({
        projectId: project.id,
        projectTitle: project.name,
        projectLink: `${server.url}/projects/${project.id}`,
        folderId,
        createdBy: owner.handle,
      });
    }
  });

  test('complete and restore: state, idempotence, project.completed once, edits refused while completed', async () => {
    const project = await createProject(api, server.workspaceId, '# Finish me\n- t');
    const done = await api.post(`/api/v1/projects/${project.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.item).toMatchObject({ id: project.id, name: 'Finish me', completed: true });
    expect(Date.parse(done.body.item.completedAt)).toBeGreaterThan(0);
    const stored = await dbOf(server).get('SELECT completed_at, completed_by FROM projects WHERE id = ?', project.id);
    expect(stored).toEqual({ completed_at: Date.parse(done.body.item.completedAt), completed_by: owner.id });

    const again = await api.post(`/api/v1/projects/${project.id}/complete`);
    expect(again.body.item).toEqual(done.body.item);
    const events = await eventsFor(server, 'project.completed', project.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toEqual({
      projectId: project.id,
      projectTitle: 'Finish me',
      projectLink: `${server.url}/projects/${project.id}`,
      completedBy: owner.handle,
      completedAt: done.body.item.completedAt,
    });

    const blocked = await api.post(`/api/v1/projects/${project.id}/fields`, { name: 'Size', type: 'number' });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe('PROJECT_COMPLETED');
    expect((await api.put(`/api/v1/projects/${project.id}/shareLink`)).status).toBe(409);
    expect((await api.get(`/api/v1/projects/${project.id}`)).status).toBe(200);

    const restored = await api.post(`/api/v1/projects/${project.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.item).toMatchObject({ completed: false, completedAt: null });
    expect(await dbOf(server).get('SELECT completed_by FROM projects WHERE id = ?', project.id)).toEqual({ completed_by: null });
    expect((await api.post(`/api/v1/projects/${project.id}/restore`)).body.item).toEqual(restored.body.item);
    expect((await api.post(`/api/v1/projects/${project.id}/fields`, { name: 'Size', type: 'number' })).status).toBe(200);

    await api.post(`/api/v1/projects/${project.id}/complete`);
    expect(await eventsFor(server, 'project.completed', project.id)).toHaveLength(2);
    expect((await api.post('/api/v1/projects/nope/complete')).status).toBe(404);
    expect((await api.post('/api/v1/projects/nope/restore')).status).toBe(404);
  });

  describe('copy and from-template', () => {
    let source: any;
    let otherWorkspace: string;
    let assignee: { id: string };
    beforeAll(async () => {
      addUser(server, 'helper', { workspaceId: server.workspaceId, role: 'Participant' });
      assignee = (await dbOf(server).get<{ id: string }>("SELECT id FROM users WHERE handle = 'helper'"))!;
      otherWorkspace = createWorkspace(server, 'Other', owner.handle);
      source = await createProject(api, server.workspaceId, '# Source\n- [x] one\n  - child\n    - grandchild\n- two\n\n## Block\n- three');
      const db = dbOf(server);
      const tasks = await db.all<{ id: string; text: string }>('SELECT id, text FROM tasks WHERE project_id = ? ORDER BY path', source.id);
      const byText = Object.fromEntries(tasks.map((t) => [t.text, t.id]));
      // Add-ons written straight into the fixture (their endpoints belong to the tasks suite).
      await db.run("UPDATE tasks SET note_type = 'text/plain', note_value = 'remember', due_at = 1893456000000 WHERE id = ?", byText.child);
      await db.run(
        "UPDATE tasks SET start_date = '2030-01-01', start_time = '09:00', start_tz = 'UTC', end_date = '2030-01-02', end_time = '10:00', end_tz = 'UTC' WHERE id = ?",
        byText.two,
      );
      await db.run('INSERT INTO task_assignees (task_id, user_id, assigned_at) VALUES (?, ?, 1)', byText.grandchild, assignee.id);
      const size = (await api.post(`/api/v1/projects/${source.id}/fields`, { name: 'Size', type: 'number' })).body.item;
      const stage = (await api.post(`/api/v1/projects/${source.id}/fields`, { name: 'Stage', type: 'select', options: ['todo', 'done'] }))
        .body.item;
      expect((await api.put(`/api/v1/projects/${source.id}/tasks/${byText.one}/fields/${size.id}`, { value: 3 })).status).toBe(200);
      expect((await api.put(`/api/v1/projects/${source.id}/tasks/${byText.three}/fields/${stage.id}`, { value: 'done' })).status).toBe(200);
    });

    test('copy duplicates the whole tree, fields and values with new ids; the title defaults to the source name', async () => {
      const res = await api.post(`/api/v1/projects/${source.id}/copy`, { folderId: server.workspaceId });
      expect(res.status).toBe(200);
      const copy = res.body.item;
      expect(copy).toMatchObject({
        name: 'Source',
        folderId: server.workspaceId,
        workspaceId: server.workspaceId,
        completed: false,
        isTemplate: false,
      });
      expect(copy.id).not.toBe(source.id);
      const original = await storedTree(server, source.id);
      expect(original.tasks).toHaveLength(6);
      expect(original.values).toHaveLength(2);
      expect(original.assignees).toHaveLength(1);
      expect(await storedTree(server, copy.id)).toEqual(original);
      const shared = (await dbOf(server).get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM tasks a JOIN tasks b ON a.id = b.id WHERE a.project_id = ? AND b.project_id = ?',
        source.id,
        copy.id,
      ))!;
      expect(shared.n).toBe(0);
      const copiedFields = (await api.get(`/api/v1/projects/${copy.id}/fields`)).body.items;
      const sourceFields = (await api.get(`/api/v1/projects/${source.id}/fields`)).body.items;
      expect(copiedFields.map((f: any) => ({ ...f, id: undefined }))).toEqual(sourceFields.map((f: any) => ({ ...f, id: undefined })));
      expect(copiedFields[0].id).not.toBe(sourceFields[0].id);
      const event = await eventsFor(server, 'project.created', copy.id);
      expect(event.map((e) => e.payload)).toEqual([
        {
          projectId: copy.id,
          projectTitle: 'Source',
          projectLink: `${server.url}/projects/${copy.id}`,
          folderId: server.workspaceId,
          createdBy: owner.handle,
        },
      ]);
    });

    test('copy with a title into another workspace: no assignees; a completed source may be copied', async () => {
      await api.post(`/api/v1/projects/${source.id}/complete`);
      try {
        const res = await api.post(`/api/v1/projects/${source.id}/copy`, { folderId: otherWorkspace, projectTitle: 'Elsewhere' });
        expect(res.status).toBe(200);
        expect(res.body.item).toMatchObject({ name: 'Elsewhere', workspaceId: otherWorkspace, folderId: otherWorkspace, completed: false });
        const copied = await storedTree(server, res.body.item.id);
        expect(copied.assignees).toEqual([]);
        expect({ ...copied, assignees: [] }).toEqual({ ...(await storedTree(server, source.id)), assignees: [] });
        expect((await eventsFor(server, 'project.created', res.body.item.id))[0]!.workspaceId).toBe(otherWorkspace);
      } finally {
        await api.post(`/api/v1/projects/${source.id}/restore`);
      }
    });

    test('copy with isTemplate makes a template; from-template makes a normal project named like it', async () => {
      const template = (
        await api.post(`/api/v1/projects/${source.id}/copy`, { folderId: server.workspaceId, projectTitle: 'Tpl', isTemplate: true })
      ).body.item;
      expect(template.isTemplate).toBe(true);
      const res = await api.post('/api/v1/projects/from-template', { folderId: otherWorkspace, templateId: template.id });
      expect(res.status).toBe(200);
      expect(res.body.item).toMatchObject({ name: 'Tpl', isTemplate: false, completed: false, workspaceId: otherWorkspace });
      const fromTemplate = await storedTree(server, res.body.item.id);
      expect({ ...fromTemplate, assignees: [] }).toEqual({ ...(await storedTree(server, template.id)), assignees: [] });
      expect((await eventsFor(server, 'project.created', res.body.item.id)).map((e) => e.payload)).toEqual([
        {
          projectId: res.body.item.id,
          projectTitle: 'Tpl',
          projectLink: `${server.url}/projects/${res.body.item.id}`,
          folderId: otherWorkspace,
          createdBy: owner.handle,
        },
      ]);
    });

    test('from-template with a project that is not a template is 400 not_a_template; unknown ids 404', async () => {
      const notTemplate = await api.post('/api/v1/projects/from-template', { folderId: server.workspaceId, templateId: source.id });
      expect(notTemplate.status).toBe(400);
      expect(notTemplate.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'templateId', reason: 'not_a_template' },
      });
      expect((await api.post('/api/v1/projects/from-template', { folderId: server.workspaceId, templateId: 'nope' })).status).toBe(404);
      const template = await createProject(api, server.workspaceId, '# T', { isTemplate: true });
      expect((await api.post('/api/v1/projects/from-template', { folderId: 'nope', templateId: template.id })).status).toBe(404);
    });

    test('copy and from-template validation', async () => {
      const cases: [string, unknown, string, string][] = [
        [`/api/v1/projects/${source.id}/copy`, {}, 'folderId', 'required'],
        [`/api/v1/projects/${source.id}/copy`, { folderId: '' }, 'folderId', 'too_short'],
        [`/api/v1/projects/${source.id}/copy`, { folderId: server.workspaceId, projectTitle: '' }, 'projectTitle', 'too_short'],
        [`/api/v1/projects/${source.id}/copy`, { folderId: server.workspaceId, projectTitle: 'x'.repeat(201) }, 'projectTitle', 'too_long'],
        [
          `/api/v1/projects/${source.id}/copy`,
          { folderId: server.workspaceId, projectTitle: 'a\nb' },
          'projectTitle',
          'contains_line_break',
        ],
        ['/api/v1/projects/from-template', { folderId: server.workspaceId }, 'templateId', 'required'],
        ['/api/v1/projects/from-template', { folderId: server.workspaceId, templateId: '' }, 'templateId', 'too_short'],
        ['/api/v1/projects/from-template', { templateId: 'x' }, 'folderId', 'required'],
        ['/api/v1/projects/from-template', { folderId: '', templateId: 'x' }, 'folderId', 'too_short'],
      ];
      for (const [path, body, field, reason] of cases) {
        const res = await api.post(path, body);
        expect({ path, status: res.status, details: res.body.error?.details }).toEqual({ path, status: 400, details: { field, reason } });
      }
      const longest = await api.post(`/api/v1/projects/${source.id}/copy`, { folderId: server.workspaceId, projectTitle: 'x'.repeat(200) });
      expect(longest.status).toBe(200);
      expect((await api.post(`/api/v1/projects/${source.id}/copy`, { folderId: 'nope' })).status).toBe(404);
      expect((await api.post('/api/v1/projects/nope/copy', { folderId: server.workspaceId })).status).toBe(404);
    });
  });

  describe('share link', () => {
    test('404 until enabled; PUT enables once with absolute URLs; GET returns the same', async () => {
      const project = await createProject(api, server.workspaceId, '# Shared');
      const before = await api.get(`/api/v1/projects/${project.id}/shareLink`);
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ ok: true, item: null });
      const enabled = await api.put(`/api/v1/projects/${project.id}/shareLink`);
      expect(enabled.status).toBe(200);
      const { item } = enabled.body;
      const token = /\/share\/([A-Za-z0-9_-]{32})\/view$/.exec(item.viewUrl)![1];
      expect(enabled.body).toEqual({
        ok: true,
        item: {
          checkUrl: `${server.url}/share/${token}/check`,
          editUrl: `${server.url}/share/${token}/edit`,
          viewUrl: `${server.url}/share/${token}/view`,
        },
      });
      expect((await api.put(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual(enabled.body);
      expect((await api.get(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual(enabled.body);
      await api.post(`/api/v1/projects/${project.id}/complete`);
      expect((await api.get(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual(enabled.body);
      const other = await createProject(api, server.workspaceId, '# Other');
      const otherLink = (await api.put(`/api/v1/projects/${other.id}/shareLink`)).body.item;
      expect(otherLink.viewUrl).not.toBe(item.viewUrl);
      expect((await api.put('/api/v1/projects/nope/shareLink')).status).toBe(404);
    });

    test('the URLs open a read-only view without an account; DELETE revokes them', async () => {
      const project = await createProject(api, server.workspaceId, '# Road <trip>\n- [x] Pack\n  - Snacks & drinks\n- Drive');
      const link = (await api.put(`/api/v1/projects/${project.id}/shareLink`)).body.item;
      const path = (url: string) => new URL(url).pathname;
      const json = await call(server.url, 'GET', path(link.viewUrl), { headers: { accept: 'application/json' } });
      expect(json.status).toBe(200);
      expect(json.headers['x-ratelimit-limit']).toBe('1000');
      expect(json.body.item).toMatchObject({
        mode: 'view',
        project: { name: 'Road <trip>', completed: false },
        truncated: false,
        tasks: [
          { text: 'Pack', completed: true, depth: 0 },
          { text: 'Snacks & drinks', completed: false, depth: 1 },
          { text: 'Drive', completed: false, depth: 0 },
        ],
      });
      expect((await call(server.url, 'GET', path(link.checkUrl), { headers: { accept: 'application/json' } })).body.item.mode).toBe(
        'check',
      );
      const html = await call(server.url, 'GET', path(link.editUrl), { headers: { accept: 'text/html' } });
      expect(html.headers['content-type']).toContain('text/html');
      expect(html.body).toContain('<title>Road &lt;trip&gt;</title>');
      expect(html.body).toContain('Snacks &amp; drinks');
      expect((await call(server.url, 'GET', path(link.viewUrl).replace(/view$/, 'admin'))).status).toBe(400);

      const viewer = addUser(server, 'share-viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
      expect((await client(server, viewer).delete(`/api/v1/projects/${project.id}/shareLink`)).status).toBe(403);
      expect((await api.delete(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual({ ok: true });
      expect((await api.delete(`/api/v1/projects/${project.id}/shareLink`)).status).toBe(200);
      const gone = await call(server.url, 'GET', path(link.viewUrl), { headers: { accept: 'application/json' } });
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('NOT_FOUND');
      expect((await api.get(`/api/v1/projects/${project.id}/shareLink`)).body).toEqual({ ok: true, item: null });
      const again = (await api.put(`/api/v1/projects/${project.id}/shareLink`)).body.item;
      expect(again.viewUrl).not.toBe(link.viewUrl);
    });

    test('URLs honour TASKSPACE_PUBLIC_URL', async () => {
      const pub = await startServer({ env: { TASKSPACE_PUBLIC_URL: 'https://ts.example.com' } });
      try {
        const pubApi = client(pub, OWNER_TOKEN);
        const project = await createProject(pubApi, pub.workspaceId, '# Public');
        const res = await pubApi.put(`/api/v1/projects/${project.id}/shareLink`);
        for (const key of ['checkUrl', 'editUrl', 'viewUrl'])
          expect(res.body.item[key]).toMatch(/^https:\/\/ts\.example\.com\/share\/[A-Za-z0-9_-]+\/(check|edit|view)$/);
        const created = (await dbOf(pub).get<{ payload_json: string }>("SELECT payload_json FROM events WHERE type = 'project.created'"))!;
        expect(JSON.parse(created.payload_json).projectLink).toBe(`https://ts.example.com/projects/${project.id}`);
      } finally {
        await pub.close();
      }
    });
  });

  describe('lists', () => {
    let folder: string;
    let projects: any[];
    let templates: any[];
    beforeAll(async () => {
      folder = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Lists' })).body.item.id;
      projects = [];
      templates = [];
      for (let i = 0; i < 3; i++) projects.push(await createProject(api, folder, `# P${i}`));
      for (let i = 0; i < 23; i++) templates.push(await createProject(api, folder, `# T${i}`, { isTemplate: true }));
    });

    test('folder projects: every non-template project of the folder, oldest first; optional paging', async () => {
      const res = await api.get(`/api/v1/folders/${folder}/projects`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, items: projects });
      expect((await api.get(`/api/v1/folders/${folder}/projects?limit=2&page=2`)).body.items).toEqual([projects[2]]);
      expect((await api.get(`/api/v1/folders/${folder}/projects?limit=501`)).status).toBe(400);
      const home = (await api.get(`/api/v1/folders/${server.workspaceId}/projects`)).body.items;
      expect(home.length).toBeGreaterThan(0);
      expect(home.every((p: any) => p.folderId === server.workspaceId && !p.isTemplate)).toBe(true);
      expect((await api.get('/api/v1/folders/nope/projects')).status).toBe(404);
    });

    test('project templates: default page of 20, paging, limit bounds', async () => {
      const first = await api.get(`/api/v1/folders/${folder}/project-templates`);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true, items: templates.slice(0, 20) });
      expect((await api.get(`/api/v1/folders/${folder}/project-templates?page=2`)).body.items).toEqual(templates.slice(20));
      expect((await api.get(`/api/v1/folders/${folder}/project-templates?limit=5&page=3`)).body.items).toEqual(templates.slice(10, 15));
      expect((await api.get(`/api/v1/folders/${folder}/project-templates?limit=500`)).body.items).toEqual(templates);
      expect((await api.get(`/api/v1/folders/${folder}/project-templates?page=99`)).body.items).toEqual([]);
      expect((await api.get(`/api/v1/folders/${folder}/project-templates?page=1000000`)).body.items).toEqual([]);
      for (const [query, field, reason] of [
        ['page=100000000000000000000', 'page', 'too_large'],
        ['limit=501', 'limit', 'too_large'],
        ['limit=0', 'limit', 'too_small'],
        ['page=0', 'page', 'too_small'],
        ['limit=abc', 'limit', 'invalid_type'],
      ]) {
        const res = await api.get(`/api/v1/folders/${folder}/project-templates?${query}`);
        expect({ query, status: res.status, details: res.body.error?.details }).toEqual({ query, status: 400, details: { field, reason } });
      }
      expect((await api.get('/api/v1/folders/nope/project-templates')).status).toBe(404);
    });

    test('members: the workspace members by handle, flagged when explicit project members; default page 20, paging and bounds', async () => {
      for (let i = 0; i < 21; i++)
        addUser(server, `member${String(i).padStart(2, '0')}`, { workspaceId: server.workspaceId, role: 'Viewer' });
      const path = `/api/v1/projects/${projects[0].id}/members`;
      const first = await api.get(path);
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(20);
      expect(first.body.items[0]).toEqual({ handle: expect.any(String), displayName: expect.any(String), projectMember: false });
      const all = (await api.get(`${path}?limit=500`)).body.items as { handle: string }[];
      expect(all.length).toBeGreaterThan(21);
      expect(all.map((m) => m.handle)).toContain(owner.handle);
      expect(all.map((m) => m.handle)).not.toContain('stranger');
      const sorted = [...all].map((m) => m.handle).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      expect(all.map((m) => m.handle)).toEqual(sorted);
      expect((await api.get(`${path}?page=2`)).body.items).toEqual(all.slice(20, 40));
      expect((await api.get(`${path}?limit=3&page=2`)).body.items).toEqual(all.slice(3, 6));
      expect((await api.get(`${path}?limit=501`)).status).toBe(400);
      expect((await api.get(`${path}?page=0`)).status).toBe(400);
      expect((await api.get('/api/v1/projects/nope/members')).status).toBe(404);
      await api.put(path, { handles: ['member03'] });
      const flagged = (await api.get(`${path}?limit=500`)).body.items.filter((m: { projectMember: boolean }) => m.projectMember);
      expect(flagged).toEqual([{ handle: 'member03', displayName: 'member03', projectMember: true }]);
    }, 90_000); // 21 accounts made by the CLI, one process each: slow on PostgreSQL on a busy 2-core machine

    test("me/projects: the caller's non-template projects across their workspaces, paged", async () => {
      const bob = addUser(server, 'bob');
      const bobSpace = createWorkspace(server, 'Bob space', 'bob');
      const bobApi = client(server, bob);
      const mine = await createProject(bobApi, bobSpace, '# Bob project');
      await createProject(bobApi, bobSpace, '# Bob template', { isTemplate: true });
      const res = await bobApi.get('/api/v1/me/projects');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, items: [mine] });

      runCli(server.dataDir, 'member', 'add', server.workspaceId, 'bob', 'Viewer');
      const everything = (await bobApi.get('/api/v1/me/projects?limit=500')).body.items as any[];
      expect(everything.map((p) => p.id)).toContain(mine.id);
      expect(everything.map((p) => p.id)).toContain(projects[0].id);
      expect(everything.some((p) => p.isTemplate)).toBe(false);
      // Nothing opened yet, so the default order (viewed-desc) is newest first.
      expect(everything.map((p) => p.createdAt)).toEqual([...everything.map((p) => p.createdAt)].sort().reverse());
      const firstPage = (await bobApi.get('/api/v1/me/projects')).body.items;
      expect(firstPage).toEqual(everything.slice(0, 100));
      expect((await bobApi.get('/api/v1/me/projects?limit=2&page=2')).body.items).toEqual(everything.slice(2, 4));
      expect((await bobApi.get('/api/v1/me/projects?limit=501')).body.error.details).toEqual({ field: 'limit', reason: 'too_large' });
      expect((await bobApi.get('/api/v1/me/projects?page=0')).status).toBe(400);
    });
  });

  test('everything persists across a restart on the same data directory', async () => {
    const dir = await startServer();
    let firstOpen = true;
    let restarted: TestServer | undefined;
    try {
      const a = client(dir, OWNER_TOKEN);
      const project = await createProject(a, dir.workspaceId, '# Durable\n- [x] done\n  - sub');
      const field = (await a.post(`/api/v1/projects/${project.id}/fields`, { name: 'When', type: 'date' })).body.item;
      const task = (await dbOf(dir).get<{ id: string }>('SELECT id FROM tasks WHERE project_id = ? AND text = ?', project.id, 'sub'))!;
      await a.put(`/api/v1/projects/${project.id}/tasks/${task.id}/fields/${field.id}`, { value: '2031-12-31' });
      const link = (await a.put(`/api/v1/projects/${project.id}/shareLink`)).body.item;
      const completed = (await a.post(`/api/v1/projects/${project.id}/complete`)).body.item;
      const tree = await storedTree(dir, project.id);
      await dir.close();
      firstOpen = false;

      restarted = await startServer({ dataDir: dir.dataDir });
      const b = client(restarted, OWNER_TOKEN);
      expect((await b.get(`/api/v1/projects/${project.id}`)).body.item).toEqual(completed);
      expect((await b.get(`/api/v1/projects/${project.id}/fields`)).body.items).toEqual([field]);
      expect((await b.get(`/api/v1/projects/${project.id}/tasks/${task.id}/fields/${field.id}`)).body.item).toEqual({
        fieldId: field.id,
        value: '2031-12-31',
      });
      const again = (await b.get(`/api/v1/projects/${project.id}/shareLink`)).body.item;
      expect(again.viewUrl.replace(restarted.url, '')).toBe(link.viewUrl.replace(dir.url, ''));
      expect(await storedTree(restarted, project.id)).toEqual(tree);
    } finally {
      if (firstOpen) await dir.close();
      await restarted?.close();
    }
  });

  test('the OpenAPI document lists the project routes', async () => {
    const doc = (await api.get('/openapi.json')).body;
    for (const path of [
      '/api/v1/projects',
      '/api/v1/projects/{projectId}',
      '/api/v1/projects/{projectId}/copy',
      '/api/v1/projects/from-template',
      '/api/v1/projects/{projectId}/shareLink',
      '/api/v1/projects/{projectId}/fields',
      '/api/v1/projects/{projectId}/tasks/{taskId}/fields/{fieldId}',
      '/api/v1/folders/{folderId}/project-templates',
      '/api/v1/me/projects',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
