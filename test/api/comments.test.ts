import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, eventsOf, newProject, UNKNOWN_TASK, type ApiTask } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';
import { onPostgres } from '../helpers/test-store';

describe('comments on tasks', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  let task: ApiTask;
  let url: string;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Discussed');
    [task] = (await addTasks(server, projectId, ['Talk about me'])) as [ApiTask];
    url = `/api/v1/projects/${projectId}/tasks/${task.id}/comments`;
  });
  afterAll(() => server.close());

  test('POST returns the comment; GET lists it; comment.created carries the documented payload', async () => {
    const before = (await eventsOf(server, 'comment.created')).length;
    const res = await api.post(url, { text: 'First thoughts' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.any(String),
        taskId: task.id,
        text: 'First thoughts',
        author: { handle: 'owner', displayName: 'Owner' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    const listed = await api.get(url);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ ok: true, items: [res.body.item] });
    const events = (await eventsOf(server, 'comment.created')).slice(before);
    expect(events).toEqual([
      {
        type: 'comment.created',
        workspaceId: server.workspaceId,
        depth: 0,
        payload: {
          projectId,
          projectTitle: 'Discussed',
          projectLink: `${server.url}/projects/${projectId}`,
          nodeId: task.id,
          nodeText: 'Talk about me',
          commentId: res.body.item.id,
          commentText: 'First thoughts',
          author: 'owner',
          createdAt: res.body.item.createdAt,
        },
      },
    ]);
  });

  test('text: 1..10000 characters, line breaks allowed', async () => {
    expect((await api.post(url, { text: 'c'.repeat(10000) })).status).toBe(200);
    const multi = await api.post(url, { text: 'line one\r\nline two' });
    expect(multi.status).toBe(200);
    expect(multi.body.item.text).toBe('line one\r\nline two');
    const cases: [unknown, string, string][] = [
      [{ text: 'c'.repeat(10001) }, 'text', 'too_long'],
      [{ text: '' }, 'text', 'too_short'],
      [{}, 'text', 'required'],
      [{ text: { a: 1 } }, 'text', 'invalid_type'],
    ];
    for (const [body, field, reason] of cases) {
      const res = await api.post(url, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ field, reason });
    }
    expect((await api.post(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/comments`, { text: 'x' })).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/comments`)).status).toBe(404);
  });

  test('pages: oldest first, limit default 20 max 500, page default 1, past the end is empty', async () => {
    const [t] = await addTasks(server, projectId, ['Busy task']);
    const busy = `/api/v1/projects/${projectId}/tasks/${t!.id}/comments`;
    const author = addUser(server, 'commenter', { workspaceId: server.workspaceId, role: 'Participant' });
    for (let i = 0; i < 25; i++) {
      const res = await client(server, i % 2 ? author : server.token).post(busy, { text: `c${i}` });
      expect(res.status).toBe(200);
    }
    const texts = (res: { body: { items: { text: string }[] } }) => res.body.items.map((c) => c.text);
    const first = await api.get(busy);
    expect(texts(first)).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`));
    expect(first.body.items[1].author).toEqual({ handle: 'commenter', displayName: 'commenter' });
    expect(texts(await api.get(`${busy}?page=2`))).toEqual(['c20', 'c21', 'c22', 'c23', 'c24']);
    expect(texts(await api.get(`${busy}?limit=5&page=5`))).toEqual(['c20', 'c21', 'c22', 'c23', 'c24']);
    expect(texts(await api.get(`${busy}?limit=5&page=6`))).toEqual([]);
    expect(texts(await api.get(`${busy}?limit=1&page=3`))).toEqual(['c2']);
    expect(texts(await api.get(`${busy}?limit=500`))).toHaveLength(25);
    expect(texts(await api.get(`${busy}?limit=500&page=1000000`))).toEqual([]);
    for (const [q, field, reason] of [
      ['?page=1000001', 'page', 'too_large'],
      ['?page=1e400', 'page', 'too_large'],
      ['?limit=0', 'limit', 'too_small'],
      ['?limit=501', 'limit', 'too_large'],
      ['?page=0', 'page', 'too_small'],
      ['?page=x', 'page', 'invalid_type'],
    ]) {
      const res = await api.get(`${busy}${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ field, reason });
    }
  });

  test('comments go with their task when it is deleted', async () => {
    const [t] = await addTasks(server, projectId, ['Doomed']);
    await api.post(`/api/v1/projects/${projectId}/tasks/${t!.id}/comments`, { text: 'soon gone' });
    await api.delete(`/api/v1/projects/${projectId}/tasks/${t!.id}`);
    const n = await dbOf(server).get<{ n: number }>('SELECT count(*) AS n FROM comments WHERE task_id = ?', t!.id);
    expect(n!.n).toBe(0);
  });

  test('a NUL character: PostgreSQL cannot store it, so 400 with nothing written; SQLite keeps it', async () => {
    const [other] = (await addTasks(server, projectId, ['Odd text'])) as [ApiTask];
    const at = `/api/v1/projects/${projectId}/tasks/${other.id}/comments`;
    const res = await api.post(at, { text: 'nul\u0000inside' });
    if (onPostgres()) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        ok: false,
        code: 'VALIDATION_ERROR',
        error: { details: { field: 'body', reason: 'invalid_value' } },
      });
      expect((await api.get(at)).body.items).toEqual([]);
    } else {
      expect(res.status).toBe(200);
      expect((await api.get(at)).body.items.map((c: { text: string }) => c.text)).toEqual(['nul\u0000inside']);
    }
  });
});
