import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';

/** Renaming and moving projects, renaming folders, over real HTTP. */
describe('project and folder management', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('a project is renamed and moved within its workspace; a folder is renamed (not the home folder); bad input is 4xx', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Draft');
    const folder = (await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Clients' })).body.item;

    const renamed = await api.patch(`/api/v1/projects/${projectId}`, { name: 'Launch plan' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.item).toMatchObject({ id: projectId, name: 'Launch plan', folderId: server.workspaceId });
    const moved = await api.patch(`/api/v1/projects/${projectId}`, { folderId: folder.id });
    expect(moved.body.item).toMatchObject({ name: 'Launch plan', folderId: folder.id });
    expect((await api.get(`/api/v1/folders/${folder.id}/projects`)).body.items.map((p: { id: string }) => p.id)).toEqual([projectId]);

    expect((await api.patch(`/api/v1/projects/${projectId}`, {})).status).toBe(400);
    expect((await api.patch(`/api/v1/projects/${projectId}`, { name: 'a\nb' })).status).toBe(400);
    const elsewhere = await api.patch(`/api/v1/projects/${projectId}`, { folderId: 'no-such-folder' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.details).toEqual({ field: 'folderId', reason: 'not_found' });
    const participant = client(server, addUser(server, 'pm-participant', { workspaceId: server.workspaceId, role: 'Participant' }));
    expect((await participant.patch(`/api/v1/projects/${projectId}`, { name: 'Mine' })).status).toBe(403);
    expect((await client(server, addUser(server, 'pm-outsider')).patch(`/api/v1/projects/${projectId}`, { name: 'Mine' })).status).toBe(
      404,
    );

    const folderRenamed = await api.patch(`/api/v1/folders/${folder.id}`, { name: 'Customers' });
    expect(folderRenamed.status).toBe(200);
    expect(folderRenamed.body.item).toEqual({
      id: folder.id,
      name: 'Customers',
      workspaceId: server.workspaceId,
      parentId: server.workspaceId,
      isHome: false,
    });
    expect((await api.get(`/api/v1/workspaces/${server.workspaceId}/folders`)).body.items.map((f: { name: string }) => f.name)).toContain(
      'Customers',
    );
    const home = await api.patch(`/api/v1/folders/${server.workspaceId}`, { name: 'Elsewhere' });
    expect(home.status).toBe(400);
    expect(home.body.error.details).toEqual({ field: 'folderId', reason: 'home_folder' });
    expect((await participant.patch(`/api/v1/folders/${folder.id}`, { name: 'X' })).status).toBe(403);
  });
});
