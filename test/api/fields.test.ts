import { client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

describe('custom fields and task field values', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  let taskIds: string[];
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
    projectId = await newProject('# Fields\n- first\n  - second\n- third');
    taskIds = (await api.get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: { id: string }) => t.id);
    expect(taskIds).toHaveLength(3);
  });
  afterAll(() => server.close());

  async function newProject(content: string): Promise<string> {
    const res = await api.post('/api/v1/projects', { folderId: server.workspaceId, contentType: 'text/markdown', content });
    expect(res.status).toBe(200);
    return res.body.item.id;
  }

  async function define(body: unknown, project = projectId) {
    return api.post(`/api/v1/projects/${project}/fields`, body);
  }

  const valuePath = (fieldId: string, taskId = taskIds[0]!, project = projectId) =>
    `/api/v1/projects/${project}/tasks/${taskId}/fields/${fieldId}`;

  test('define every type; the list returns them in creation order with the documented shape', async () => {
    const project = await newProject('# Kinds');
    const bodies = [
      { name: 'Done', type: 'boolean' },
      { name: 'Estimate', type: 'number' },
      { name: 'Comment', type: 'text' },
      { name: 'Stage', type: 'select', options: ['todo', 'doing', 'done'] },
      { name: 'Due', type: 'date' },
    ];
    const created = [];
    for (const body of bodies) {
      const res = await define(body, project);
      expect(res.status).toBe(200);
      // Ours beside the real service's `data` (its shapes are checked in compat-shapes.test.ts).
      const ours = body.options ? { type: body.type, options: body.options } : { type: body.type };
      expect(res.body).toEqual({ ok: true, item: { id: expect.any(String), name: body.name, ...ours, data: expect.any(Object) } });
      created.push(res.body.item);
    }
    const list = await api.get(`/api/v1/projects/${project}/fields`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ ok: true, items: created });
    expect((await api.get('/api/v1/projects/nope/fields')).status).toBe(404);
  });

  test('field names are unique per project ignoring case (409 CONFLICT); another project may reuse them', async () => {
    const project = await newProject('# Names');
    expect((await define({ name: 'Priority', type: 'number' }, project)).status).toBe(200);
    const clash = await define({ name: 'pRIORITY', type: 'text' }, project);
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'name', reason: 'duplicate_value' } });
    expect((await define({ name: 'Priority', type: 'number' }, await newProject('# Other'))).status).toBe(200);
  });

  test('definition validation: name, type and options', async () => {
    const cases: [unknown, string, string][] = [
      [{ type: 'text' }, 'name', 'required'],
      [{ name: '', type: 'text' }, 'name', 'too_short'],
      [{ name: 'x'.repeat(101), type: 'text' }, 'name', 'too_long'],
      [{ name: 'a\rb', type: 'text' }, 'name', 'contains_line_break'],
      [{ name: 'n' }, 'type', 'required'],
      [{ name: 'n', type: 'color' }, 'type', 'invalid_value'],
      [{ name: 'n', type: 'select' }, 'options', 'required'],
      [{ name: 'n', type: 'select', options: [] }, 'options', 'too_few'],
      [{ name: 'n', type: 'select', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }, 'options', 'too_many'],
      [{ name: 'n', type: 'select', options: ['a', 'a'] }, 'options', 'duplicate_value'],
      [{ name: 'n', type: 'select', options: ['a', ''] }, 'options[1]', 'too_short'],
      [{ name: 'n', type: 'select', options: ['x'.repeat(201)] }, 'options[0]', 'too_long'],
      [{ name: 'n', type: 'select', options: ['a\nb'] }, 'options[0]', 'contains_line_break'],
      [{ name: 'n', type: 'text', options: ['a'] }, 'options', 'not_allowed'],
    ];
    for (const [body, field, reason] of cases) {
      const res = await define(body);
      expect({ body, status: res.status, details: res.body.error?.details }).toEqual({ body, status: 400, details: { field, reason } });
    }
    expect(
      (await define({ name: 'x'.repeat(100), type: 'select', options: Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(200, '.')) }))
        .status,
    ).toBe(200);
  });

  test('values: set, read back normalized, replace, clear (idempotent), unset reads null', async () => {
    const fields = {
      flag: (await define({ name: 'Flag', type: 'boolean' })).body.item.id,
      amount: (await define({ name: 'Amount', type: 'number' })).body.item.id,
      note: (await define({ name: 'Note', type: 'text' })).body.item.id,
      stage: (await define({ name: 'Phase', type: 'select', options: ['a', 'b'] })).body.item.id,
      day: (await define({ name: 'Day', type: 'date' })).body.item.id,
    };
    const accepted: [string, unknown, unknown][] = [
      [fields.flag, true, true],
      [fields.flag, 'false', false],
      [fields.flag, 'true', true],
      [fields.amount, 42, 42],
      [fields.amount, '-1.5e2', -150],
      [fields.amount, 0.25, 0.25],
      [fields.note, 'x', 'x'],
      [fields.note, 'é'.repeat(2000), 'é'.repeat(2000)],
      [fields.note, 'two\nlines', 'two\nlines'],
      [fields.stage, 'b', 'b'],
      [fields.day, '2024-02-29', '2024-02-29'],
    ];
    for (const [fieldId, value, stored] of accepted) {
      const put = await api.put(valuePath(fieldId), { value });
      expect({ value, status: put.status, body: put.body }).toEqual({ value, status: 200, body: { ok: true } });
      const got = await api.get(valuePath(fieldId));
      expect(got.body).toEqual({ ok: true, item: { fieldId, value: stored } });
    }
    const unset = await api.get(valuePath(fields.flag, taskIds[1]));
    expect(unset.status).toBe(200);
    expect(unset.body).toEqual({ ok: true, item: { fieldId: fields.flag, value: null } });

    expect((await api.delete(valuePath(fields.amount))).body).toEqual({ ok: true });
    expect((await api.get(valuePath(fields.amount))).body.item.value).toBeNull();
    const again = await api.delete(valuePath(fields.amount));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true });
    const stored = await dbOf(server).get(
      'SELECT value_json FROM task_field_values WHERE task_id = ? AND field_id = ?',
      taskIds[0],
      fields.flag,
    );
    expect(stored).toEqual({ value_json: 'true' });
  });

  test('values of the wrong type or out of range are 400 with field `value`', async () => {
    const ids = {
      boolean: (await define({ name: 'B', type: 'boolean' })).body.item.id,
      number: (await define({ name: 'N', type: 'number' })).body.item.id,
      text: (await define({ name: 'T', type: 'text' })).body.item.id,
      select: (await define({ name: 'S', type: 'select', options: ['low', 'high'] })).body.item.id,
      date: (await define({ name: 'D', type: 'date' })).body.item.id,
    };
    const refused: [keyof typeof ids, unknown, string][] = [
      ['boolean', 1, 'invalid_type'],
      ['boolean', null, 'invalid_type'],
      ['boolean', 'yes', 'invalid_value'],
      ['boolean', '', 'too_short'],
      ['number', true, 'invalid_type'],
      ['number', [1], 'invalid_type'],
      ['number', 'ten', 'invalid_value'],
      ['number', ' 1', 'invalid_value'],
      ['number', '1e999', 'invalid_value'],
      ['number', '', 'too_short'],
      ['text', 5, 'invalid_type'],
      ['text', { a: 1 }, 'invalid_type'],
      ['text', '', 'too_short'],
      ['text', 'x'.repeat(2001), 'too_long'],
      ['select', 'medium', 'invalid_value'],
      ['select', 'LOW', 'invalid_value'],
      ['select', 1, 'invalid_type'],
      ['date', '2023-02-29', 'invalid_value'],
      ['date', '2024-13-01', 'invalid_value'],
      ['date', '2024-1-1', 'invalid_value'],
      ['date', '2024-01-01T00:00:00Z', 'invalid_value'],
      ['date', 20240101, 'invalid_type'],
    ];
    for (const [type, value, reason] of refused) {
      const res = await api.put(valuePath(ids[type]), { value });
      expect({ type, value, status: res.status, error: res.body.error?.code, details: res.body.error?.details }).toEqual({
        type,
        value,
        status: 400,
        error: 'VALIDATION_ERROR',
        details: { field: 'value', reason },
      });
    }
    const missing = await api.put(valuePath(ids.text), {});
    expect(missing.body.error.details).toEqual({ field: 'value', reason: 'required' });
    const rows = await dbOf(server).get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM task_field_values WHERE field_id IN (${Object.values(ids)
        .map(() => '?')
        .join(',')})`,
      ...Object.values(ids),
    );
    expect(rows!.n).toBe(0);
  });

  test('unknown task, unknown field, a field of another project and an unknown project are 404', async () => {
    const field = (await define({ name: 'Here', type: 'text' })).body.item.id;
    const otherProject = await newProject('# Elsewhere\n- task');
    const otherTask = (await api.get(`/api/v1/projects/${otherProject}/tasks`)).body.items[0].id;
    const foreignField = (await define({ name: 'There', type: 'text' }, otherProject)).body.item.id;
    const unknownTask = '00000000-0000-4000-8000-000000000000';
    const cases: [string, string][] = [
      [valuePath(field, unknownTask), "task '00000000-0000-4000-8000-000000000000' not found"],
      [valuePath('nope'), "field 'nope' not found"],
      [valuePath(foreignField), `field '${foreignField}' not found`],
      [valuePath(field, otherTask), `task '${otherTask}' not found`],
      [valuePath(field, taskIds[0], 'nope'), "project 'nope' not found"],
    ];
    for (const [path, message] of cases) {
      for (const res of [await api.get(path), await api.put(path, { value: 'v' }), await api.delete(path)]) {
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: { ok: false, code: 'NOT_FOUND', message, statusMessage: 'Not Found', error: { code: 'NOT_FOUND', message } },
        });
      }
    }
  });

  test('a completed project refuses field definitions and value writes with 409, reads still work', async () => {
    const project = await newProject('# Closed\n- task');
    const task = (await api.get(`/api/v1/projects/${project}/tasks`)).body.items[0].id;
    const field = (await define({ name: 'Score', type: 'number' }, project)).body.item.id;
    await api.put(valuePath(field, task, project), { value: 7 });
    expect((await api.post(`/api/v1/projects/${project}/complete`)).status).toBe(200);
    const writes = [
      await define({ name: 'Later', type: 'text' }, project),
      await api.put(valuePath(field, task, project), { value: 8 }),
      await api.delete(valuePath(field, task, project)),
    ];
    for (const res of writes) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('PROJECT_COMPLETED');
    }
    expect((await api.get(valuePath(field, task, project))).body.item.value).toBe(7);
    expect((await api.get(`/api/v1/projects/${project}/fields`)).body.items).toHaveLength(1);
    await api.post(`/api/v1/projects/${project}/restore`);
    expect((await api.put(valuePath(field, task, project), { value: 8 })).status).toBe(200);
  });
});
