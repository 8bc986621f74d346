import { addUser, client, startServer, type TestServer } from '../helpers/server';

/** The `search` filter of the project, task and agent lists and the task list's filters (docs "API notes"). */
describe('list filters', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  test('projects: search by name on /me/projects and a folder, paging past the first page', async () => {
    for (let n = 1; n <= 130; n++) {
      const res = await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
        contentType: 'text/plain',
        content: n === 127 ? 'Quarterly 100% review' : `Filler ${n}`,
      });
      expect(res.status).toBe(200);
    }
    const mine = await api.get('/api/v1/me/projects?search=QUARTERLY&limit=5');
    expect(mine.body.items.map((p: any) => p.name)).toEqual(['Quarterly 100% review']);
    // % and _ are literal, not wildcards.
    expect((await api.get(`/api/v1/me/projects?search=${encodeURIComponent('100%')}`)).body.items).toHaveLength(1);
    expect((await api.get(`/api/v1/me/projects?search=${encodeURIComponent('_')}`)).body.items).toHaveLength(0);
    const folder = await api.get(`/api/v1/folders/${server.workspaceId}/projects?search=filler 12`);
    expect(folder.body.items.map((p: any) => p.name)).toEqual([
      'Filler 12',
      'Filler 120',
      'Filler 121',
      'Filler 122',
      'Filler 123',
      'Filler 124',
      'Filler 125',
      'Filler 126',
      'Filler 128',
      'Filler 129',
    ]);
    expect((await api.get('/api/v1/me/projects?search=')).status).toBe(400);
    expect((await api.get(`/api/v1/me/projects?search=${'x'.repeat(201)}`)).body.error.details).toEqual({
      field: 'search',
      reason: 'too_long',
    });
  });

  test('tasks: search, completed, assignee and due filters, combined, with the cursor', async () => {
    addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' });
    const project = (
      await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
        contentType: 'text/markdown',
        content: '# Filters\n- Call bank\n  - [x] Call back\n- Write report\n- call mom',
      })
    ).body.item;
    const all = (await api.get(`/api/v1/projects/${project.id}/tasks`)).body.items;
    const id = Object.fromEntries(all.map((t: any) => [t.text, t.id]));
    expect((await api.put(`/api/v1/projects/${project.id}/tasks/${id['Call bank']}/assignees`, { handles: ['ann'] })).status).toBe(200);
    expect(
      (await api.put(`/api/v1/projects/${project.id}/tasks/${id['Write report']}/date`, { end: { date: '2026-05-01', timezone: 'UTC' } }))
        .status,
    ).toBe(200);
    expect(
      (await api.put(`/api/v1/projects/${project.id}/tasks/${id['call mom']}/date`, { end: { date: '2026-06-01', timezone: 'UTC' } }))
        .status,
    ).toBe(200);
    const texts = async (query: string) => {
      const res = await api.get(`/api/v1/projects/${project.id}/tasks?${query}`);
      expect(res.status).toBe(200);
      return res.body.items.map((t: any) => t.text);
    };
    expect(await texts('search=call')).toEqual(['Call bank', 'Call back', 'call mom']);
    expect(await texts('search=call&completed=false')).toEqual(['Call bank', 'call mom']);
    expect(await texts('completed=true')).toEqual(['Call back']);
    expect(await texts('assignee=@ann')).toEqual(['Call bank']);
    expect(await texts('assignee=ANN')).toEqual(['Call bank']);
    expect(await texts('assignee=nobody')).toEqual([]);
    expect(await texts('dueBefore=2026-05-15')).toEqual(['Write report']);
    expect(await texts('dueAfter=2026-05-15')).toEqual(['call mom']);
    expect(await texts('dueAfter=2026-05-01&dueBefore=2026-06-01T00:00:00Z')).toEqual(['Write report']);
    expect(await texts(`search=call&after=${id['Call bank']}`)).toEqual(['Call back', 'call mom']);
    expect(await texts(`search=call&limit=1&after=${id['Call back']}`)).toEqual(['call mom']);
    const bad = await api.get(`/api/v1/projects/${project.id}/tasks?dueBefore=tomorrow`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('dueBefore');
    // The unfiltered list still reads the whole tree.
    expect(await texts('')).toEqual(['Call bank', 'Call back', 'Write report', 'call mom']);
  });

  test('agents: search by name', async () => {
    for (const name of ['Research helper', 'Writer', 'Researcher two']) {
      expect((await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name })).status).toBe(200);
    }
    const found = await api.get(`/api/v1/folders/${server.workspaceId}/agents?search=research`);
    expect(found.body.items.map((a: any) => a.name).sort()).toEqual(['Research helper', 'Researcher two']);
  });
});
