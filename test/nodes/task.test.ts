import { addUser, client } from '../helpers/server';
import { byId, byUrl, runNode, runOk, useTaskspaceServer } from './harness';

const TASK = 'n8n-nodes-taskspace.taskspaceTask';
const server = useTaskspaceServer();
const api = () => client(server(), server().token);

async function newProject(markdown: string): Promise<string> {
  const res = await api().post('/api/v1/projects', {
    folderId: server().workspaceId,
    contentType: 'text/markdown',
    content: markdown,
  });
  expect(res.status).toBe(200);
  return res.body.item.id;
}

async function texts(projectId: string): Promise<string[]> {
  const res = await api().get(`/api/v1/projects/${projectId}/tasks?limit=500`);
  return res.body.items.map((t: { text: string }) => t.text);
}

async function taskIds(projectId: string): Promise<Record<string, string>> {
  const res = await api().get(`/api/v1/projects/${projectId}/tasks?limit=500`);
  return Object.fromEntries(res.body.items.map((t: { id: string; text: string }) => [t.text, t.id]));
}

describe('Taskspace Task node › task', () => {
  test('create appends, or places relative to a reference task', async () => {
    const projectId = await newProject('# P\n- A\n- B');
    const ids = await taskIds(projectId);
    const [appended] = await runOk(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'create', projectId: byId(projectId), content: 'C', contentType: 'text/plain' },
    });
    expect(appended.json).toMatchObject({ text: 'C', completed: false });
    await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: 'A.1',
        contentType: 'text/plain',
        options: { referenceTaskId: ids.A, placement: 'afterbegin' },
      },
    });
    await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: 'Between',
        contentType: 'text/plain',
        options: { referenceTaskId: ids.A },
      },
    });
    expect(await texts(projectId)).toEqual(['A', 'A.1', 'Between', 'B', 'C']);
    const tasks = (await api().get(`/api/v1/projects/${projectId}/tasks`)).body.items;
    expect(tasks[1].parentId).toBe(ids.A);
  });

  test('one output item per input item, each paired with its input', async () => {
    const projectId = await newProject('# Many');
    const out = await runOk(server(), {
      type: TASK,
      input: [{ json: { title: 'first' } }, { json: { title: 'second' } }, { json: { title: 'third' } }],
      parameters: {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: '={{ $json.title }}',
        contentType: 'text/plain',
      },
    });
    expect(out.map((i) => [i.json.text, i.pairedItem])).toEqual([
      ['first', { item: 0 }],
      ['second', { item: 1 }],
      ['third', { item: 2 }],
    ]);
    expect(await texts(projectId)).toEqual(['first', 'second', 'third']);
  });

  test('get, update, complete, uncomplete, move, delete', async () => {
    const projectId = await newProject('# P\n- One\n- Two\n- Three');
    const ids = await taskIds(projectId);
    const [got] = await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'get',
        projectId: byId(projectId),
        taskId: byUrl(`${server().url}/api/v1/projects/${projectId}/tasks/${ids.One}`),
      },
    });
    expect(got.json).toMatchObject({ id: ids.One, text: 'One' });

    await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'update',
        projectId: byId(projectId),
        taskId: byId(ids.One),
        content: 'Uno',
        contentType: 'text/plain',
      },
    });
    expect((await api().get(`/api/v1/projects/${projectId}/tasks/${ids.One}`)).body.item.text).toBe('Uno');

    const [done] = await runOk(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'complete', projectId: byId(projectId), taskId: byId(ids.Two) },
    });
    expect(done.json.completed).toBe(true);
    expect((await api().get(`/api/v1/projects/${projectId}/tasks/${ids.Two}`)).body.item.completed).toBe(true);
    await runOk(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'uncomplete', projectId: byId(projectId), taskId: byId(ids.Two) },
    });
    expect((await api().get(`/api/v1/projects/${projectId}/tasks/${ids.Two}`)).body.item.completed).toBe(false);

    await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'move',
        projectId: byId(projectId),
        taskId: byId(ids.Three),
        targetTaskId: byId(ids.One),
        position: 'beforebegin',
      },
    });
    expect(await texts(projectId)).toEqual(['Three', 'Uno', 'Two']);

    const [deleted] = await runOk(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'delete', projectId: byId(projectId), taskId: byId(ids.Two) },
    });
    expect(deleted.json).toEqual({ deleted: true, projectId, taskId: ids.Two });
    expect(await texts(projectId)).toEqual(['Three', 'Uno']);
  });

  test('get many: Limit, Return All across pages of 500, After and Before', async () => {
    const lines = Array.from({ length: 520 }, (_, n) => `- T${n + 1}`).join('\n');
    const projectId = await newProject(`# Big\n${lines}`);
    const reader = addUser(server(), 'reader', { workspaceId: server().workspaceId, role: 'Viewer', tier: 'premium' });
    const remaining = async () => Number((await client(server(), reader).get('/api/v1/workspaces')).headers['x-ratelimit-remaining']);

    const before = await remaining();
    const all = await runOk(
      { url: server().url, token: reader },
      {
        type: TASK,
        parameters: { resource: 'task', operation: 'getMany', projectId: byId(projectId), returnAll: true },
      },
    );
    const after = await remaining();
    expect(all).toHaveLength(520);
    expect(all[519].json.text).toBe('T520');
    // Two list requests (500 + 20) between the two probes, each probe costing one.
    expect(before - after).toBe(3);

    const limited = await runOk(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'getMany', projectId: byId(projectId), returnAll: false, limit: 3 },
    });
    expect(limited.map((i) => i.json.text)).toEqual(['T1', 'T2', 'T3']);
    const afterT2 = await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'getMany',
        projectId: byId(projectId),
        returnAll: false,
        limit: 2,
        options: { after: String(limited[1].json.id) },
      },
    });
    expect(afterT2.map((i) => i.json.text)).toEqual(['T3', 'T4']);
    const beforeLast = await runOk(server(), {
      type: TASK,
      parameters: {
        resource: 'task',
        operation: 'getMany',
        projectId: byId(projectId),
        returnAll: true,
        options: { before: String(all[3].json.id) },
      },
    });
    expect(beforeLast.map((i) => i.json.text)).toEqual(['T1', 'T2', 'T3']);
  });
});

