import { addUser, call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, runsOf, runWithStatus } from './helpers';

/**
 * Operating automations (docs "Automations"): replays never multiply, saves honour `If-Match`
 * and record their author and message, run lists refuse unknown filters, and run metrics.
 */
describe('operating automations', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver([{ status: 400, body: { error: 'still broken' } }]);
  });
  afterAll(async () => {
    await rx?.close();
    await server?.close();
  });

  const failing = {
    name: 'Always fails',
    trigger: { type: 'webhook' },
    actions: [{ id: 'call', type: 'http.request', method: 'GET', url: '' }],
  };

  async function failingAutomation(n: number) {
    const a = await createAutomation(api, server.workspaceId, { ...failing, actions: [{ ...failing.actions[0], url: `${rx.url}/fail` }] });
    const runs: string[] = [];
    for (let i = 0; i < n; i++) {
      const run = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { i } })).body.item;
      await runWithStatus(api, a.id, run.id, 'failed');
      runs.push(run.id);
    }
    return { automationId: a.id as string, runs };
  }

  const settle = async (automationId: string, items: { id: string }[]) => {
    for (const r of items) await runWithStatus(api, automationId, r.id, 'failed');
  };

  test('bulk replay replays a run at most once and replays only with includeReplays; a replayed run is 409', async () => {
    const { automationId, runs } = await failingAutomation(3);
    const first = await api.post(`/api/v1/automations/${automationId}/runs/replay`, {});
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { replayOf: string }) => r.replayOf)).toEqual(runs);
    await settle(automationId, first.body.items);

    // Again: the originals were replayed and the failed replays are replays: nothing to do.
    const again = await api.post(`/api/v1/automations/${automationId}/runs/replay`, {});
    expect(again.status).toBe(200);
    expect(again.body.items).toEqual([]);
    expect(await runsOf(api, automationId)).toHaveLength(6);

    // Asked for: the failed replays are replayed, once.
    const replays = first.body.items.map((r: { id: string }) => r.id);
    const deeper = await api.post(`/api/v1/automations/${automationId}/runs/replay`, { includeReplays: true });
    expect(deeper.body.items.map((r: { replayOf: string }) => r.replayOf)).toEqual(replays);
    await settle(automationId, deeper.body.items);
    expect((await api.post(`/api/v1/automations/${automationId}/runs/replay`, {})).body.items).toEqual([]);
    expect(await runsOf(api, automationId)).toHaveLength(9);

    // One run: refused once replayed, naming its replay; the original shows the link.
    const single = await api.post(`/api/v1/automations/${automationId}/runs/${runs[0]}/replay`);
    expect(single.status).toBe(409);
    expect(single.body).toMatchObject({ code: 'CONFLICT', error: { details: { field: 'runId', reason: 'already_replayed' } } });
    expect(single.body.message).toContain(replays[0]);
    expect((await api.get(`/api/v1/automations/${automationId}/runs/${runs[0]}`)).body.item).toMatchObject({ replayedBy: replays[0] });
  });

  test('GET gives the version as ETag; PUT with a stale If-Match is 412 and changes nothing', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Tagged',
      trigger: { type: 'webhook' },
      actions: [{ id: 's', type: 'set', values: { a: 1 } }],
    });
    const read = await api.get(`/api/v1/automations/${a.id}`);
    expect(read.headers.etag).toBe('"1"');
    const put = (name: string, ifMatch?: string) =>
      call(server.url, 'PUT', `/api/v1/automations/${a.id}`, {
        token: server.token,
        body: { name, trigger: { type: 'webhook' }, actions: [{ id: 's', type: 'set', values: { a: 1 } }] },
        headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
      });
    const saved = await put('Tagged 2', '"1"');
    expect(saved.status).toBe(200);
    expect(saved.headers.etag).toBe('"2"');
    const stale = await put('Tagged lost update', '"1"');
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({
      ok: false,
      code: 'PRECONDITION_FAILED',
      statusMessage: 'Precondition Failed',
      error: { code: 'PRECONDITION_FAILED' },
    });
    expect((await put('Tagged weak', 'W/"2"')).status).toBe(412);
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item).toMatchObject({ name: 'Tagged 2', version: 2 });
    expect((await put('Tagged any', '*')).status).toBe(200);
    expect((await put('Tagged unconditional')).status).toBe(200);
  });

  test('each version names its author and message', async () => {
    const def = { trigger: { type: 'webhook' }, actions: [{ id: 's', type: 'set', values: { a: 1 } }] };
    const a = await createAutomation(api, server.workspaceId, { name: 'Noted', ...def, message: 'first draft' });
    const owner = (await api.get('/api/v1/me')).body.item?.handle ?? (await api.get('/api/v1/me')).body.handle;
    expect((await api.put(`/api/v1/automations/${a.id}`, { name: 'Noted 2', ...def, message: 'fix the name' })).status).toBe(200);
    expect((await api.put(`/api/v1/automations/${a.id}`, { name: 'Noted 3', ...def })).status).toBe(200);
    expect((await api.post(`/api/v1/automations/${a.id}/versions/1/restore`, { message: 'back to the draft' })).status).toBe(200);
    const versions = (await api.get(`/api/v1/automations/${a.id}/versions`)).body.items;
    expect(versions.map((v: { version: number; message?: string }) => [v.version, v.message])).toEqual([
      [4, 'back to the draft'],
      [3, undefined],
      [2, 'fix the name'],
      [1, 'first draft'],
    ]);
    for (const v of versions) expect(v.author).toEqual({ handle: owner });
    const one = (await api.get(`/api/v1/automations/${a.id}/versions/2`)).body.item;
    expect(one).toMatchObject({ version: 2, name: 'Noted 2', message: 'fix the name', author: { handle: owner } });
    // The message is not part of the definition.
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item.message).toBeUndefined();
    expect((await api.put(`/api/v1/automations/${a.id}`, { name: 'Long', ...def, message: 'x'.repeat(501) })).status).toBe(400);
  });

  test('run lists refuse unknown query parameters, naming them', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Listed',
      trigger: { type: 'webhook' },
      actions: [{ id: 's', type: 'set', values: { a: 1 } }],
    });
    for (const path of [`/api/v1/automations/${a.id}/runs?q=x`, `/api/v1/workspaces/${server.workspaceId}/runs?triggerType=webhook`]) {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'unknown_field' } });
      expect(res.body.error.details.field).toMatch(/^(q|triggerType)$/);
    }
    expect((await api.get(`/api/v1/automations/${a.id}/runs?status=failed&limit=5`)).status).toBe(200);
  });

  test('metrics: counts by status, success rate and p50/p95 durations, since a time; test runs left out', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Measured',
      trigger: { type: 'webhook' },
      actions: [{ id: 's', type: 'set', values: { a: 1 } }],
    });
    const svc = server.built.services;
    const t0 = Date.parse('2024-03-01T00:00:00.000Z');
    // 8 completed runs of 100..800 ms, 2 failed of 900 and 1000 ms, one waiting, one test run, one old run.
    const seeds: [string, number, number | null, number][] = [];
    for (let i = 1; i <= 8; i++) seeds.push(['completed', i * 100, 0, t0]);
    seeds.push(
      ['failed', 900, 0, t0],
      ['failed', 1000, 0, t0],
      ['waiting', -1, 0, t0],
      ['completed', 5, 1, t0],
      ['failed', 7, 0, t0 - 86_400_000],
    );
    await svc.store.run(
      svc.store.sql.transaction(function* (tx) {
        let n = 0;
        for (const [status, ms, test, at] of seeds) {
          yield* tx.run(
            `INSERT INTO automation_runs (id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, created_at, started_at, finished_at)
             SELECT ?, id, version, workspace_id, owner_id, ?, '{"type":"webhook","variables":{}}', 1, ?, ?, ?, ? FROM automations WHERE id = ?`,
            [`m${a.id}${n++}`, status, test, at, at, ms < 0 ? null : at + ms, a.id],
          );
        }
      }),
    );
    const since = await api.get(`/api/v1/automations/${a.id}/metrics?since=2024-03-01T00:00:00Z`);
    expect(since.status).toBe(200);
    expect(since.body.item).toEqual({
      automationId: a.id,
      since: '2024-03-01T00:00:00.000Z',
      total: 11,
      counts: { queued: 0, running: 0, waiting: 1, completed: 8, failed: 2, rejected: 0, cancelled: 0, skipped: 0 },
      successRate: 0.8,
      durationMs: { p50: 500, p95: 1000 },
    });
    const all = (await api.get(`/api/v1/automations/${a.id}/metrics`)).body.item;
    expect(all).toMatchObject({ total: 12, counts: { failed: 3 }, successRate: 8 / 11, durationMs: { p50: 500, p95: 1000 } });
    expect(all.since).toBeUndefined();

    const empty = await createAutomation(api, server.workspaceId, {
      name: 'Idle',
      trigger: { type: 'webhook' },
      actions: [{ id: 's', type: 'set', values: { a: 1 } }],
    });
    expect((await api.get(`/api/v1/automations/${empty.id}/metrics`)).body.item).toMatchObject({
      total: 0,
      successRate: null,
      durationMs: { p50: null, p95: null },
    });
    expect((await api.get(`/api/v1/automations/${a.id}/metrics?since=yesterday`)).status).toBe(400);
    expect((await api.get(`/api/v1/automations/${a.id}/metrics?window=7d`)).status).toBe(400);
    const viewer = client(server, addUser(server, 'metra', { workspaceId: server.workspaceId, role: 'Viewer' }));
    expect((await viewer.get(`/api/v1/automations/${a.id}/metrics`)).status).toBe(200);
    const stranger = client(server, addUser(server, 'metro'));
    expect((await stranger.get(`/api/v1/automations/${a.id}/metrics`)).status).toBe(404);
  });
});
