import { addUser, client, startServer, type Reply, type TestServer } from '../helpers/server';
import { addTasks, allTasks, eventsOf, newProject, UNKNOWN_TASK } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';
import { onPostgres } from '../helpers/test-store';

/**
 * Creates that arrive together run as one batch of their group (docs "Architecture", "Group
 * commit"): placed in memory from shared reads and written with multi-row INSERTs. Each request
 * must still get exactly what it would get alone: a refused one fails with its own 4xx and writes
 * nothing, the others land in the order of their events, with the same places and payloads.
 */

const plain = (content: string, ref?: { taskId: string; placement?: string }) => ({ contentType: 'text/plain', content, ...ref });

describe('batched creates', () => {
  let server: TestServer;
  let viewer: string;
  beforeAll(async () => {
    server = await startServer();
    viewer = addUser(server, 'batchviewer', { workspaceId: server.workspaceId, role: 'Viewer' });
  });
  afterAll(() => server.close());

  test('a group mixing good creates with refused ones answers each and stores exactly the good ones, in order', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Batch');
    const [anchor, parent] = await addTasks(server, projectId, ['anchor', 'parent']);
    const version = async () => Number(await dbOf(server).value('SELECT version FROM projects WHERE id = ?', projectId));
    const versionBefore = await version();
    const url = `/api/v1/projects/${projectId}/tasks/`;

    // Sent at once, so they share groups; which writes share which group is not asserted, only outcomes.
    const requests: { kind: string; send: () => Promise<Reply> }[] = [];
    for (let i = 0; i < 6; i++) requests.push({ kind: `end ${i}`, send: () => api.post(url, { tasks: [plain(`end ${i}`)] }) });
    for (let i = 0; i < 3; i++)
      requests.push({ kind: `after ${i}`, send: () => api.post(url, { tasks: [plain(`after ${i}`, { taskId: anchor!.id })] }) });
    for (let i = 0; i < 3; i++)
      requests.push({
        kind: `child ${i}`,
        send: () => api.post(url, { tasks: [plain(`child ${i}`, { taskId: parent!.id, placement: 'beforeend' })] }),
      });
    requests.push({ kind: 'run', send: () => api.post(url, { tasks: [plain('run a'), plain('run b'), plain('run c')] }) });
    requests.push({ kind: 'unknown parent', send: () => api.post(url, { tasks: [plain('orphan', { taskId: UNKNOWN_TASK })] }) });
    requests.push({
      kind: 'unknown after good',
      send: () => api.post(url, { tasks: [plain('half a'), plain('half b', { taskId: UNKNOWN_TASK, placement: 'beforeend' })] }),
    });
    requests.push({
      kind: 'over the limit',
      send: () => api.post(url, { tasks: Array.from({ length: 101 }, (_, i) => plain(`many ${i}`)) }),
    });
    requests.push({ kind: 'too long', send: () => api.post(url, { tasks: [plain('x'.repeat(2001))] }) });
    requests.push({ kind: 'viewer', send: () => client(server, viewer).post(url, { tasks: [plain('viewer')] }) });
    requests.push({ kind: 'edit', send: () => api.put(`/api/v1/projects/${projectId}/tasks/${anchor!.id}`, plain('anchor edited')) });
    const replies = await Promise.all(requests.map((r) => r.send()));
    const byKind = new Map(requests.map((r, i) => [r.kind, replies[i]!]));

    expect(byKind.get('unknown parent')!.status).toBe(400);
    expect(byKind.get('unknown parent')!.body.error.details).toEqual({ field: 'tasks[0].taskId', reason: 'not_found' });
    expect(byKind.get('unknown after good')!.status).toBe(400);
    expect(byKind.get('unknown after good')!.body.error.details).toEqual({ field: 'tasks[1].taskId', reason: 'not_found' });
    expect(byKind.get('over the limit')!.status).toBe(400);
    expect(byKind.get('too long')!.status).toBe(400);
    expect(byKind.get('viewer')!.status).toBe(403);
    expect(byKind.get('edit')!.status).toBe(200);
    const good = requests.filter((r) => /^(end|after|child|run)/.test(r.kind));
    for (const r of good) expect({ kind: r.kind, status: byKind.get(r.kind)!.status }).toEqual({ kind: r.kind, status: 200 });

    // Exactly the good tasks are stored, each as answered.
    const created = good.flatMap((r) => byKind.get(r.kind)!.body.item as { id: string; text: string; parentId?: string }[]);
    const stored = await allTasks(server, projectId);
    expect(stored.map((t) => t.text).sort()).toEqual(['anchor edited', 'parent', ...created.map((t) => t.text)].sort());
    for (const task of created) expect(stored.find((t) => t.id === task.id)).toEqual({ ...task, completed: false });

    // One task.added per created task, in the order the writes ran, with the payload of a create alone.
    const added = (await eventsOf(server, 'task.added')).filter((e) => e.payload.projectId === projectId).slice(2);
    expect(added.map((e) => e.payload.nodeId)).toEqual(expect.arrayContaining(created.map((t) => t.id)));
    expect(added).toHaveLength(created.length);
    for (const e of added) {
      const task = created.find((t) => t.id === e.payload.nodeId)!;
      expect(e.payload).toEqual({
        projectId,
        projectTitle: 'Batch',
        projectLink: expect.any(String),
        nodeId: task.id,
        nodeText: task.text,
        ...(task.parentId ? { parentId: task.parentId } : {}),
        assignees: [],
        createdBy: 'owner',
      });
    }
    const runOrder = (prefix: string) => added.map((e) => e.payload.nodeText as string).filter((t) => t.startsWith(prefix));
    // Appended blocks follow the order the writes ran in; each "afterend anchor" goes right after
    // the anchor, so before the ones that ran earlier; children are appended in order.
    const expected = [
      'anchor edited',
      ...runOrder('after ').reverse(),
      'parent',
      ...runOrder('child '),
      ...added.map((e) => e.payload.nodeText as string).filter((t) => t.startsWith('end ') || t.startsWith('run ')),
    ];
    expect(stored.map((t) => t.text)).toEqual(expected);
    expect(runOrder('run ')).toEqual(['run a', 'run b', 'run c']);
    // The project's version moved once per stored task (and once for the edit), as when written one by one.
    expect(await version()).toBe(versionBefore + created.length + 1);
  });

  test('a create the database itself refuses fails alone: its group runs again write by write', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Fallback');
    const url = `/api/v1/projects/${projectId}/tasks/`;
    // PostgreSQL's text cannot hold a NUL character, which the route lets through: the batch's
    // multi-row INSERT fails, the group falls back to a savepoint per write, and that create alone
    // gets 400 (docs "API", "Errors"). SQLite stores it.
    const contents = ['one', 'two', 'nul\u0000here', 'three', 'four'];
    const replies = await Promise.all(contents.map((content) => api.post(url, { tasks: [plain(content)] })));
    const ok = contents.filter((_, i) => replies[i]!.status === 200);
    expect(ok).toEqual(onPostgres() ? ['one', 'two', 'three', 'four'] : contents);
    if (onPostgres()) {
      expect(replies[2]!.status).toBe(400);
      expect(replies[2]!.body).toMatchObject({
        ok: false,
        code: 'VALIDATION_ERROR',
        error: { details: { field: 'body', reason: 'invalid_value' } },
      });
    }
    expect((await allTasks(server, projectId)).map((t) => t.text).sort()).toEqual([...ok].sort());
    const added = (await eventsOf(server, 'task.added')).filter((e) => e.payload.projectId === projectId);
    expect(added.map((e) => e.payload.nodeText).sort()).toEqual([...ok].sort());
  });

  test("one client's sequential creates land in order", async () => {
    const projectId = await newProject(server, 'Sequential');
    for (let i = 0; i < 5; i++) await addTasks(server, projectId, [`seq ${i}`]);
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['seq 0', 'seq 1', 'seq 2', 'seq 3', 'seq 4']);
  });
});