describe('Taskspace Task node › add-ons', () => {
  test('assignee › set, get many, remove (handles loaded from project members)', async () => {
    addUser(server(), 'alice', { workspaceId: server().workspaceId, role: 'Participant' });
    addUser(server(), 'bob', { workspaceId: server().workspaceId, role: 'Participant' });
    const projectId = await newProject('# Assign\n- Job');
    const { Job } = await taskIds(projectId);
    await runOk(server(), {
      type: TASK,
      parameters: { resource: 'assignee', operation: 'set', projectId: byId(projectId), taskId: byId(Job), handles: ['alice', 'bob'] },
    });
    const listed = await runOk(server(), {
      type: TASK,
      parameters: { resource: 'assignee', operation: 'getMany', projectId: byId(projectId), taskId: byId(Job) },
    });
    expect(listed.map((i) => i.json.handle).sort()).toEqual(['alice', 'bob']);
    await runOk(server(), {
      type: TASK,
      parameters: { resource: 'assignee', operation: 'remove', projectId: byId(projectId), taskId: byId(Job), handle: 'alice' },
    });
    const left = await api().get(`/api/v1/projects/${projectId}/tasks/${Job}/assignees`);
    expect(left.body.items.map((m: { handle: string }) => m.handle)).toEqual(['bob']);
  });

  test('date › set converts n8n dates with the workflow timezone; get; delete', async () => {
    const projectId = await newProject('# Dates\n- Trip');
    const { Trip } = await taskIds(projectId);
    const base = { resource: 'date', projectId: byId(projectId), taskId: byId(Trip) };
    // The date picker gives wall-clock values: read in the workflow's timezone.
    await runOk(server(), {
      type: TASK,
      timezone: 'Europe/Berlin',
      parameters: { ...base, operation: 'set', start: '2030-03-01T09:30:00', end: '2030-03-02T17:00:00' },
    });
    let date = (await api().get(`/api/v1/projects/${projectId}/tasks/${Trip}/date`)).body.item;
    expect(date.start).toMatchObject({ date: '2030-03-01', time: '09:30', timezone: 'Europe/Berlin' });
    expect(date.end).toMatchObject({ date: '2030-03-02', time: '17:00', timezone: 'Europe/Berlin' });

    // An instant (expression such as {{ $now }} or an ISO timestamp) becomes wall-clock time in that zone.
    await runOk(server(), {
      type: TASK,
      timezone: 'America/New_York',
      parameters: { ...base, operation: 'set', start: '', end: "={{ DateTime.fromISO('2030-07-01T12:00:00Z') }}" },
    });
    date = (await api().get(`/api/v1/projects/${projectId}/tasks/${Trip}/date`)).body.item;
    expect(date.end).toMatchObject({ date: '2030-07-01', time: '08:00', timezone: 'America/New_York' });

    await runOk(server(), {
      type: TASK,
      parameters: { ...base, operation: 'set', start: '2030-12-24', end: '2030-12-26T10:00:00', options: { allDay: true } },
    });
    const [got] = await runOk(server(), { type: TASK, parameters: { ...base, operation: 'get' } });
    expect((got.json.start as { date: string }).date).toBe('2030-12-24');
    expect((got.json.start as { time?: string }).time).toBeUndefined();
    expect((got.json.end as { date: string }).date).toBe('2030-12-26');

    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'delete' } });
    const cleared = await api().get(`/api/v1/projects/${projectId}/tasks/${Trip}/date`);
    expect(cleared.status === 404 || (!cleared.body.item?.start && !cleared.body.item?.end)).toBe(true);
  });

  test('note › set, get, delete', async () => {
    const projectId = await newProject('# Notes\n- Item');
    const { Item } = await taskIds(projectId);
    const base = { resource: 'note', projectId: byId(projectId), taskId: byId(Item) };
    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'set', value: 'Bring **snacks**', type: 'text/markdown' } });
    const [got] = await runOk(server(), { type: TASK, parameters: { ...base, operation: 'get' } });
    expect(got.json).toEqual({ type: 'markdown', value: 'Bring **snacks**' });
    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'delete' } });
    const after = await api().get(`/api/v1/projects/${projectId}/tasks/${Item}/note`);
    expect(after.status).toBe(404);
  });

  test('custom field value › set (text, number, boolean), get, delete', async () => {
    const projectId = await newProject('# Fields\n- Row');
    const { Row } = await taskIds(projectId);
    const field = async (name: string, type: string) =>
      (await api().post(`/api/v1/projects/${projectId}/fields`, { name, type })).body.item.id as string;
    const text = await field('Owner', 'text');
    const points = await field('Points', 'number');
    const done = await field('Reviewed', 'boolean');
    const base = { resource: 'fieldValue', projectId: byId(projectId), taskId: byId(Row) };
    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'set', fieldId: text, valueType: 'string', value: 'Ann' } });
    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'set', fieldId: points, valueType: 'number', numberValue: 5 } });
    await runOk(server(), {
      type: TASK,
      parameters: { ...base, operation: 'set', fieldId: done, valueType: 'boolean', booleanValue: true },
    });
    const value = async (fieldId: string) =>
      (await api().get(`/api/v1/projects/${projectId}/tasks/${Row}/fields/${fieldId}`)).body.item.value;
    expect([await value(text), await value(points), await value(done)]).toEqual(['Ann', 5, true]);
    const [got] = await runOk(server(), { type: TASK, parameters: { ...base, operation: 'get', fieldId: points } });
    expect(got.json).toEqual({ fieldId: points, value: 5 });
    await runOk(server(), { type: TASK, parameters: { ...base, operation: 'delete', fieldId: points } });
    expect(await value(points)).toBeNull();
  });

  test('comment › create and get many', async () => {
    const projectId = await newProject('# Talk\n- Topic');
    const { Topic } = await taskIds(projectId);
    const base = { resource: 'comment', projectId: byId(projectId), taskId: byId(Topic) };
    const [created] = await runOk(server(), { type: TASK, parameters: { ...base, operation: 'create', text: 'Looks good' } });
    expect(created.json.text ?? created.json.commentText).toBe('Looks good');
    const listed = await runOk(server(), { type: TASK, parameters: { ...base, operation: 'getMany' } });
    expect(listed).toHaveLength(1);
    const api1 = await api().get(`/api/v1/projects/${projectId}/tasks/${Topic}/comments`);
    expect(api1.body.items).toHaveLength(1);
  });

  test('task › get many with filters: search, completed, assignee, due before and after', async () => {
    addUser(server(), 'fay', { workspaceId: server().workspaceId, role: 'Participant' });
    const projectId = await newProject('# Filters\n- Call bank\n- [x] Call back\n- Write report');
    const ids = await taskIds(projectId);
    await api().put(`/api/v1/projects/${projectId}/tasks/${ids['Call bank']}/assignees`, { handles: ['fay'] });
    await api().put(`/api/v1/projects/${projectId}/tasks/${ids['Write report']}/date`, {
      end: { date: '2026-05-01', time: '09:00', timezone: 'Europe/Berlin' },
    });
    const run = async (filters: Record<string, string | boolean>) =>
      (
        await runOk(server(), {
          type: TASK,
          timezone: 'Europe/Berlin',
          parameters: { resource: 'task', operation: 'getMany', projectId: byId(projectId), returnAll: true, filters },
        })
      ).map((t) => t.json.text);
    expect(await run({ search: 'call' })).toEqual(['Call bank', 'Call back']);
    expect(await run({ search: 'call', completed: false })).toEqual(['Call bank']);
    expect(await run({ assignee: '@fay' })).toEqual(['Call bank']);
    // 09:00 in Berlin is 07:00 UTC: due before 09:00 local excludes it, 09:01 includes it.
    expect(await run({ dueBefore: '2026-05-01T09:00:00' })).toEqual([]);
    expect(await run({ dueBefore: '2026-05-01T09:01:00' })).toEqual(['Write report']);
    expect(await run({ dueAfter: '2026-05-01' })).toEqual(['Write report']);
    expect(await run({ dueAfter: '2026-05-02' })).toEqual([]);
  });

  test('comment › get many pages past the service default of 20: Return All and Limit', async () => {
    const projectId = await newProject('# Busy\n- Thread');
    const { Thread } = await taskIds(projectId);
    for (let n = 1; n <= 27; n++)
      expect((await api().post(`/api/v1/projects/${projectId}/tasks/${Thread}/comments`, { text: `c${n}` })).status).toBe(200);
    const base = { resource: 'comment', operation: 'getMany', projectId: byId(projectId), taskId: byId(Thread) };
    const all = await runOk(server(), { type: TASK, parameters: { ...base, returnAll: true } });
    expect(all).toHaveLength(27);
    expect(new Set(all.map((c) => c.json.text)).size).toBe(27);
    expect(await runOk(server(), { type: TASK, parameters: { ...base, returnAll: false, limit: 25 } })).toHaveLength(25);
    expect(await runOk(server(), { type: TASK, parameters: base })).toHaveLength(27);
  });
});

