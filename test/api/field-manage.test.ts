import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';

/** Renaming, reordering and deleting custom fields, over real HTTP. */
describe('custom field management', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('rename (names stay unique), reorder (every field once), delete (with its values); a Participant may not; bad input is 4xx', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Manage fields');
    const [task] = await addTasks(server, projectId, ['One']);
    const define = async (name: string) =>
      (await api.post(`/api/v1/projects/${projectId}/fields`, { name, type: 'text' })).body.item.id as string;
    const [a, b, c] = [await define('Alpha'), await define('Beta'), await define('Gamma')];
    const names = async () => (await api.get(`/api/v1/projects/${projectId}/fields`)).body.items.map((f: { name: string }) => f.name);

    const renamed = await api.patch(`/api/v1/projects/${projectId}/fields/${a}`, { name: 'Owner team' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.item).toMatchObject({ id: a, name: 'Owner team', type: 'text' });
    const clash = await api.patch(`/api/v1/projects/${projectId}/fields/${b}`, { name: 'owner TEAM' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.details).toEqual({ field: 'name', reason: 'duplicate_value' });
    expect((await api.patch(`/api/v1/projects/${projectId}/fields/${b}`, { name: 'a\nb' })).status).toBe(400);
    expect((await api.patch(`/api/v1/projects/${projectId}/fields/${b}`, { name: 'B', color: 'red' })).status).toBe(400);

    const reordered = await api.put(`/api/v1/projects/${projectId}/fields/order`, { fieldIds: [c, a, b] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.items.map((f: { id: string }) => f.id)).toEqual([c, a, b]);
    expect(await names()).toEqual(['Gamma', 'Owner team', 'Beta']);
    for (const fieldIds of [
      [c, a],
      [c, a, a],
      [c, a, b, 'nope'],
    ]) {
      const res = await api.put(`/api/v1/projects/${projectId}/fields/order`, { fieldIds });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ field: 'fieldIds', reason: 'invalid_value' });
    }

    const participant = client(server, addUser(server, 'field-participant', { workspaceId: server.workspaceId, role: 'Participant' }));
    expect((await participant.delete(`/api/v1/projects/${projectId}/fields/${b}`)).status).toBe(403);
    expect((await participant.patch(`/api/v1/projects/${projectId}/fields/${b}`, { name: 'X' })).status).toBe(403);

    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${b}`, { value: 'kept?' })).status).toBe(200);
    expect((await api.delete(`/api/v1/projects/${projectId}/fields/${b}`)).status).toBe(200);
    expect(await names()).toEqual(['Gamma', 'Owner team']);
    expect(
      (await api.get(`/api/v1/projects/${projectId}/tasks/${task!.id}/fields`)).body.items.map((v: { fieldId: string }) => v.fieldId),
    ).toEqual([c, a]);
    expect((await api.delete(`/api/v1/projects/${projectId}/fields/${b}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/projects/${projectId}/fields/${b}`, { name: 'Back' })).status).toBe(404);
  });
});
