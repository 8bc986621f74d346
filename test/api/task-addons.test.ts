import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { addTasks, eventsOf, newProject, UNKNOWN_TASK, type ApiTask } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

describe('task add-ons: assignees, date, note', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  let task: ApiTask;
  let base: string;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, server.token);
    for (const [handle, role] of [
      ['alice', 'Participant'],
      ['bob', 'Viewer'],
      ['carol', 'Collaborator'],
    ]) {
      addUser(server, handle!, { workspaceId: server.workspaceId, role });
    }
    addUser(server, 'stranger');
    projectId = await newProject(server, 'Add-ons');
    [task] = (await addTasks(server, projectId, ['Host task'])) as [ApiTask];
    base = `/api/v1/projects/${projectId}/tasks/${task.id}`;
  });
  afterAll(() => server.close());

  describe('assignees', () => {
    test('PUT replaces the set, GET lists {handle, displayName}, DELETE removes one idempotently', async () => {
      const put = await api.put(`${base}/assignees`, { handles: ['bob', 'Alice'] });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ok: true, item: { id: task.id, text: 'Host task', completed: false } });
      const listed = await api.get(`${base}/assignees`);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        ok: true,
        items: [
          { handle: 'alice', displayName: 'alice' },
          { handle: 'bob', displayName: 'bob' },
        ],
      });
      await api.put(`${base}/assignees`, { handles: ['carol', 'bob'] });
      expect((await api.get(`${base}/assignees`)).body.items.map((a: { handle: string }) => a.handle)).toEqual(['bob', 'carol']);

      const removed = await api.delete(`${base}/assignees/bob`);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ ok: true, item: { id: task.id, text: 'Host task', completed: false } });
      expect((await api.delete(`${base}/assignees/bob`)).status).toBe(200);
      expect((await api.delete(`${base}/assignees/nobody-at-all`)).status).toBe(200);
      expect((await api.get(`${base}/assignees`)).body.items).toEqual([{ handle: 'carol', displayName: 'carol' }]);

      const cleared = await api.put(`${base}/assignees`, { handles: [] });
      expect(cleared.status).toBe(200);
      expect((await api.get(`${base}/assignees`)).body.items).toEqual([]);
    });

    test('handles must be members of the workspace, unique, at most 100; the body is required', async () => {
      await api.put(`${base}/assignees`, { handles: ['alice'] });
      const cases: [unknown, string, string, RegExp?][] = [
        [{ handles: ['alice', 'stranger'] }, 'handles', 'not_a_member', /stranger/],
        [{ handles: ['ghost'] }, 'handles', 'not_a_member', /ghost/],
        [{ handles: ['alice', 'ALICE'] }, 'handles', 'duplicate', /ALICE/],
        [{ handles: Array.from({ length: 101 }, (_, i) => `u${i}`) }, 'handles', 'too_many'],
        [{}, 'handles', 'required'],
        [{ handles: [''] }, 'handles[0]', 'too_short'],
        [{ handles: [{}] }, 'handles[0]', 'invalid_type'],
      ];
      for (const [body, field, reason, message] of cases) {
        const res = await api.put(`${base}/assignees`, body);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual({ field, reason });
        if (message) expect(res.body.error.message).toMatch(message);
      }
      // Nothing changed by the refused requests.
      expect((await api.get(`${base}/assignees`)).body.items.map((a: { handle: string }) => a.handle)).toEqual(['alice']);
      expect((await api.get(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/assignees`)).status).toBe(404);
    });

    test('task.assigned is raised only when someone is added, with everyone after the change', async () => {
      await api.put(`${base}/assignees`, { handles: [] });
      const before = (await eventsOf(server, 'task.assigned')).length;
      await api.put(`${base}/assignees`, { handles: ['alice'] });
      await api.put(`${base}/assignees`, { handles: ['alice'] });
      await api.put(`${base}/assignees`, { handles: [] });
      await api.put(`${base}/assignees`, { handles: ['alice', 'carol'] });
      await api.put(`${base}/assignees`, { handles: ['carol', 'bob'] });
      await api.delete(`${base}/assignees/bob`);
      const events = (await eventsOf(server, 'task.assigned')).slice(before);
      expect(events.map((e) => e.payload.added)).toEqual([
        [{ handle: 'alice' }],
        [{ handle: 'alice' }, { handle: 'carol' }],
        [{ handle: 'bob' }],
      ]);
      expect(events[2]).toEqual({
        type: 'task.assigned',
        workspaceId: server.workspaceId,
        depth: 0,
        payload: {
          projectId,
          projectTitle: 'Add-ons',
          projectLink: `${server.url}/projects/${projectId}`,
          nodeId: task.id,
          nodeText: 'Host task',
          assignees: [
            { handle: 'bob', displayName: 'bob' },
            { handle: 'carol', displayName: 'carol' },
          ],
          added: [{ handle: 'bob' }],
          assignedBy: 'owner',
        },
      });
    });

    test('task.completed lists the assignees', async () => {
      const [t] = await addTasks(server, projectId, ['Assigned and done']);
      await api.put(`/api/v1/projects/${projectId}/tasks/${t!.id}/assignees`, { handles: ['carol', 'alice'] });
      await api.post(`/api/v1/projects/${projectId}/tasks/${t!.id}/complete`);
      const event = (await eventsOf(server, 'task.completed')).find((e) => e.payload.nodeId === t!.id)!;
      expect(event.payload.assignees).toEqual([{ handle: 'alice' }, { handle: 'carol' }]);
    });
  });

  describe('date', () => {
    const dueAt = async (id = task.id) =>
      (await dbOf(server).get<{ d: number | null }>('SELECT due_at AS d FROM tasks WHERE id = ?', id))!.d;

    test('PUT sets start and end, GET returns them, due_at follows the end in its time zone', async () => {
      const put = await api.put(`${base}/date`, {
        start: { date: '2024-06-30', time: '08:30', timezone: 'Europe/Paris' },
        end: { date: '2024-07-01', time: '09:00:15', timezone: 'Europe/Paris' },
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ok: true, item: { id: task.id, text: 'Host task', completed: false } });
      const got = await api.get(`${base}/date`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({
        ok: true,
        item: {
          start: { date: '2024-06-30', time: '08:30', timezone: 'Europe/Paris' },
          end: { date: '2024-07-01', time: '09:00:15', timezone: 'Europe/Paris' },
        },
      });
      expect(await dueAt()).toBe(Date.parse('2024-07-01T07:00:15Z'));
    });

    test('a side alone, all-day dates, the UTC default and winter time', async () => {
      await api.put(`${base}/date`, { end: { date: '2024-12-25', timezone: 'America/New_York' } });
      expect((await api.get(`${base}/date`)).body.item).toEqual({ start: null, end: { date: '2024-12-25', timezone: 'America/New_York' } });
      expect(await dueAt()).toBe(Date.parse('2024-12-25T05:00:00Z'));

      await api.put(`${base}/date`, { start: { date: '2024-02-29', time: '23:59' } });
      expect((await api.get(`${base}/date`)).body.item).toEqual({
        start: { date: '2024-02-29', time: '23:59', timezone: 'UTC' },
        end: null,
      });
      expect(await dueAt()).toBe(Date.parse('2024-02-29T23:59:00Z'));

      await api.put(`${base}/date`, { start: { date: '2025-01-15', time: '12:00', timezone: 'Asia/Kolkata' }, end: null });
      expect(await dueAt()).toBe(Date.parse('2025-01-15T06:30:00Z'));
    });

    test('end before start is refused; same day all-day or later time is fine', async () => {
      await api.put(`${base}/date`, { start: { date: '2024-05-01' } });
      const bad = [
        { start: { date: '2024-05-02' }, end: { date: '2024-05-01' } },
        { start: { date: '2024-05-01', time: '10:00' }, end: { date: '2024-05-01', time: '09:59' } },
        // 10:00 in Paris is 08:00Z; 09:00 in London is 08:00Z in summer: equal is fine, 08:59 London is before.
        {
          start: { date: '2024-05-01', time: '10:00', timezone: 'Europe/Paris' },
          end: { date: '2024-05-01', time: '08:59', timezone: 'Europe/London' },
        },
      ];
      for (const body of bad) {
        const res = await api.put(`${base}/date`, body);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual({ field: 'end', reason: 'before_start' });
      }
      expect((await api.get(`${base}/date`)).body.item.start.date).toBe('2024-05-01');
      for (const body of [
        { start: { date: '2024-05-01', time: '10:00' }, end: { date: '2024-05-01' } },
        { start: { date: '2024-05-01', time: '10:00' }, end: { date: '2024-05-01', time: '10:00' } },
        {
          start: { date: '2024-05-01', time: '10:00', timezone: 'Europe/Paris' },
          end: { date: '2024-05-01', time: '09:00', timezone: 'Europe/London' },
        },
      ]) {
        expect((await api.put(`${base}/date`, body)).status).toBe(200);
      }
    });

    test('malformed dates, times and time zones are 400 naming the field', async () => {
      const cases: [unknown, string, string][] = [
        [{}, 'start', 'required'],
        [{ start: null, end: null }, 'start', 'required'],
        [{ start: {} }, 'start.date', 'required'],
        [{ start: { date: '2023-02-29' } }, 'start.date', 'invalid_format'],
        [{ start: { date: '2024-13-01' } }, 'start.date', 'invalid_format'],
        [{ start: { date: '2024-04-31' } }, 'start.date', 'invalid_format'],
        [{ start: { date: '24-01-01' } }, 'start.date', 'invalid_format'],
        [{ end: { date: '2024-01-01T10:00:00Z' } }, 'end.date', 'invalid_format'],
        [{ start: { date: '2024-01-01', time: '24:00' } }, 'start.time', 'invalid_format'],
        [{ start: { date: '2024-01-01', time: '9:00' } }, 'start.time', 'invalid_format'],
        [{ start: { date: '2024-01-01', time: '10:00:60' } }, 'start.time', 'invalid_format'],
        [{ start: { date: '2024-01-01', timezone: 'Mars/Olympus' } }, 'start.timezone', 'invalid_value'],
        [{ end: { date: '2024-01-01', timezone: 'Not a zone' } }, 'end.timezone', 'invalid_format'],
        [{ start: { date: '2024-01-01', timezone: 'A'.repeat(65) } }, 'start.timezone', 'too_long'],
      ];
      for (const [body, field, reason] of cases) {
        const res = await api.put(`${base}/date`, body);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual({ field, reason });
      }
    });

    test('DELETE clears the date and due_at; GET without a date is 404', async () => {
      await api.put(`${base}/date`, { start: { date: '2024-05-01' } });
      const res = await api.delete(`${base}/date`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, item: { id: task.id, text: 'Host task', completed: false } });
      expect(await dueAt()).toBeNull();
      const none = await api.get(`${base}/date`);
      expect(none.status).toBe(404);
      expect(none.body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('has no date') });
      expect((await api.delete(`${base}/date`)).status).toBe(200);
      expect((await api.get(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/date`)).status).toBe(404);
    });
  });

  describe('note', () => {
    test('PUT accepts media types and short names; GET returns the short name', async () => {
      for (const [type, read] of [
        ['text/plain', 'text'],
        ['text/markdown', 'markdown'],
        ['text', 'text'],
        ['markdown', 'markdown'],
      ]) {
        const put = await api.put(`${base}/note`, { type, value: `note as ${type}` });
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ ok: true, item: { type: read, value: `note as ${type}` } });
        expect((await api.get(`${base}/note`)).body).toEqual({ ok: true, item: { type: read, value: `note as ${type}` } });
      }
    });

    test('value limits: 10000 characters accepted, 10001 refused, no CR or LF, not empty; type enum', async () => {
      expect((await api.put(`${base}/note`, { type: 'text', value: 'n'.repeat(10000) })).status).toBe(200);
      const cases: [unknown, string, string][] = [
        [{ type: 'text', value: 'n'.repeat(10001) }, 'value', 'too_long'],
        [{ type: 'text', value: 'a\nb' }, 'value', 'contains_line_break'],
        [{ type: 'text', value: 'a\rb' }, 'value', 'contains_line_break'],
        [{ type: 'text', value: '' }, 'value', 'too_short'],
        [{ type: 'text/html', value: 'x' }, 'type', 'invalid_value'],
        [{ value: 'x' }, 'type', 'required'],
        [{ type: 'text' }, 'value', 'required'],
      ];
      for (const [body, field, reason] of cases) {
        const res = await api.put(`${base}/note`, body);
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual({ field, reason });
      }
      expect((await api.get(`${base}/note`)).body.item.value).toHaveLength(10000);
    });

    test('DELETE removes the note idempotently; GET without a note is 404', async () => {
      await api.put(`${base}/note`, { type: 'text', value: 'x' });
      const res = await api.delete(`${base}/note`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await api.delete(`${base}/note`)).body).toEqual({ ok: true });
      const none = await api.get(`${base}/note`);
      expect(none.status).toBe(404);
      expect(none.body.error).toMatchObject({ code: 'NOT_FOUND', message: `task '${task.id}' has no note` });
      expect((await api.put(`/api/v1/projects/${projectId}/tasks/${UNKNOWN_TASK}/note`, { type: 'text', value: 'x' })).status).toBe(404);
    });
  });
});
