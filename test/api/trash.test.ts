import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, allTasks, completeProject, eventsOf, newProject, UNKNOWN_TASK } from '../helpers/fixtures-tasks';
import { TestClock } from '../engine/helpers';
import { purgeExpiredTrash } from '../../server/src/modules/trash/service';
import { dbOf } from '../helpers/db';

const DAY = 86_400_000;

/**
 * The deleted-tasks view (docs "API", "Deleted tasks"): a deletion still answers `{ok}` and the
 * task is gone from every list, but the subtree is kept with its note, dates, field values,
 * assignees and comments; restore puts it back (same ids) under its former parent and at its
 * former position, or at the top level when the parent is gone; who may delete may list and
 * restore; entries go after the retention. Time moves on the injected clock.
 */
describe('deleted tasks', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let viewer: ReturnType<typeof client>;
  let participant: ReturnType<typeof client>;
  const clock = new TestClock(Date.now());
  beforeAll(async () => {
    server = await startServer({
      clock,
      env: { TASKSPACE_TRASH_RETENTION_DAYS: '30' },
    });
    api = client(server, server.token);
    viewer = client(
      server,
      addUser(server, 'vera', {
        workspaceId: server.workspaceId,
        role: 'Viewer',
      }),
    );
    participant = client(
      server,
      addUser(server, 'paul', {
        workspaceId: server.workspaceId,
        role: 'Participant',
      }),
    );
  });
  afterAll(() => server?.close());

  const shape = async (projectId: string) => (await allTasks(server, projectId)).map((t) => `${t.parentId ? '  ' : ''}${t.text}`).join('|');
  const trash = async (projectId: string, as = api) => {
    const res = await as.get(`/api/v1/projects/${projectId}/trash`);
    expect(res.status).toBe(200);
    return res.body.items as {
      id: string;
      taskId: string;
      text: string;
      parentId: string | null;
      taskCount: number;
      deletedAt: string;
      deletedBy: string | null;
      expiresAt: string | null;
    }[];
  };

  test('a deleted subtree comes back with its note, dates, field values, assignees and comments, at its former place', async () => {
    const projectId = await newProject(server, 'Restore');
    const [a, b, c] = await addTasks(server, projectId, ['A', 'B', 'C']);
    const [b1, b2] = await addTasks(server, projectId, [
      { content: 'B1', taskId: b!.id, placement: 'beforeend' },
      { content: 'B2', taskId: b!.id, placement: 'beforeend' },
    ]);
    const [b1x] = await addTasks(server, projectId, [{ content: 'B1x', taskId: b1!.id, placement: 'beforeend' }]);
    const field = (
      await api.post(`/api/v1/projects/${projectId}/fields`, {
        name: 'Estimate',
        type: 'number',
      })
    ).body.item.id as string;
    const task = (id: string) => `/api/v1/projects/${projectId}/tasks/${id}`;
    expect(
      (
        await api.put(`${task(b!.id)}/note`, {
          type: 'markdown',
          value: 'The **note**',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api.put(`${task(b1!.id)}/date`, {
          start: {
            date: '2030-05-01',
            time: '09:30',
            timezone: 'Europe/Paris',
          },
          end: { date: '2030-05-02', timezone: 'Europe/Paris' },
        })
      ).status,
    ).toBe(200);
    expect((await api.put(`${task(b1x!.id)}/fields/${field}`, { value: 5 })).status).toBe(200);
    expect((await api.put(`${task(b!.id)}/assignees`, { handles: ['paul'] })).status).toBe(200);
    expect((await api.post(`${task(b2!.id)}/comments`, { text: 'A comment' })).status).toBe(200);
    expect((await api.post(`${task(b2!.id)}/complete`)).status).toBe(200);
    expect(await shape(projectId)).toBe('A|B|  B1|  B1x|  B2|C');

    // Delete answers as the spec says, and the subtree is gone.
    const deleted = await participant.delete(task(b!.id));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect(await shape(projectId)).toBe('A|C');
    expect((await api.get(task(b1!.id))).status).toBe(404);

    const [entry, ...rest] = await trash(projectId);
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      id: expect.any(String),
      taskId: b!.id,
      text: 'B',
      parentId: null,
      taskCount: 4,
      deletedAt: new Date(clock.now()).toISOString(),
      deletedBy: 'paul',
      expiresAt: new Date(clock.now() + 30 * DAY).toISOString(),
    });

    const added = (await eventsOf(server, 'task.added')).length;
    const restored = await participant.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({
      ok: true,
      item: { id: b!.id, text: 'B', completed: false },
    });
    // Between A and C again, with the same ids and everything that hung off them.
    expect(await shape(projectId)).toBe('A|B|  B1|  B1x|  B2|C');
    expect((await allTasks(server, projectId)).map((t) => t.id)).toEqual([a!.id, b!.id, b1!.id, b1x!.id, b2!.id, c!.id]);
    expect((await api.get(`${task(b!.id)}/note`)).body.item).toEqual({
      type: 'markdown',
      value: 'The **note**',
    });
    expect((await api.get(`${task(b1!.id)}/date`)).body.item).toEqual({
      start: { date: '2030-05-01', time: '09:30', timezone: 'Europe/Paris' },
      end: { date: '2030-05-02', timezone: 'Europe/Paris' },
    });
    expect((await api.get(`${task(b1x!.id)}/fields`)).body.items).toEqual([expect.objectContaining({ fieldId: field, value: 5 })]);
    expect((await api.get(`${task(b!.id)}/assignees`)).body.items.map((x: { handle: string }) => x.handle)).toEqual(['paul']);
    expect((await api.get(`${task(b2!.id)}/comments`)).body.items.map((x: { text: string }) => x.text)).toEqual(['A comment']);
    expect((await api.get(task(b2!.id))).body.item.completed).toBe(true);
    // task.added for each task, the restored one first.
    const events = (await eventsOf(server, 'task.added')).slice(added);
    expect(events.map((e) => e.payload.nodeText)).toEqual(['B', 'B1', 'B1x', 'B2']);
    expect(events[0]!.payload).toMatchObject({
      projectId,
      nodeId: b!.id,
      assignees: [{ handle: 'paul' }],
      createdBy: 'paul',
    });
    expect(events[1]!.payload.parentId).toBe(b!.id);
    // The entry is used up.
    expect(await trash(projectId)).toEqual([]);
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`)).status).toBe(404);
  });

  test('a subtask whose parent is gone comes back at the top level; a subtask whose parent stays comes back at its former position', async () => {
    const projectId = await newProject(server, 'Parents');
    const [p, q] = await addTasks(server, projectId, ['P', 'Q']);
    const [p1, p2, p3] = await addTasks(server, projectId, [
      { content: 'P1', taskId: p!.id, placement: 'beforeend' },
      { content: 'P2', taskId: p!.id, placement: 'beforeend' },
      { content: 'P3', taskId: p!.id, placement: 'beforeend' },
    ]);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${p2!.id}`)).status).toBe(200);
    clock.advance(1000);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${p1!.id}`)).status).toBe(200);
    const [first, second] = await trash(projectId);
    // Newest first.
    expect([first!.text, second!.text]).toEqual(['P1', 'P2']);
    expect(first!.parentId).toBe(p!.id);
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${second!.id}/restore`)).status).toBe(200);
    expect(await shape(projectId)).toBe('P|  P2|  P3|Q');
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${first!.id}/restore`)).status).toBe(200);
    expect(await shape(projectId)).toBe('P|  P1|  P2|  P3|Q');

    // P3 deleted, then its parent P: restoring P3 first puts it at the end of the project.
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${p3!.id}`)).status).toBe(200);
    clock.advance(1000);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${p!.id}`)).status).toBe(200);
    expect(await shape(projectId)).toBe('Q');
    const [pEntry, p3Entry] = await trash(projectId);
    expect(pEntry!.taskCount).toBe(3);
    const back = await api.post(`/api/v1/projects/${projectId}/trash/${p3Entry!.id}/restore`);
    expect(back.body.item).toEqual({
      id: p3!.id,
      text: 'P3',
      completed: false,
    });
    expect(await shape(projectId)).toBe('Q|P3');
    // P comes back before Q, where it was.
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${pEntry!.id}/restore`)).status).toBe(200);
    expect(await shape(projectId)).toBe('P|  P1|  P2|Q|P3');
    expect((await allTasks(server, projectId))[0]!.id).toBe(p!.id);
    void q;
  });

  test('who may delete may list and restore: a Viewer gets 403, another workspace 404, a completed project 409', async () => {
    const projectId = await newProject(server, 'Roles');
    const [t] = await addTasks(server, projectId, ['T']);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${t!.id}`)).status).toBe(200);
    const [entry] = await trash(projectId, participant);
    expect(entry!.deletedBy).toEqual(expect.any(String));

    const list = await viewer.get(`/api/v1/projects/${projectId}/trash`);
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe('FORBIDDEN');
    expect((await viewer.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`)).status).toBe(403);
    const outsider = client(server, addUser(server, 'olga'));
    expect((await outsider.get(`/api/v1/projects/${projectId}/trash`)).status).toBe(404);
    expect((await outsider.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`)).status).toBe(404);
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${UNKNOWN_TASK}/restore`)).status).toBe(404);
    // An entry of another project is not found through this one.
    const other = await newProject(server, 'Other');
    expect((await api.post(`/api/v1/projects/${other}/trash/${entry!.id}/restore`)).status).toBe(404);
    expect((await api.get('/api/v1/projects/nope/trash')).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${projectId}/trash?limit=0`)).status).toBe(400);

    await completeProject(server, projectId);
    expect((await trash(projectId)).length).toBe(1);
    const refused = await api.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('PROJECT_COMPLETED');
    expect((await api.post(`/api/v1/projects/${projectId}/restore`)).status).toBe(200);
    expect((await participant.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`)).status).toBe(200);
    expect(await shape(projectId)).toBe('T');
  });

  test('a restore is refused with 409 when a task of the subtree exists again, and nothing is written', async () => {
    const projectId = await newProject(server, 'Clash');
    const [x] = await addTasks(server, projectId, ['X']);
    const [x1] = await addTasks(server, projectId, [{ content: 'X1', taskId: x!.id, placement: 'beforeend' }]);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${x!.id}`)).status).toBe(200);
    const [entry] = await trash(projectId);
    // The subtask's id taken again by a row written directly (no API makes a task with a given id).
    await dbOf(server).run(
      `INSERT INTO tasks (id, project_id, parent_id, rank, path, text, content_type, created_at, updated_at) VALUES (?, ?, NULL, 'z', 'z', 'Squatter', 'text/plain', ?, ?)`,
      x1!.id,
      projectId,
      clock.now(),
      clock.now(),
    );
    const refused = await api.post(`/api/v1/projects/${projectId}/trash/${entry!.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'id', reason: 'task_exists' } });
    expect(await shape(projectId)).toBe('Squatter');
    expect((await trash(projectId)).map((e) => e.id)).toEqual([entry!.id]);
  });

  test('entries past the retention are neither listed nor restorable, and the purge removes them', async () => {
    const projectId = await newProject(server, 'Retention');
    const [old, young] = await addTasks(server, projectId, ['Old', 'Young']);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${old!.id}`)).status).toBe(200);
    const [oldEntry] = await trash(projectId);
    clock.advance(20 * DAY);
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${young!.id}`)).status).toBe(200);
    const svc = server.built.services;
    const purge = () => svc.store.run(purgeExpiredTrash(svc));
    const stored = async () =>
      (
        await svc.store.run(
          svc.store.sql.all<{ text: string }>('SELECT text FROM deleted_tasks WHERE project_id = ? ORDER BY text', [projectId]),
        )
      ).map((r) => r.text);

    await purge();
    expect(await stored()).toEqual(['Old', 'Young']);
    clock.advance(11 * DAY);
    // Past 30 days: hidden at once, purged by the next pass.
    expect((await trash(projectId)).map((e) => e.text)).toEqual(['Young']);
    expect((await api.post(`/api/v1/projects/${projectId}/trash/${oldEntry!.id}/restore`)).status).toBe(404);
    expect(await purge()).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual(['Young']);
    clock.advance(20 * DAY);
    await purge();
    expect(await stored()).toEqual([]);
  });
});
