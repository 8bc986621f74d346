import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, completeProject, newProject } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/** One task write endpoint: method, path under the task (or project), body. */
interface Write {
  name: string;
  method: 'post' | 'put' | 'delete';
  path: (projectId: string, taskId: string, anchorId: string) => string;
  body?: (anchorId: string) => unknown;
}

const WRITES: Write[] = [
  {
    name: 'create tasks',
    method: 'post',
    path: (p) => `/api/v1/projects/${p}/tasks/`,
    body: () => ({ tasks: [{ contentType: 'text/plain', content: 'new' }] }),
  },
  {
    name: 'update task',
    method: 'put',
    path: (p, t) => `/api/v1/projects/${p}/tasks/${t}`,
    body: () => ({ contentType: 'text/plain', content: 'edited' }),
  },
  { name: 'delete task', method: 'delete', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}` },
  { name: 'complete task', method: 'post', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/complete` },
  { name: 'uncomplete task', method: 'post', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/uncomplete` },
  {
    name: 'move task',
    method: 'put',
    path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/move`,
    body: (anchor) => ({ target: { taskId: anchor, position: 'beforebegin' } }),
  },
  {
    name: 'set assignees',
    method: 'put',
    path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/assignees`,
    body: () => ({ handles: ['owner'] }),
  },
  { name: 'remove assignee', method: 'delete', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/assignees/owner` },
  {
    name: 'set date',
    method: 'put',
    path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/date`,
    body: () => ({ start: { date: '2030-01-01' } }),
  },
  { name: 'remove date', method: 'delete', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/date` },
  {
    name: 'set note',
    method: 'put',
    path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/note`,
    body: () => ({ type: 'text/plain', value: 'n' }),
  },
  { name: 'remove note', method: 'delete', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/note` },
  { name: 'comment', method: 'post', path: (p, t) => `/api/v1/projects/${p}/tasks/${t}/comments`, body: () => ({ text: 'hi' }) },
];

const READS: ((p: string, t: string) => string)[] = [
  (p, t) => `/api/v1/projects/${p}/tasks/${t}`,
  (p) => `/api/v1/projects/${p}/tasks`,
  (p) => `/api/v1/projects/${p}/blocks`,
  (p, t) => `/api/v1/projects/${p}/tasks/${t}/assignees`,
  (p, t) => `/api/v1/projects/${p}/tasks/${t}/date`,
  (p, t) => `/api/v1/projects/${p}/tasks/${t}/note`,
  (p, t) => `/api/v1/projects/${p}/tasks/${t}/comments`,
];

describe('task permissions and completed projects', () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let projectId: string;
  let anchorId: string;
  beforeAll(async () => {
    server = await startServer();
    for (const role of ['Viewer', 'Participant', 'Collaborator']) {
      tokens[role] = addUser(server, role.toLowerCase(), { workspaceId: server.workspaceId, role });
    }
    tokens.Owner = server.token;
    tokens.outsider = addUser(server, 'outsider');
    projectId = await newProject(server, 'Roles');
    anchorId = (await addTasks(server, projectId, ['Anchor']))[0]!.id;
  });
  afterAll(() => server.close());

  /** A task with a note, a date, an assignee and a comment, so every write has something to act on. */
  async function furnishedTask(project = projectId): Promise<string> {
    const [task] = await addTasks(server, project, ['Target']);
    const owner = client(server, server.token);
    const base = `/api/v1/projects/${project}/tasks/${task!.id}`;
    await owner.put(`${base}/note`, { type: 'text', value: 'note' });
    await owner.put(`${base}/date`, { start: { date: '2030-01-01' } });
    await owner.put(`${base}/assignees`, { handles: ['owner'] });
    await owner.post(`${base}/comments`, { text: 'c' });
    return task!.id;
  }

  /** Everything a refused write must leave untouched. */
  async function snapshot(): Promise<string> {
    const db = dbOf(server);
    return JSON.stringify([
      await db.all('SELECT * FROM tasks ORDER BY id'),
      await db.all('SELECT * FROM task_assignees ORDER BY task_id, user_id'),
      await db.get('SELECT count(*) AS n FROM comments'),
      await db.get('SELECT count(*) AS n FROM events'),
    ]);
  }

  describe.each(WRITES)('$name', (write) => {
    const send = async (who: string, taskId: string, project = projectId) => {
      const api = client(server, tokens[who]!);
      const url = write.path(project, taskId, anchorId);
      return write.body ? api[write.method](url, write.body(anchorId)) : api[write.method](url);
    };

    test('Viewer 403 and outsider 404, changing nothing; Participant, Collaborator and Owner 200', async () => {
      const taskId = await furnishedTask();
      const before = await snapshot();
      const viewer = await send('Viewer', taskId);
      expect(viewer.status).toBe(403);
      expect(viewer.body).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      const outsider = await send('outsider', taskId);
      expect(outsider.status).toBe(404);
      expect(outsider.body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect(await snapshot()).toBe(before);
      for (const who of ['Participant', 'Collaborator', 'Owner']) {
        const res = await send(who, await furnishedTask());
        expect(res.status).toBe(200);
        expect(res.body.ok).toBe(true);
      }
    });

    test('a completed project refuses it with 409 PROJECT_COMPLETED', async () => {
      const project = await newProject(server, 'Closed');
      const taskId = await furnishedTask(project);
      const [anchor] = await addTasks(server, project, ['Anchor']);
      await completeProject(server, project);
      const before = await snapshot();
      const api = client(server, tokens.Participant!);
      const url = write.path(project, taskId, anchor!.id);
      const res = write.body ? await api[write.method](url, write.body(anchor!.id)) : await api[write.method](url);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'PROJECT_COMPLETED' } });
      expect(await snapshot()).toBe(before);
    });
  });

  test('every read is open to Viewers, also on a completed project, and hidden from outsiders', async () => {
    const project = await newProject(server, 'Readable');
    const taskId = await furnishedTask(project);
    for (const completed of [false, true]) {
      if (completed) await completeProject(server, project);
      for (const read of READS) {
        const url = read(project, taskId);
        const viewer = await client(server, tokens.Viewer!).get(url);
        expect([url, viewer.status]).toEqual([url, 200]);
        expect(viewer.body.ok).toBe(true);
        const outsider = await client(server, tokens.outsider!).get(url);
        expect([url, outsider.status]).toEqual([url, 404]);
      }
    }
  });
});
