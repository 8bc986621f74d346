import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';

/** `GET /projects/{projectId}/task-summaries`: what the outline shows on each row, over real HTTP. */
describe('task summaries', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('lists the assignees, date, field values and note presence of the tasks that have any; a Viewer reads them, an outsider gets 404', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Summaries');
    const [plain, assigned, dated, noted] = await addTasks(server, projectId, ['Plain', 'Assigned', 'Dated', 'Noted']);
    const stage = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'select', options: ['todo', 'done'] }))
      .body.item;
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${assigned!.id}/assignees`, { handles: ['owner'] })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${assigned!.id}/fields/${stage.id}`, { value: 'done' })).status).toBe(200);
    expect((await api.put(`/api/v1/projects/${projectId}/tasks/${noted!.id}/note`, { type: 'text', value: 'A note' })).status).toBe(200);
    expect(
      (
        await api.put(`/api/v1/projects/${projectId}/tasks/${dated!.id}/date`, {
          end: { date: '2026-05-10', time: '09:30', timezone: 'Europe/Paris' },
        })
      ).status,
    ).toBe(200);

    const viewer = addUser(server, 'summary-viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
    const res = await client(server, viewer).get(`/api/v1/projects/${projectId}/task-summaries`);
    expect(res.status).toBe(200);
    const byTask = new Map(res.body.items.map((s: { taskId: string }) => [s.taskId, s]));
    expect(byTask.has(plain!.id)).toBe(false);
    expect(byTask.get(assigned!.id)).toEqual({
      taskId: assigned!.id,
      assignees: ['owner'],
      start: null,
      end: null,
      fields: [{ fieldId: stage.id, value: 'done' }],
      hasNote: false,
    });
    expect(byTask.get(dated!.id)).toEqual({
      taskId: dated!.id,
      assignees: [],
      start: null,
      end: { date: '2026-05-10', time: '09:30', timezone: 'Europe/Paris' },
      fields: [],
      hasNote: false,
    });
    // A note alone is enough to be listed, so the task panel knows which tasks have one without asking each.
    expect(byTask.get(noted!.id)).toEqual({ taskId: noted!.id, assignees: [], start: null, end: null, fields: [], hasNote: true });

    const outsider = addUser(server, 'summary-outsider');
    expect((await client(server, outsider).get(`/api/v1/projects/${projectId}/task-summaries`)).status).toBe(404);
  });
});
