import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, settledRuns } from './helpers';

/**
 * The task change triggers (docs "Automations", "Triggers"): `task.updated` (text, note, dates,
 * with `changed`/`changes`), `task.deleted` (one per task of a deleted subtree, parent first) and
 * `field.changed` (optionally one named field, with `from`/`to`), raised by the API's writes; and
 * the causing automation recorded on every event a step's write raises, so a task trigger skips
 * its own automation's changes unless `includeOwnChanges`. Over real HTTP.
 */
describe('task change triggers', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  const variables = (runs: any[]) => runs.map((r) => r.trigger.variables);

  test('task.updated: one run per write that changes text, note or dates, with changed and changes; none for a write that changes nothing', async () => {
    const projectId = await newProject(server, 'Updates');
    const [task] = await addTasks(server, projectId, ['Draft']);
    const base = `/api/v1/projects/${projectId}/tasks/${task!.id}`;
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On update',
      trigger: { type: 'task.updated', scope: { projectId } },
      actions: [],
    });

    expect((await api.put(base, { contentType: 'text/markdown', content: 'Final' })).status).toBe(200);
    // The same text again changes nothing: no event, no run (the next run is the witness).
    expect((await api.put(base, { contentType: 'text/markdown', content: 'Final' })).status).toBe(200);
    expect((await api.put(`${base}/note`, { type: 'text', value: 'Remember the milk' })).status).toBe(200);
    expect(
      (
        await api.put(`${base}/date`, {
          start: { date: '2026-12-01' },
          end: { date: '2026-12-03', time: '17:30', timezone: 'Europe/Paris' },
        })
      ).status,
    ).toBe(200);
    expect((await api.delete(`${base}/note`)).status).toBe(200);
    expect((await api.delete(`${base}/date`)).status).toBe(200);
    // Completion has its own event: no task.updated.
    expect((await api.post(`${base}/complete`)).status).toBe(200);
    expect((await api.put(base, { contentType: 'text/markdown', content: 'Witness' })).status).toBe(200);

    const runs = await settledRuns(api, a.id, 6);
    expect(runs).toHaveLength(6);
    const common = { projectId, projectTitle: 'Updates', nodeId: task!.id, parentId: null, updatedBy: 'owner', assignees: [] };
    expect(variables(runs)).toEqual([
      expect.objectContaining({
        ...common,
        nodeText: 'Final',
        nodeNote: null,
        changed: ['text'],
        changes: { text: { from: 'Draft', to: 'Final' } },
      }),
      expect.objectContaining({
        ...common,
        nodeText: 'Final',
        nodeNote: 'Remember the milk',
        changed: ['note'],
        changes: { note: { from: null, to: 'Remember the milk' } },
      }),
      expect.objectContaining({
        ...common,
        startDate: '2026-12-01',
        endDate: '2026-12-03T17:30',
        changed: ['startDate', 'endDate'],
        changes: { startDate: { from: null, to: '2026-12-01' }, endDate: { from: null, to: '2026-12-03T17:30' } },
      }),
      expect.objectContaining({ ...common, nodeNote: null, changed: ['note'], changes: { note: { from: 'Remember the milk', to: null } } }),
      expect.objectContaining({ ...common, startDate: null, endDate: null, changed: ['startDate', 'endDate'] }),
      expect.objectContaining({ ...common, nodeText: 'Witness', changed: ['text'], changes: { text: { from: 'Final', to: 'Witness' } } }),
    ]);
    expect(runs.every((r) => r.trigger.type === 'task.updated' && r.status === 'completed')).toBe(true);
  });

  test('task.deleted: one run per task of the deleted subtree, the task first, with parentId, deletedBy and deletedAt', async () => {
    const projectId = await newProject(server, 'Deletes');
    const [keep, parent] = await addTasks(server, projectId, ['Keep', 'Parent']);
    const [child] = await addTasks(server, projectId, [{ content: 'Child', taskId: parent!.id, placement: 'beforeend' }]);
    const [grandchild] = await addTasks(server, projectId, [{ content: 'Grandchild', taskId: child!.id, placement: 'beforeend' }]);
    const a = await createAutomation(api, server.workspaceId, {
      name: 'On delete',
      trigger: { type: 'task.deleted', scope: { projectId } },
      actions: [],
    });

    // A refused delete (unknown task) raises nothing.
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const before = Date.now();
    expect((await api.delete(`/api/v1/projects/${projectId}/tasks/${parent!.id}`)).status).toBe(200);
    const runs = await settledRuns(api, a.id, 3);
    expect(runs).toHaveLength(3);
    expect(variables(runs).map((v) => [v.nodeId, v.nodeText, v.parentId, v.deletedBy])).toEqual([
      [parent!.id, 'Parent', null, 'owner'],
      [child!.id, 'Child', parent!.id, 'owner'],
      [grandchild!.id, 'Grandchild', child!.id, 'owner'],
    ]);
    for (const v of variables(runs)) {
      expect(v).toMatchObject({ projectId, projectTitle: 'Deletes' });
      expect(Date.parse(v.deletedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect((await api.get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: any) => t.id)).toEqual([keep!.id]);
  });

  test('field.changed: a named field (by name or id) with from and to; other fields and unchanged values start nothing', async () => {
    const projectId = await newProject(server, 'Fields');
    const [task] = await addTasks(server, projectId, ['Lead']);
    const stage = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'text' })).body.item;
    const score = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Score', type: 'number' })).body.item;
    const byName = await createAutomation(api, server.workspaceId, {
      name: 'Stage',
      trigger: { type: 'field.changed', scope: { projectId }, field: 'stage' },
      actions: [],
    });
    const byId = await createAutomation(api, server.workspaceId, {
      name: 'Score',
      trigger: { type: 'field.changed', scope: { projectId }, field: score.id },
      actions: [],
    });
    const any = await createAutomation(api, server.workspaceId, {
      name: 'Any',
      trigger: { type: 'field.changed', scope: { projectId } },
      actions: [],
    });
    const value = (field: any) => `/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${field.id}`;

    expect((await api.put(value(stage), { value: 'new' })).status).toBe(200);
    expect((await api.put(value(stage), { value: 'new' })).status).toBe(200); // unchanged: nothing
    expect((await api.put(value(score), { value: 3 })).status).toBe(200);
    expect((await api.put(value(stage), { value: 'won' })).status).toBe(200);
    expect((await api.delete(value(stage))).status).toBe(200);
    expect((await api.delete(value(stage))).status).toBe(200); // already clear: nothing

    const anyRuns = await settledRuns(api, any.id, 4);
    expect(variables(anyRuns).map((v) => [v.fieldName, v.from, v.to])).toEqual([
      ['Stage', null, 'new'],
      ['Score', null, 3],
      ['Stage', 'new', 'won'],
      ['Stage', 'won', null],
    ]);
    expect(variables(anyRuns)[0]).toMatchObject({ projectId, nodeId: task!.id, nodeText: 'Lead', fieldId: stage.id, changedBy: 'owner' });
    // `any` saw every event, so the named triggers have made up their minds too.
    expect(variables(await settledRuns(api, byName.id, 3)).map((v) => [v.from, v.to])).toEqual([
      [null, 'new'],
      ['new', 'won'],
      ['won', null],
    ]);
    expect(variables(await settledRuns(api, byId.id, 1)).map((v) => [v.fieldName, v.to])).toEqual([['Score', 3]]);
  });

  test('deleting a field definition raises no field.changed for the values it takes with it', async () => {
    const projectId = await newProject(server, 'Field deletion');
    const [task] = await addTasks(server, projectId, ['Deal']);
    const doomed = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Doomed', type: 'text' })).body.item;
    const kept = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Kept', type: 'text' })).body.item;
    const value = (field: any) => `/api/v1/projects/${projectId}/tasks/${task!.id}/fields/${field.id}`;
    expect((await api.put(value(doomed), { value: 'set before' })).status).toBe(200);
    const watcher = await createAutomation(api, server.workspaceId, {
      name: 'Any field',
      trigger: { type: 'field.changed', scope: { projectId } },
      actions: [],
    });
    expect((await api.delete(`/api/v1/projects/${projectId}/fields/${doomed.id}`)).status).toBe(200);
    // The next change is the witness: events are handled in order, so a deletion event would come first.
    expect((await api.put(value(kept), { value: 'after' })).status).toBe(200);
    const runs = await settledRuns(api, watcher.id, 1);
    expect(variables(runs).map((v) => [v.fieldName, v.from, v.to])).toEqual([['Kept', null, 'after']]);
  });

  test('the causing automation: a task.added automation creating tasks in its project runs once; includeOwnChanges loops up to the depth limit', async () => {
    const projectId = await newProject(server, 'Causes');
    const echo = await createAutomation(api, server.workspaceId, {
      name: 'Echo',
      trigger: { type: 'task.added', scope: { projectId } },
      actions: [{ type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'echo of {{ trigger.nodeText }}' }],
    });
    const watcher = await createAutomation(api, server.workspaceId, {
      name: 'Watcher',
      trigger: { type: 'task.added', scope: { projectId } },
      actions: [],
    });
    await addTasks(server, projectId, ['seed']);
    // The watcher sees the seed and the echo: by then the echo's own event has been handed to the engine.
    const watched = await settledRuns(api, watcher.id, 2);
    expect(variables(watched).map((v) => v.nodeText)).toEqual(['seed', 'echo of seed']);
    const [run, ...more] = await settledRuns(api, echo.id, 1);
    expect(more).toHaveLength(0);
    expect(run).toMatchObject({ depth: 1, status: 'completed' });
    const tasks = (await api.get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: any) => t.text);
    expect(tasks).toEqual(['seed', 'echo of seed']);

    // The outbox records the cause of the step's write, and none for the API's.
    const events = await dbOf(server).all<{ text: string; automationId: string | null; runId: string | null }>(
      `SELECT payload_json AS text, caused_by_automation_id AS "automationId", caused_by_run_id AS "runId" FROM events WHERE type = 'task.added' ORDER BY seq`,
    );
    const ofProject = events
      .filter((e) => JSON.parse(e.text).projectId === projectId)
      .map((e) => [JSON.parse(e.text).nodeText, e.automationId, e.runId]);
    expect(ofProject).toEqual([
      ['seed', null, null],
      ['echo of seed', echo.id, run.id],
    ]);

    // With includeOwnChanges it triggers itself, bounded by the depth limit (5).
    const loopProject = await newProject(server, 'Own changes');
    const loop = await createAutomation(api, server.workspaceId, {
      name: 'Loop',
      trigger: { type: 'task.added', scope: { projectId: loopProject }, includeOwnChanges: true },
      actions: [{ type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'echo of {{ trigger.nodeText }}' }],
    });
    await addTasks(server, loopProject, ['seed']);
    const chain = await settledRuns(api, loop.id, 6);
    expect(chain.map((r) => [r.depth, r.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
      [4, 'completed'],
      [5, 'completed'],
      [6, 'skipped'],
    ]);
    expect(chain[5].error.code).toBe('DEPTH_LIMIT');
    expect((await api.get(`/api/v1/projects/${loopProject}/tasks`)).body.items).toHaveLength(6);
  });

  test('the documented task.updated example runs as pasted: a rename gets a comment, a note change does not pass the filter', async () => {
    const projectId = await newProject(server, 'Docs');
    const [task] = await addTasks(server, projectId, ['Old name']);
    const docs = readFileSync(join(__dirname, '../../docs/automations.md'), 'utf8');
    const block = docs
      .split('```json')
      .map((b) => b.split('```')[0]!)
      .find((b) => b.includes('"Log renames"'))!;
    const definition = JSON.parse(block.replaceAll('"W"', JSON.stringify(server.workspaceId)).replaceAll('"P"', JSON.stringify(projectId)));
    const automation = await createAutomation(api, server.workspaceId, definition);
    const base = `/api/v1/projects/${projectId}/tasks/${task!.id}`;
    expect((await api.put(`${base}/note`, { type: 'text', value: 'filtered out' })).status).toBe(200);
    expect((await api.put(base, { contentType: 'text/markdown', content: 'New name' })).status).toBe(200);
    const [run, ...more] = await settledRuns(api, automation.id, 1);
    expect(more).toHaveLength(0);
    expect(run.status).toBe('completed');
    const comments = (await api.get(`${base}/comments`)).body.items;
    expect(comments.map((c: any) => c.text)).toEqual(['Renamed from "Old name" by owner']);
  });
});
