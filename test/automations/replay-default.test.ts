import { client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runWithStatus } from './helpers';

/**
 * Where a replay starts when the caller does not say (issue 35, item 12; docs/automations.md,
 * "Replay"): from the failed step, as n8n's "retry from failed node", so the steps that succeeded
 * are not repeated (a task is not made twice); `from: "start"` stays an explicit choice.
 */
describe('replay defaults to the failed step', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let healthy = false;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver(() => (healthy ? { status: 200, body: { ok: true } } : { status: 400, body: { error: 'down' } }));
  });
  afterAll(async () => {
    await rx?.close();
    await server?.close();
  });

  /** An automation that makes a task, then calls the receiver (failing while it is down), and `n` failed runs of it. */
  async function failedRuns(name: string, n: number) {
    const projectId = await newProject(server, name);
    const a = await createAutomation(api, server.workspaceId, {
      name,
      trigger: { type: 'webhook' },
      actions: [
        { id: 'make', type: 'task.create', projectId, text: 'Order {{ trigger.n }}' },
        {
          id: 'call',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/notify`,
          body: { type: 'json', value: { task: '{{ steps.make.id }}' } },
        },
      ],
    });
    healthy = false;
    const runs: string[] = [];
    for (let i = 1; i <= n; i++) {
      const run = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { n: i } })).body.item;
      await runWithStatus(api, a.id, run.id, 'failed');
      runs.push(run.id);
    }
    expect(await allTasks(server, projectId)).toHaveLength(n);
    return { automationId: a.id as string, projectId, runs };
  }

  test('a bulk replay without `from` replays 3 failed runs from their failed step: no task is made again', async () => {
    const { automationId, projectId, runs } = await failedRuns('Bulk default', 3);
    healthy = true;
    const bulk = await api.post(`/api/v1/automations/${automationId}/runs/replay`, {});
    expect(bulk.status).toBe(200);
    expect(bulk.body.items.map((r: { replayOf: string }) => r.replayOf)).toEqual(runs);
    for (const r of bulk.body.items) await runWithStatus(api, automationId, r.id, 'completed');
    expect(await allTasks(server, projectId)).toHaveLength(3);
  });

  test('one run replayed without `from` starts from its failed step too; `from: "start"` runs every step again', async () => {
    const { automationId, projectId, runs } = await failedRuns('Single default', 2);
    healthy = true;
    const single = (await api.post(`/api/v1/automations/${automationId}/runs/${runs[0]}/replay`)).body.item;
    await runWithStatus(api, automationId, single.id, 'completed');
    expect(await allTasks(server, projectId)).toHaveLength(2);
    const again = await api.post(`/api/v1/automations/${automationId}/runs/replay`, { from: 'start' });
    expect(again.body.items.map((r: { replayOf: string }) => r.replayOf)).toEqual([runs[1]]);
    await runWithStatus(api, automationId, again.body.items[0].id, 'completed');
    expect((await allTasks(server, projectId)).map((t) => t.text)).toEqual(['Order 1', 'Order 2', 'Order 2']);
  });

  test('the published API says so: the replay bodies default to failed-step', async () => {
    const doc = (await api.get('/openapi.json')).body;
    const bodyOf = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    for (const path of ['/api/v1/automations/{automationId}/runs/{runId}/replay', '/api/v1/automations/{automationId}/runs/replay']) {
      expect(bodyOf(path).properties.from.default).toBe('failed-step');
    }
  });
});
