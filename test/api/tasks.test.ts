import { client, startServer, type TestServer } from '../helpers/server';
import { addTasks, allTasks, eventsOf, newProject, texts, UNKNOWN_TASK, type ApiTask } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/** An RFC 9562 version 7 uuid (spec section 2 asks for a uuid; docs/api.md "Ids" says which). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The creation time, in ms, that a version 7 uuid carries in its first 48 bits. */
const uuidTime = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('tasks: create, read, update, delete, complete, move', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  const tasksUrl = (projectId: string) => `/api/v1/projects/${projectId}/tasks/`;
  const createOne = (projectId: string, task: Record<string, unknown>) =>
    api.post(tasksUrl(projectId), { tasks: [{ contentType: 'text/markdown', ...task }] });

  describe('create', () => {
    test('without a reference tasks are appended as blocks, in request order, with the documented envelope', async () => {
      const projectId = await newProject(server);
      const before = Date.now();
      const res = await api.post(tasksUrl(projectId), {
        tasks: [
          { contentType: 'text/markdown', content: 'First' },
          { contentType: 'text/plain', content: 'Second', taskId: null },
        ],
      });
      const after = Date.now();
      expect(res.status).toBe(200);
      for (const task of res.body.item as ApiTask[]) {
        expect(uuidTime(task.id)).toBeGreaterThanOrEqual(before);
        expect(uuidTime(task.id)).toBeLessThanOrEqual(after);
      }
      expect(res.body).toEqual({
        ok: true,
        item: [
          { id: expect.stringMatching(UUID), text: 'First', completed: false },
          { id: expect.stringMatching(UUID), text: 'Second', completed: false },
        ],
      });
      const third = await createOne(projectId, { content: 'Third' });
      expect(third.body.item[0]).not.toHaveProperty('parentId');
      expect(await texts(server, projectId)).toEqual(['First', 'Second', 'Third']);
      const stored = await dbOf(server).get<{ t: string }>('SELECT content_type AS t FROM tasks WHERE id = ?', res.body.item[1].id);
      expect(stored!.t).toBe('text/plain');
    });

    test('the path without a trailing slash works too', async () => {
      const projectId = await newProject(server);
      const res = await api.post(`/api/v1/projects/${projectId}/tasks`, { tasks: [{ contentType: 'text/markdown', content: 'x' }] });
      expect(res.status).toBe(200);
      expect(res.body.item[0].text).toBe('x');
    });

    test('the four placements relative to a reference, and afterend by default', async () => {
      const projectId = await newProject(server);
      const [a, b] = await addTasks(server, projectId, ['A', 'B']);
      const [a1] = await addTasks(server, projectId, [{ content: 'A1', taskId: a!.id, placement: 'beforeend' }]);
      expect(a1!.parentId).toBe(a!.id);
      expect(await texts(server, projectId)).toEqual(['A', 'A1', 'B']);

      const [x] = await addTasks(server, projectId, [{ content: 'X', taskId: b!.id, placement: 'beforebegin' }]);
      expect(x).not.toHaveProperty('parentId');
      expect(await texts(server, projectId)).toEqual(['A', 'A1', 'X', 'B']);

      const [y] = await addTasks(server, projectId, [{ content: 'Y', taskId: a!.id, placement: 'afterend' }]);
      expect(y).not.toHaveProperty('parentId');
      expect(await texts(server, projectId)).toEqual(['A', 'A1', 'Y', 'X', 'B']);

      const [z] = await addTasks(server, projectId, [{ content: 'Z', taskId: a!.id, placement: 'afterbegin' }]);
      expect(z!.parentId).toBe(a!.id);
      expect(await texts(server, projectId)).toEqual(['A', 'Z', 'A1', 'Y', 'X', 'B']);

      const [w] = await addTasks(server, projectId, [{ content: 'W', taskId: a!.id, placement: 'beforeend' }]);
      expect(w!.parentId).toBe(a!.id);
      expect(await texts(server, projectId)).toEqual(['A', 'Z', 'A1', 'W', 'Y', 'X', 'B']);

      const [d] = await addTasks(server, projectId, [{ content: 'D', taskId: a1!.id }]);
      expect(d!.parentId).toBe(a!.id);
      expect(await texts(server, projectId)).toEqual(['A', 'Z', 'A1', 'D', 'W', 'Y', 'X', 'B']);

      const all = await allTasks(server, projectId);
      expect(all.filter((t) => t.parentId === a!.id).map((t) => t.text)).toEqual(['Z', 'A1', 'D', 'W']);
    });

    test.each([
      ['beforebegin', ['A', 'B', 'B1', 'first', 'second', 'third', 'C']],
      ['afterbegin', ['A', 'B', 'first', 'second', 'third', 'B1', 'C']],
      ['beforeend', ['A', 'B', 'B1', 'first', 'second', 'third', 'C']],
      ['afterend', ['A', 'B', 'B1', 'first', 'second', 'third', 'C']],
    ])('tasks sharing a reference and %s keep their request order', async (placement, expected) => {
      const projectId = await newProject(server);
      const [, b] = await addTasks(server, projectId, ['A', 'B']);
      await addTasks(server, projectId, [{ content: 'B1', taskId: b!.id, placement: 'beforeend' }]);
      await addTasks(server, projectId, ['C']);
      const ref = placement === 'beforebegin' ? (await allTasks(server, projectId)).find((t) => t.text === 'C')! : b!;
      const created = await addTasks(
        server,
        projectId,
        ['first', 'second', 'third'].map((content) => ({ content, taskId: ref.id, placement })),
      );
      expect(created.map((t) => t.text)).toEqual(['first', 'second', 'third']);
      expect(await texts(server, projectId)).toEqual(expected);
    });

    test('a request mixing references keeps each run in request order around the tasks it put elsewhere', async () => {
      const projectId = await newProject(server);
      const [, b, c] = await addTasks(server, projectId, ['A', 'B', 'C']);
      await addTasks(server, projectId, [
        { content: 'after B 1', taskId: b!.id, placement: 'afterend' },
        { content: 'before C', taskId: c!.id, placement: 'beforebegin' },
        { content: 'after B 2', taskId: b!.id, placement: 'afterend' },
        { content: 'end 1' },
        { content: 'end 2' },
        { content: 'after B 3', taskId: b!.id, placement: 'afterend' },
      ]);
      expect(await texts(server, projectId)).toEqual(['A', 'B', 'after B 1', 'after B 2', 'after B 3', 'before C', 'C', 'end 1', 'end 2']);
    });

    test('content of 2000 characters is accepted, 2001 refused; CR, LF and empty content are refused', async () => {
      const projectId = await newProject(server);
      const ok = await createOne(projectId, { content: 'x'.repeat(2000) });
      expect(ok.status).toBe(200);
      expect(ok.body.item[0].text).toHaveLength(2000);
      const cases: [unknown, string, string][] = [
        ['x'.repeat(2001), 'tasks[0].content', 'too_long'],
        ['a\nb', 'tasks[0].content', 'contains_line_break'],
        ['a\rb', 'tasks[0].content', 'contains_line_break'],
        ['', 'tasks[0].content', 'too_short'],
      ];
      for (const [content, field, reason] of cases) {
        const res = await createOne(projectId, { content });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: { field, reason } } });
      }
      expect(await texts(server, projectId)).toEqual(['x'.repeat(2000)]);
    });

    test('characters are counted as code points: 2000 emoji are accepted, 2001 refused', async () => {
      const projectId = await newProject(server);
      const ok = await createOne(projectId, { content: '😀'.repeat(2000) });
      expect(ok.status).toBe(200);
      const tooLong = await createOne(projectId, { content: '😀'.repeat(2001) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.details).toEqual({ field: 'tasks[0].content', reason: 'too_long' });
      const put = await api.put(`/api/v1/projects/${projectId}/tasks/${ok.body.item[0].id}`, {
        contentType: 'text/plain',
        content: 'é'.repeat(2000),
      });
      expect(put.status).toBe(200);
    });

    test('enums, required fields, uuids, counts and unknown references are validated', async () => {
      const projectId = await newProject(server);
      const [a] = await addTasks(server, projectId, ['A']);
      const bad = async (body: unknown, field: string, reason: string) => {
        const res = await api.post(tasksUrl(projectId), body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details).toEqual({ field, reason });
      };
      await bad({}, 'tasks', 'required');
      await bad({ tasks: [] }, 'tasks', 'too_few');
      await bad({ tasks: Array.from({ length: 101 }, () => ({ contentType: 'text/plain', content: 'x' })) }, 'tasks', 'too_many');
      await bad({ tasks: [{ contentType: 'text/html', content: 'x' }] }, 'tasks[0].contentType', 'invalid_value');
      await bad({ tasks: [{ content: 'x' }] }, 'tasks[0].contentType', 'required');
      await bad({ tasks: [{ contentType: 'text/plain' }] }, 'tasks[0].content', 'required');
      await bad({ tasks: [{ contentType: 'text/plain', content: 'x', taskId: 'nope' }] }, 'tasks[0].taskId', 'invalid_format');
      await bad(
        { tasks: [{ contentType: 'text/plain', content: 'x', taskId: a!.id, placement: 'inside' }] },
        'tasks[0].placement',
        'invalid_value',
      );
      await bad({ tasks: [{ contentType: 'text/plain', content: { a: 1 } }] }, 'tasks[0].content', 'invalid_type');
      // A second task with an unknown reference: nothing of the request is written.
      await bad(
        {
          tasks: [
            { contentType: 'text/plain', content: 'kept?' },
            { contentType: 'text/plain', content: 'y', taskId: UNKNOWN_TASK },
          ],
        },
        'tasks[1].taskId',
        'not_found',
      );
      expect(await texts(server, projectId)).toEqual(['A']);
      expect((await eventsOf(server, 'task.added')).some((e) => e.payload.nodeText === 'kept?')).toBe(false);
    });

    test('100 tasks in one request are accepted', async () => {
      const projectId = await newProject(server);
      const created = await addTasks(
        server,
        projectId,
        Array.from({ length: 100 }, (_, i) => `t${i}`),
      );
      expect(created).toHaveLength(100);
      expect(await texts(server, projectId)).toEqual(created.map((t) => t.text));
    });

    test('a reference task of another project is refused; an unknown project is 404', async () => {
      const p1 = await newProject(server);
      const p2 = await newProject(server);
      const [other] = await addTasks(server, p2, ['other']);
      const res = await createOne(p1, { content: 'x', taskId: other!.id });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ field: 'tasks[0].taskId', reason: 'not_found' });
      const none = await createOne('no-such-project', { content: 'x' });
      expect(none.status).toBe(404);
      expect(none.body.error.code).toBe('NOT_FOUND');
    });

    test('task.added is written to the outbox for each task with the documented payload', async () => {
      const projectId = await newProject(server, 'Launch plan');
      const before = (await eventsOf(server, 'task.added')).length;
      const [a] = await addTasks(server, projectId, ['Top']);
      const [child] = await addTasks(server, projectId, [{ content: 'Child', taskId: a!.id, placement: 'afterbegin' }]);
      const events = (await eventsOf(server, 'task.added')).slice(before);
      expect(events).toHaveLength(2);
      const projectLink = `${server.url}/projects/${projectId}`;
      expect(events[0]).toEqual({
        type: 'task.added',
        workspaceId: server.workspaceId,
        depth: 0,
        payload: { projectId, projectTitle: 'Launch plan', projectLink, nodeId: a!.id, nodeText: 'Top', assignees: [], createdBy: 'owner' },
      });
      expect(events[1]!.payload).toEqual({
        projectId,
        projectTitle: 'Launch plan',
        projectLink,
        nodeId: child!.id,
        nodeText: 'Child',
        parentId: a!.id,
        assignees: [],
        createdBy: 'owner',
      });
    });
  });

  describe('read and update', () => {
    test('GET returns the task; parentId only on subtasks; unknown ids and tasks of other projects are 404', async () => {
      const projectId = await newProject(server);
      const other = await newProject(server);
      const [a] = await addTasks(server, projectId, ['A']);
      const [a1] = await addTasks(server, projectId, [{ content: 'A1', taskId: a!.id, placement: 'beforeend' }]);
      const got = await api.get(`/api/v1/projects/${projectId}/tasks/${a!.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ ok: true, item: { id: a!.id, text: 'A', completed: false } });
      const sub = await api.get(`/api/v1/projects/${projectId}/tasks/${a1!.id}`);
      expect(sub.body.item).toEqual({ id: a1!.id, text: 'A1', completed: false, parentId: a!.id });
      for (const url of [
        `/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}`,
        `/api/v1/projects/${projectId}/tasks/not-a-uuid`,
        `/api/v1/projects/${other}/tasks/${a!.id}`,
        `/api/v1/projects/nope/tasks/${a!.id}`,
      ]) {
        const res = await api.get(url);
        expect(res.status).toBe(404);
        expect(res.body.ok).toBe(false);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    });

    test('PUT replaces the content; limits as on create', async () => {
      const projectId = await newProject(server);
      const [a] = await addTasks(server, projectId, ['A']);
      const url = `/api/v1/projects/${projectId}/tasks/${a!.id}`;
      const res = await api.put(url, { contentType: 'text/plain', content: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, item: { id: a!.id, text: 'Renamed', completed: false } });
      expect((await api.get(url)).body.item.text).toBe('Renamed');
      expect((await api.put(url, { contentType: 'text/plain', content: 'y'.repeat(2000) })).status).toBe(200);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ contentType: 'text/plain', content: 'y'.repeat(2001) }, 'content', 'too_long'],
        [{ contentType: 'text/plain', content: 'a\nb' }, 'content', 'contains_line_break'],
        [{ contentType: 'text/plain', content: 'a\rb' }, 'content', 'contains_line_break'],
        [{ contentType: 'text/plain', content: '' }, 'content', 'too_short'],
        [{ contentType: 'text/plain' }, 'content', 'required'],
        [{ content: 'x' }, 'contentType', 'required'],
        [{ contentType: 'application/json', content: 'x' }, 'contentType', 'invalid_value'],
      ];
      for (const [body, field, reason] of cases) {
        const bad = await api.put(url, body);
        expect(bad.status).toBe(400);
        expect(bad.body.error.details).toEqual({ field, reason });
      }
      expect((await api.get(url)).body.item.text).toBe('y'.repeat(2000));
      expect(
        (await api.put(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}`, { contentType: 'text/plain', content: 'x' })).status,
      ).toBe(404);
    });
  });

  describe('complete and uncomplete', () => {
    test('are idempotent, record who and when, and raise task.completed once per transition with field values', async () => {
      const projectId = await newProject(server, 'Done list');
      const [a] = await addTasks(server, projectId, ['Finish me']);
      const db = dbOf(server);
      const now = Date.now();
      await db.run(
        "INSERT INTO fields (id, project_id, name, type, created_at) VALUES ('f-points', ?, 'points', 'number', ?)",
        projectId,
        now,
      );
      await db.run(
        "INSERT INTO fields (id, project_id, name, type, created_at) VALUES ('f-clash', ?, 'nodeId', 'text', ?)",
        projectId,
        now + 1,
      );
      await db.run("INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, 'f-points', '5')", a!.id);
      await db.run(`INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, 'f-clash', '"shadow"')`, a!.id);
      await db.run(
        "INSERT INTO fields (id, project_id, name, type, created_at) VALUES ('f-proto', ?, '__proto__', 'text', ?)",
        projectId,
        now + 2,
      );
      await db.run(`INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, 'f-proto', '{"polluted":true}')`, a!.id);
      const base = `/api/v1/projects/${projectId}/tasks/${a!.id}`;
      const before = (await eventsOf(server, 'task.completed')).length;

      const done = await api.post(`${base}/complete`);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ ok: true, item: { id: a!.id, text: 'Finish me', completed: true } });
      const row = (await db.get<{ completed: number; at: number; by: string }>(
        'SELECT completed, completed_at AS at, completed_by AS by FROM tasks WHERE id = ?',
        a!.id,
      ))!;
      expect(row.completed).toBe(1);
      expect(row.at).toBeGreaterThanOrEqual(now - 1000);
      const ownerId = await db.value<string>("SELECT id FROM users WHERE handle = 'owner'");
      expect(row.by).toBe(ownerId);
      const again = await api.post(`${base}/complete`);
      expect(again.body.item.completed).toBe(true);
      expect((await api.get(base)).body.item.completed).toBe(true);

      const events = (await eventsOf(server, 'task.completed')).slice(before);
      expect(events).toHaveLength(1);
      const payload = events[0]!.payload;
      // A field named like an Object.prototype member is plain data, not a prototype.
      expect(Object.getOwnPropertyDescriptor(payload, '__proto__')?.value).toEqual({ polluted: true });
      expect((payload as { polluted?: boolean }).polluted).toBeUndefined();
      delete payload['__proto__'];
      expect(payload).toEqual({
        projectId,
        projectTitle: 'Done list',
        projectLink: `${server.url}/projects/${projectId}`,
        nodeId: a!.id,
        nodeText: 'Finish me',
        completedBy: 'owner',
        completedAt: new Date(row.at).toISOString(),
        triggerTime: new Date(row.at).toISOString(),
        assignees: [],
        points: 5,
      });

      const reopened = await api.post(`${base}/uncomplete`);
      expect(reopened.body).toEqual({ ok: true, item: { id: a!.id, text: 'Finish me', completed: false } });
      expect((await api.post(`${base}/uncomplete`)).body.item.completed).toBe(false);
      const cleared = await db.get('SELECT completed, completed_at AS at, completed_by AS by FROM tasks WHERE id = ?', a!.id);
      expect(cleared).toEqual({ completed: 0, at: null, by: null });
      await api.post(`${base}/complete`);
      expect((await eventsOf(server, 'task.completed')).slice(before)).toHaveLength(2);
      expect((await api.post(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/complete`)).status).toBe(404);
    });
  });

  describe('move', () => {
    async function tree(): Promise<{ projectId: string; t: Record<string, ApiTask> }> {
      const projectId = await newProject(server);
      const [a, b, c] = await addTasks(server, projectId, ['A', 'B', 'C']);
      const [a1, a2] = await addTasks(server, projectId, [
        { content: 'A1', taskId: a!.id, placement: 'beforeend' },
        { content: 'A2', taskId: a!.id, placement: 'beforeend' },
      ]);
      const [a1x] = await addTasks(server, projectId, [{ content: 'A1x', taskId: a1!.id, placement: 'beforeend' }]);
      return { projectId, t: { a: a!, b: b!, c: c!, a1: a1!, a2: a2!, a1x: a1x! } };
    }
    const move = (projectId: string, taskId: string, target: unknown) =>
      api.put(`/api/v1/projects/${projectId}/tasks/${taskId}/move`, { target });

    test('beforebegin, afterend, afterbegin and beforeend move the task with its subtree', async () => {
      const { projectId, t } = await tree();
      expect(await texts(server, projectId)).toEqual(['A', 'A1', 'A1x', 'A2', 'B', 'C']);

      let res = await move(projectId, t.a1!.id, { taskId: t.c!.id, position: 'beforebegin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, item: { id: t.a1!.id, text: 'A1', completed: false } });
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'B', 'A1', 'A1x', 'C']);

      res = await move(projectId, t.a1!.id, { taskId: t.c!.id, position: 'afterend' });
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'B', 'C', 'A1', 'A1x']);

      res = await move(projectId, t.a1!.id, { taskId: t.b!.id, position: 'afterbegin' });
      expect(res.body.item.parentId).toBe(t.b!.id);
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'B', 'A1', 'A1x', 'C']);

      res = await move(projectId, t.c!.id, { taskId: t.a!.id, position: 'beforeend' });
      expect(res.body.item).toEqual({ id: t.c!.id, text: 'C', completed: false, parentId: t.a!.id });
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'C', 'B', 'A1', 'A1x']);

      const all = await allTasks(server, projectId);
      expect(all.find((x) => x.text === 'A1x')!.parentId).toBe(t.a1!.id);
      const child = await api.get(`/api/v1/projects/${projectId}/tasks/${t.a1x!.id}`);
      expect(child.body.item.parentId).toBe(t.a1!.id);

      // Moving next to its own neighbours keeps the order valid.
      await move(projectId, t.b!.id, { taskId: t.a!.id, position: 'afterend' });
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'C', 'B', 'A1', 'A1x']);
      await move(projectId, t.a!.id, { taskId: t.b!.id, position: 'beforebegin' });
      expect(await texts(server, projectId)).toEqual(['A', 'A2', 'C', 'B', 'A1', 'A1x']);
    });

    test('into its own subtree, relative to itself, to unknown targets and with bad bodies is refused', async () => {
      const { projectId, t } = await tree();
      const cases: [string, unknown, number, Record<string, string> | undefined][] = [
        [t.a!.id, { taskId: t.a1x!.id, position: 'beforeend' }, 400, { field: 'target.taskId', reason: 'inside_moved_task' }],
        [t.a!.id, { taskId: t.a1!.id, position: 'afterend' }, 400, { field: 'target.taskId', reason: 'inside_moved_task' }],
        [t.a!.id, { taskId: t.a!.id, position: 'afterbegin' }, 400, { field: 'target.taskId', reason: 'inside_moved_task' }],
        [t.a!.id, { taskId: UNKNOWN_TASK, position: 'afterend' }, 400, { field: 'target.taskId', reason: 'not_found' }],
        [t.a!.id, { taskId: 'nope', position: 'afterend' }, 400, { field: 'target.taskId', reason: 'invalid_format' }],
        [t.a!.id, { taskId: t.b!.id, position: 'inside' }, 400, { field: 'target.position', reason: 'invalid_value' }],
        [t.a!.id, { taskId: t.b!.id }, 400, { field: 'target.position', reason: 'required' }],
        [t.a!.id, { position: 'afterend' }, 400, { field: 'target.taskId', reason: 'required' }],
        [UNKNOWN_TASK, { taskId: t.b!.id, position: 'afterend' }, 404, undefined],
      ];
      for (const [taskId, target, status, details] of cases) {
        const res = await move(projectId, taskId, target);
        expect(res.status).toBe(status);
        if (details) expect(res.body.error.details).toEqual(details);
      }
      const missing = await api.put(`/api/v1/projects/${projectId}/tasks/${t.a!.id}/move`, {});
      expect(missing.body.error.details).toEqual({ field: 'target', reason: 'required' });
      expect(await texts(server, projectId)).toEqual(['A', 'A1', 'A1x', 'A2', 'B', 'C']);
    });
  });

  describe('delete', () => {
    test('removes the task with its whole subtree and their add-ons; siblings stay', async () => {
      const projectId = await newProject(server);
      const [a, b] = await addTasks(server, projectId, ['A', 'B']);
      const [a1] = await addTasks(server, projectId, [{ content: 'A1', taskId: a!.id, placement: 'beforeend' }]);
      const [a1x] = await addTasks(server, projectId, [{ content: 'A1x', taskId: a1!.id, placement: 'beforeend' }]);
      // A sibling whose rank could share a prefix with A's.
      await addTasks(server, projectId, [{ content: 'A+', taskId: a!.id, placement: 'afterend' }]);
      await api.post(`/api/v1/projects/${projectId}/tasks/${a1x!.id}/comments`, { text: 'bye' });
      await api.put(`/api/v1/projects/${projectId}/tasks/${a1!.id}/assignees`, { handles: ['owner'] });

      const res = await api.delete(`/api/v1/projects/${projectId}/tasks/${a!.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await texts(server, projectId)).toEqual(['A+', 'B']);
      for (const id of [a!.id, a1!.id, a1x!.id]) {
        expect((await api.get(`/api/v1/projects/${projectId}/tasks/${id}`)).status).toBe(404);
      }
      const db = dbOf(server);
      expect(await db.get('SELECT count(*) AS n FROM comments WHERE task_id = ?', a1x!.id)).toEqual({ n: 0 });
      expect(await db.get('SELECT count(*) AS n FROM task_assignees WHERE task_id = ?', a1!.id)).toEqual({ n: 0 });
      expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${a!.id}`)).status).toBe(404);
      expect((await api.get(`/api/v1/projects/${projectId}/tasks/${b!.id}`)).status).toBe(200);
    });
  });
});

describe('cursor lists: tasks and blocks', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  /** Document order: A, A1, A1x, A2, B, C, C1. */
  let order: ApiTask[];
  beforeAll(async () => {
    server = await startServer();
    api = client(server, server.token);
    projectId = await newProject(server);
    const [a, , c] = await addTasks(server, projectId, ['A', 'B', 'C']);
    const [a1] = await addTasks(server, projectId, [
      { content: 'A1', taskId: a!.id, placement: 'beforeend' },
      { content: 'A2', taskId: a!.id, placement: 'beforeend' },
    ]);
    await addTasks(server, projectId, [{ content: 'A1x', taskId: a1!.id, placement: 'afterbegin' }]);
    await addTasks(server, projectId, [{ content: 'C1', taskId: c!.id, placement: 'afterbegin' }]);
    order = await allTasks(server, projectId);
  });
  afterAll(() => server.close());

  const list = (query = '') => api.get(`/api/v1/projects/${projectId}/tasks${query}`);
  const blocks = (query = '') => api.get(`/api/v1/projects/${projectId}/blocks${query}`);
  const names = (res: { body: { items: ApiTask[] } }) => res.body.items.map((t) => t.text);
  const idOf = (text: string) => order.find((t) => t.text === text)!.id;

  test('tasks come in document order with subtasks and the documented envelope', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(names(res)).toEqual(['A', 'A1', 'A1x', 'A2', 'B', 'C', 'C1']);
    expect(res.body.items[0]).toEqual({ id: idOf('A'), text: 'A', completed: false });
    expect(res.body.items[2]).toEqual({ id: idOf('A1x'), text: 'A1x', completed: false, parentId: idOf('A1') });
  });

  test('tasks: limit, after and before, and the page edges', async () => {
    expect(names(await list('?limit=1'))).toEqual(['A']);
    expect(names(await list(`?limit=2&after=${idOf('A1')}`))).toEqual(['A1x', 'A2']);
    expect(names(await list(`?limit=3&after=${idOf('A2')}`))).toEqual(['B', 'C', 'C1']);
    expect(names(await list(`?limit=3&after=${idOf('C1')}`))).toEqual([]);
    expect(names(await list(`?before=${idOf('A')}`))).toEqual([]);
    expect(names(await list(`?limit=2&before=${idOf('B')}`))).toEqual(['A1x', 'A2']);
    expect(names(await list(`?before=${idOf('B')}`))).toEqual(['A', 'A1', 'A1x', 'A2']);
    expect(names(await list(`?limit=500&after=${idOf('C')}`))).toEqual(['C1']);
    // Walking pages of 2 covers everything once.
    const walked: string[] = [];
    let after = '';
    for (;;) {
      const page = await list(`?limit=2${after}`);
      walked.push(...names(page));
      if (page.body.items.length < 2) break;
      after = `&after=${page.body.items[1].id}`;
    }
    expect(walked).toEqual(['A', 'A1', 'A1x', 'A2', 'B', 'C', 'C1']);
  });

  test('blocks: top-level tasks only, without parentId, with cursors', async () => {
    const res = await blocks();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      items: ['A', 'B', 'C'].map((text) => ({ id: idOf(text), text, completed: false })),
    });
    expect(names(await blocks('?limit=1'))).toEqual(['A']);
    expect(names(await blocks(`?after=${idOf('A')}`))).toEqual(['B', 'C']);
    expect(names(await blocks(`?limit=1&after=${idOf('A')}`))).toEqual(['B']);
    expect(names(await blocks(`?after=${idOf('C')}`))).toEqual([]);
    expect(names(await blocks(`?before=${idOf('A')}`))).toEqual([]);
    expect(names(await blocks(`?limit=1&before=${idOf('C')}`))).toEqual(['B']);
    const sub = await blocks(`?after=${idOf('A1')}`);
    expect(sub.status).toBe(400);
    expect(sub.body.error.details).toEqual({ field: 'after', reason: 'not_a_block' });
  });

  test.each(['tasks', 'blocks'])('%s: query validation', async (kind) => {
    const get = (q: string) => api.get(`/api/v1/projects/${projectId}/${kind}${q}`);
    const bad = async (q: string, field: string, reason: string) => {
      const res = await get(q);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason } });
    };
    await bad(`?after=${idOf('A')}&before=${idOf('B')}`, 'before', 'conflicts_with_after');
    await bad(`?after=${UNKNOWN_TASK}`, 'after', 'not_found');
    await bad(`?before=${UNKNOWN_TASK}`, 'before', 'not_found');
    await bad('?after=not-a-uuid', 'after', 'invalid_format');
    await bad('?before=1234', 'before', 'invalid_format');
    await bad('?limit=0', 'limit', 'too_small');
    await bad('?limit=501', 'limit', 'too_large');
    await bad('?limit=abc', 'limit', 'invalid_type');
    expect((await get('?limit=500')).status).toBe(200);
    expect((await api.get(`/api/v1/projects/nope/${kind}`)).status).toBe(404);
    // A cursor from another project is unknown here.
    const other = await newProject(server);
    const [foreign] = await addTasks(server, other, ['foreign']);
    await bad(`?after=${foreign!.id}`, 'after', 'not_found');
  });

  test('the default limit is 100', async () => {
    const big = await newProject(server);
    for (let i = 0; i < 2; i++)
      await addTasks(
        server,
        big,
        Array.from({ length: 60 }, (_, j) => `t${i * 60 + j}`),
      );
    const tasks = await api.get(`/api/v1/projects/${big}/tasks`);
    expect(tasks.body.items).toHaveLength(100);
    expect(tasks.body.items[99].text).toBe('t99');
    const blockPage = await api.get(`/api/v1/projects/${big}/blocks`);
    expect(blockPage.body.items).toHaveLength(100);
  });
});

describe('list pages are never stale', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('every task write shows in the very next read of both lists (pages are cached per project change)', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server);
    const [a, b] = await addTasks(server, projectId, ['A', 'B']);
    const tasks = async () =>
      (await api.get(`/api/v1/projects/${projectId}/tasks?limit=10`)).body.items.map((t: ApiTask) => `${t.text}${t.completed ? '✓' : ''}`);
    const blocks = async () => (await api.get(`/api/v1/projects/${projectId}/blocks`)).body.items.map((t: ApiTask) => t.text);
    const after = async () => (await api.get(`/api/v1/projects/${projectId}/tasks?after=${a!.id}`)).body.items.map((t: ApiTask) => t.text);
    const base = `/api/v1/projects/${projectId}/tasks/`;
    const steps: [string, () => Promise<unknown>, string[], string[], string[]][] = [
      ['read twice', async () => undefined, ['A', 'B'], ['A', 'B'], ['B']],
      [
        'create',
        () => api.post(base, { tasks: [{ contentType: 'text/plain', content: 'C' }] }),
        ['A', 'B', 'C'],
        ['A', 'B', 'C'],
        ['B', 'C'],
      ],
      [
        'update',
        () => api.put(`${base}${b!.id}`, { contentType: 'text/plain', content: 'B2' }),
        ['A', 'B2', 'C'],
        ['A', 'B2', 'C'],
        ['B2', 'C'],
      ],
      ['complete', () => api.post(`${base}${b!.id}/complete`), ['A', 'B2✓', 'C'], ['A', 'B2', 'C'], ['B2', 'C']],
      [
        'move',
        () => api.put(`${base}${b!.id}/move`, { target: { taskId: a!.id, position: 'afterbegin' } }),
        ['A', 'B2✓', 'C'],
        ['A', 'C'],
        ['B2', 'C'],
      ],
      ['uncomplete', () => api.post(`${base}${b!.id}/uncomplete`), ['A', 'B2', 'C'], ['A', 'C'], ['B2', 'C']],
      ['delete', () => api.delete(`${base}${b!.id}`), ['A', 'C'], ['A', 'C'], ['C']],
    ];
    for (const [name, write, wantTasks, wantBlocks, wantAfter] of steps) {
      await tasks();
      await blocks();
      await after();
      await write();
      expect({ name, tasks: await tasks(), blocks: await blocks(), after: await after() }).toEqual({
        name,
        tasks: wantTasks,
        blocks: wantBlocks,
        after: wantAfter,
      });
    }
    const cursorGone = await api.get(`/api/v1/projects/${projectId}/tasks?after=${b!.id}`);
    expect(cursorGone.status).toBe(400);
  });
});

describe('persistence', () => {
  test('tasks, their order, completion and add-ons survive a restart on the same data directory', async () => {
    const first = await startServer();
    const projectId = await newProject(first);
    const [a, b] = await addTasks(first, projectId, ['A', 'B']);
    await addTasks(first, projectId, [{ content: 'A1', taskId: a!.id, placement: 'beforeend' }]);
    await client(first, first.token).post(`/api/v1/projects/${projectId}/tasks/${b!.id}/complete`);
    await client(first, first.token).put(`/api/v1/projects/${projectId}/tasks/${b!.id}/note`, { type: 'text/plain', value: 'kept' });
    const beforeRestart = await allTasks(first, projectId);
    await first.close();

    const second = await startServer({ dataDir: first.dataDir });
    try {
      expect(await allTasks(second, projectId)).toEqual(beforeRestart);
      expect(beforeRestart.map((t) => t.text)).toEqual(['A', 'A1', 'B']);
      expect(beforeRestart[2]!.completed).toBe(true);
      const note = await client(second, second.token).get(`/api/v1/projects/${projectId}/tasks/${b!.id}/note`);
      expect(note.body.item).toEqual({ type: 'text', value: 'kept' });
    } finally {
      await second.close();
    }
  });
});
