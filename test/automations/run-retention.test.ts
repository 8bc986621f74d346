import { client, startServer, type TestServer } from '../helpers/server';
import { TestClock } from '../engine/helpers';
import { pruneExpiredRuns, RUN_PRUNE_BATCH } from '../../server/src/modules/runs/run-retention';
import { AUTOMATION_ENV, createAutomation, receiver, runWithStatus } from './helpers';

const DAY = 86_400_000;

/**
 * Run retention (docs "Automations", "Run retention"): finished runs older than their window go
 * with their steps; newer ones and waiting ones stay; failed ones are kept for the longer failed
 * window; an automation's `retention` replaces the server's. Time moves on the injected clock.
 */
describe('run retention', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const clock = new TestClock(Date.now());
  beforeAll(async () => {
    server = await startServer({
      env: { ...AUTOMATION_ENV, TASKSPACE_RUN_RETENTION_DAYS: '30', TASKSPACE_RUN_RETENTION_FAILED_DAYS: '90' },
      clock,
    });
    api = client(server, server.token);
    rx = await receiver([{ status: 400, body: { error: 'bad' } }]);
  });
  afterAll(async () => {
    await rx?.close();
    await server?.close();
  });

  const prune = () => server.built.services.store.run(pruneExpiredRuns(server.built.services));
  const stepsOf = async (runId: string) =>
    (
      await server.built.services.store.run(
        server.built.services.store.sql.all('SELECT step_id FROM automation_steps WHERE run_id = ?', [runId]),
      )
    ).length;
  const status = async (automationId: string, runId: string) => (await api.get(`/api/v1/automations/${automationId}/runs/${runId}`)).status;

  async function testRun(definition: Record<string, unknown>, expected: string) {
    const a = await createAutomation(api, server.workspaceId, { trigger: { type: 'webhook' }, ...definition });
    const run = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: {} })).body.item;
    await runWithStatus(api, a.id, run.id, expected);
    return { automationId: a.id, runId: run.id as string };
  }

  test('finished runs past the window go with their steps; newer, waiting and failed (longer window) runs stay', async () => {
    const done = await testRun({ name: 'Done', actions: [{ id: 'set', type: 'set', values: { a: 1 } }] }, 'completed');
    const failed = await testRun(
      { name: 'Fails', actions: [{ id: 'call', type: 'http.request', method: 'GET', url: `${rx.url}/x` }] },
      'failed',
    );
    const waiting = await testRun({ name: 'Waits', actions: [{ id: 'ok', type: 'approval' }] }, 'waiting');
    const short = await testRun(
      { name: 'Short', retention: { days: 2, failedDays: 5 }, actions: [{ id: 'set', type: 'set', values: { a: 1 } }] },
      'completed',
    );
    expect(await stepsOf(done.runId)).toBe(1);
    // The override is part of the definition.
    expect((await api.get(`/api/v1/automations/${short.automationId}`)).body.item.retention).toEqual({ days: 2, failedDays: 5 });

    expect(await prune()).toBe(0);
    clock.advance(3 * DAY);
    // Only the automation with its own 2-day window loses its run.
    expect(await prune()).toBe(1);
    expect(await status(short.automationId, short.runId)).toBe(404);
    expect(await status(done.automationId, done.runId)).toBe(200);

    clock.advance(28 * DAY);
    expect(await prune()).toBe(1);
    expect(await status(done.automationId, done.runId)).toBe(404);
    expect(await stepsOf(done.runId)).toBe(0);
    expect(await status(failed.automationId, failed.runId)).toBe(200);
    expect(await status(waiting.automationId, waiting.runId)).toBe(200);

    clock.advance(60 * DAY);
    expect(await prune()).toBe(1);
    expect(await status(failed.automationId, failed.runId)).toBe(404);
    // A waiting run is never deleted, whatever its age.
    clock.advance(365 * DAY);
    expect(await prune()).toBe(0);
    expect((await api.get(`/api/v1/automations/${waiting.automationId}/runs/${waiting.runId}`)).body.item.status).toBe('waiting');
  });

  test('deletes in batches; an invalid retention is refused', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Many',
      trigger: { type: 'webhook' },
      retention: { days: 1 },
      actions: [{ id: 'set', type: 'set', values: { a: 1 } }],
    });
    const svc = server.built.services;
    const at = clock.now();
    // Seed finished runs directly: a batch and a half.
    await svc.store.run(
      svc.store.sql.transaction(function* (tx) {
        for (let i = 0; i < RUN_PRUNE_BATCH + 20; i++) {
          yield* tx.run(
            `INSERT INTO automation_runs (id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, created_at, started_at, finished_at)
             SELECT ?, id, version, workspace_id, owner_id, 'completed', '{"type":"webhook","variables":{}}', 1, 0, ?, ?, ? FROM automations WHERE id = ?`,
            [`seed${i}`, at, at, at, a.id],
          );
        }
      }),
    );
    clock.advance(2 * DAY);
    expect(await prune()).toBe(RUN_PRUNE_BATCH);
    expect(await prune()).toBe(20);
    expect(await prune()).toBe(0);

    for (const retention of [{ days: 0 }, {}, { days: 1, keep: true }, { failedDays: 'long' }]) {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        retention,
        actions: [{ id: 'set', type: 'set', values: { a: 1 } }],
      });
      expect(res.body.error.details.field).toMatch(/^retention/);
      expect(res.status).toBe(400);
    }
  });
});
