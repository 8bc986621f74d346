import { addUser, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runWithStatus } from './helpers';

/**
 * Replay: a failed or cancelled run re-runs as a new run linked to it, from the start or from the
 * step that failed (the steps that succeeded keep their recorded outputs and do not run again).
 */
describe('replaying runs', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let healthy = false;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    // A permanent failure (400) until the receiver is "fixed".
    rx = await receiver(() => (healthy ? { status: 200, body: { ok: true } } : { status: 400, body: { error: 'bad' } }));
  });
  afterAll(async () => {
    await rx?.close();
    await server?.close();
  });

  async function failingRun(projectId: string) {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Make then call',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'make', type: 'task.create', projectId, text: 'Made for {{ trigger.who }}' },
        {
          id: 'call',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/notify`,
          body: { type: 'json', value: { task: '{{ steps.make.id }}' } },
        },
      ],
    });
    const run = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { who: 'Ada' } })).body.item;
    const failed = await runWithStatus(api, a.id, run.id, 'failed');
    expect(failed.error.stepId).toBe('call');
    return { automationId: a.id, run: failed };
  }

  test('from the failed step: the task is not made twice and the call gets the recorded task id', async () => {
    healthy = false;
    const projectId = await newProject(server, 'Replay from step');
    const { automationId, run } = await failingRun(projectId);
    expect(await allTasks(server, projectId)).toHaveLength(1);
    healthy = true;
    const replay = await api.post(`/api/v1/automations/${automationId}/runs/${run.id}/replay`, { from: 'failed-step' });
    expect(replay.status).toBe(200);
    expect(replay.body.item).toMatchObject({ replayOf: run.id, version: 1, trigger: { variables: { who: 'Ada' } } });
    const done = await runWithStatus(api, automationId, replay.body.item.id, 'completed');
    expect(await allTasks(server, projectId)).toHaveLength(1);
    const made = run.steps.find((s: { id: string }) => s.id === 'make');
    expect(done.steps.find((s: { id: string }) => s.id === 'make').output).toEqual(made.output);
    expect(JSON.parse(rx.received[rx.received.length - 1]!.body)).toEqual({ task: made.output.id });
  });

  test('from the start: every step runs again; only failed or cancelled runs replay; Owners only', async () => {
    healthy = false;
    const projectId = await newProject(server, 'Replay from start');
    const { automationId, run } = await failingRun(projectId);
    healthy = true;
    const replay = (await api.post(`/api/v1/automations/${automationId}/runs/${run.id}/replay`, { from: 'start' })).body.item;
    await runWithStatus(api, automationId, replay.id, 'completed');
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['Made for Ada', 'Made for Ada']);

    const again = await api.post(`/api/v1/automations/${automationId}/runs/${replay.id}/replay`);
    expect(again.status).toBe(409);
    const viewer = client(server, addUser(server, 'rita', { workspaceId: server.workspaceId, role: 'Viewer' }));
    expect((await viewer.post(`/api/v1/automations/${automationId}/runs/${run.id}/replay`)).status).toBe(403);
    expect((await api.post(`/api/v1/automations/${automationId}/runs/${run.id}/replay`, { from: 'middle' })).status).toBe(400);
  });

  test('the current version can be replayed instead of the original', async () => {
    healthy = false;
    const projectId = await newProject(server, 'Replay current');
    const { automationId, run } = await failingRun(projectId);
    const fixed = await api.put(`/api/v1/automations/${automationId}`, {
      name: 'Make then call (fixed)',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'make', type: 'task.create', projectId, text: 'Made for {{ trigger.who }}' },
        { id: 'call', type: 'set', values: { skipped: 'the call' } },
      ],
    });
    expect(fixed.body.item.version).toBe(2);
    const replay = (
      await api.post(`/api/v1/automations/${automationId}/runs/${run.id}/replay`, { from: 'failed-step', version: 'current' })
    ).body.item;
    expect(replay.version).toBe(2);
    const done = await runWithStatus(api, automationId, replay.id, 'completed');
    expect(done.steps.map((s: { id: string; type: string }) => [s.id, s.type])).toEqual([
      ['make', 'task.create'],
      ['call', 'set'],
    ]);
    expect(await allTasks(server, projectId)).toHaveLength(1);
  });

  test('bulk replay: the failed runs of a window, oldest first', async () => {
    healthy = false;
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Call only',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'call',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/bulk`,
          body: { type: 'json', value: { n: '{{ trigger.n }}' } },
        },
      ],
    });
    const failed: string[] = [];
    for (const n of [1, 2, 3]) {
      const run = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { n } })).body.item;
      await runWithStatus(api, a.id, run.id, 'failed');
      failed.push(run.id);
    }
    healthy = true;
    const bulk = await api.post(`/api/v1/automations/${a.id}/runs/replay`, { status: 'failed', limit: 2 });
    expect(bulk.status).toBe(200);
    // The newest two failed runs, replayed oldest first.
    expect(bulk.body.items.map((r: { replayOf: string }) => r.replayOf)).toEqual([failed[1], failed[2]]);
    for (const r of bulk.body.items) await runWithStatus(api, a.id, r.id, 'completed');
    expect((await api.post(`/api/v1/automations/${a.id}/runs/replay`, { createdFrom: 'soon' })).status).toBe(400);
  });
});