describe('Taskspace Task node › errors', () => {
  test('client-side validation fails early with a NodeOperationError', async () => {
    const projectId = await newProject('# V');
    // Content comes from the input item through an expression, as in real workflows (n8n
    // itself already refuses a literal empty required parameter before running).
    const run = (content: string) =>
      runNode(server(), {
        type: TASK,
        input: [{ json: { content } }],
        parameters: {
          resource: 'task',
          operation: 'create',
          projectId: byId(projectId),
          content: '={{ $json.content }}',
          contentType: 'text/plain',
        },
      });
    const long = await run('x'.repeat(2001));
    expect(long.error?.name).toBe('NodeOperationError');
    expect(long.error?.message).toMatch(/2001 characters long; the maximum is 2000/);
    const multi = await run('two\nlines');
    expect(multi.error?.message).toMatch(/single line/);
    const empty = await run('');
    expect(empty.error?.message).toMatch(/must not be empty/);
    expect(await texts(projectId)).toEqual([]);
    const okay = await run('x'.repeat(2000));
    expect(okay.error).toBeUndefined();
  });

  test('custom field value › an empty field id fails early for get, set and delete', async () => {
    const projectId = await newProject('# Blank\n- Row');
    const { Row } = await taskIds(projectId);
    for (const operation of ['get', 'set', 'delete']) {
      const result = await runNode(server(), {
        type: TASK,
        input: [{ json: { fieldId: '  ' } }],
        parameters: {
          resource: 'fieldValue',
          operation,
          projectId: byId(projectId),
          taskId: byId(Row),
          fieldId: '={{ $json.fieldId }}',
          valueType: 'string',
          value: 'x',
        },
      });
      expect(result.error?.name).toBe('NodeOperationError');
      expect(result.error?.message).toBe('Field is required');
    }
  });

  test('API failures become NodeApiError with the HTTP status and the service code and message', async () => {
    const missing = await runNode(server(), {
      type: TASK,
      parameters: { resource: 'task', operation: 'get', projectId: byId('nope'), taskId: byId('0b6f3c1e-8d2a-4c55-9a51-2f0b1f1d8e7a') },
    });
    expect(missing.error?.name).toBe('NodeApiError');
    expect(missing.error?.httpCode).toBe('404');
    expect(missing.error?.description).toMatch(/NOT_FOUND/);
    const expected = await api().get('/api/v1/projects/nope');
    expect(missing.error?.message).toBe(expected.body.error.message);
  });

  test('a viewer gets the 403 from the service; continue on fail gives the input item with an error object, paired', async () => {
    const viewer = addUser(server(), 'victor', { workspaceId: server().workspaceId, role: 'Viewer' });
    const projectId = await newProject('# Guarded');
    const result = await runNode(
      { url: server().url, token: viewer },
      {
        type: TASK,
        continueOnFail: true,
        input: [{ json: { row: 1 } }, { json: { row: 2 } }],
        parameters: { resource: 'task', operation: 'create', projectId: byId(projectId), content: 'nope', contentType: 'text/plain' },
      },
    );
    expect(result.error).toBeUndefined();
    expect(result.items).toHaveLength(2);
    expect(result.items.map((i) => i.json)).toEqual(
      [1, 2].map((row) => ({
        row,
        error: {
          message: expect.any(String),
          description: expect.stringMatching(/^Taskspace error FORBIDDEN \(HTTP 403\)/),
          code: 'FORBIDDEN',
          httpCode: '403',
        },
      })),
    );
    expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
    expect(await texts(projectId)).toEqual([]);
  });

  test('"Continue (using error output)" routes API and validation failures to the error output, successes to the main one', async () => {
    const projectId = await newProject('# Routed');
    const result = await runNode(server(), {
      type: TASK,
      onError: 'continueErrorOutput',
      input: [{ json: { text: 'fine' } }, { json: { text: '' } }, { json: { text: 'also fine' } }],
      parameters: {
        resource: 'task',
        operation: 'create',
        projectId: byId(projectId),
        content: '={{ $json.text }}',
        contentType: 'text/plain',
      },
    });
    expect(result.error).toBeUndefined();
    expect(result.items.map((i) => i.json.text)).toEqual(['fine', 'also fine']);
    expect(result.errorItems).toHaveLength(1);
    // The node's own validation error as an object, paired with input item 1 (n8n merges that
    // item's JSON in when the node has a previous node: checked in a real n8n by test:n8n).
    expect(result.errorItems[0]!.json).toEqual({ error: { message: 'Content must not be empty' } });
    expect(result.errorItems[0]!.pairedItem).toEqual({ item: 1 });
    const missing = await runNode(server(), {
      type: TASK,
      onError: 'continueErrorOutput',
      parameters: { resource: 'task', operation: 'get', projectId: byId(projectId), taskId: byId('00000000-0000-4000-8000-000000000000') },
    });
    expect(missing.items).toEqual([]);
    expect(missing.errorItems).toHaveLength(1);
    expect(missing.errorItems[0]!.json).toEqual({
      error: {
        message: expect.stringMatching(/not found/),
        description: 'Taskspace error NOT_FOUND (HTTP 404)',
        code: 'NOT_FOUND',
        httpCode: '404',
      },
    });
    expect(missing.errorItems[0]!.pairedItem).toEqual({ item: 0 });
  });
});
