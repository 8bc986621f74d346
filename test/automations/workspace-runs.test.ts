import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, runWithStatus } from './helpers';

/** Runs and pending approvals across the automations of a workspace, over real HTTP. */
describe('runs and approvals across automations', () => {
  let now = Date.parse('2026-09-01T08:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let dora: ReturnType<typeof client>;
  const ids: Record<string, string> = {};
  let approvalAutomation: string;
  let plainAutomation: string;

  beforeAll(async () => {
    server = await startServer({ clock, env: AUTOMATION_ENV });
    api = client(server, server.token);
    dora = client(server, addUser(server, 'dora', { workspaceId: server.workspaceId, role: 'Viewer' }));
    approvalAutomation = (
      await createAutomation(api, server.workspaceId, {
        name: 'Expense approval',
        trigger: { type: 'webhook' },
        actions: [{ id: 'ok', type: 'approval', approvers: ['@dora'], message: 'Pay {{ trigger.amount | default: "?" }}?' }],
      })
    ).id;
    plainAutomation = (
      await createAutomation(api, server.workspaceId, {
        name: 'Plain',
        trigger: { type: 'webhook' },
        actions: [{ id: 'calc', type: 'set', values: { x: '1' } }],
      })
    ).id;
    const delayed = (
      await createAutomation(api, server.workspaceId, {
        name: 'Later',
        trigger: { type: 'webhook' },
        actions: [{ id: 'wait', type: 'delay', minutes: 60 }],
      })
    ).id;
    // One run a minute: approval, plain, approval, delay.
    const start = async (name: string, automationId: string, payload: object, status: string) => {
      const run = (await api.post(`/api/v1/automations/${automationId}/test`, { payload })).body.item;
      await runWithStatus(api, automationId, run.id, status);
      ids[name] = run.id;
      now += 60_000;
    };
    await start('first', approvalAutomation, { amount: 10 }, 'waiting');
    await start('plain', plainAutomation, {}, 'completed');
    await start('second', approvalAutomation, { amount: 20 }, 'waiting');
    await start('delayed', delayed, {}, 'waiting');
  });
  afterAll(() => server?.close());

  const ws = () => `/api/v1/workspaces/${server.workspaceId}`;
  const runIds = async (query: string, who = api) => {
    const res = await who.get(`${ws()}/runs${query}`);
    expect(res.status).toBe(200);
    return res.body.items.map((r: { id: string }) => r.id);
  };

  test('every run of the workspace, newest first, filtered by status, automation and time, paged', async () => {
    expect(await runIds('')).toEqual([ids.delayed, ids.second, ids.plain, ids.first]);
    expect(await runIds('?status=completed')).toEqual([ids.plain]);
    expect(await runIds(`?automationId=${approvalAutomation}`)).toEqual([ids.second, ids.first]);
    expect(await runIds('?createdFrom=2026-09-01T08:01:00Z&createdBefore=2026-09-01T08:03:00Z')).toEqual([ids.second, ids.plain]);
    expect(await runIds(`?limit=2`)).toEqual([ids.delayed, ids.second]);
    expect(await runIds(`?limit=2&before=${ids.second}`)).toEqual([ids.plain, ids.first]);
    // Any member reads them; the items are the same as one automation's run list.
    expect(await runIds('', dora)).toEqual([ids.delayed, ids.second, ids.plain, ids.first]);
    const [item] = (await api.get(`${ws()}/runs?limit=1`)).body.items;
    expect(item).toMatchObject({ id: ids.delayed, status: 'waiting', createdAt: '2026-09-01T08:03:00.000Z' });
  });

  test('bad filters are 400 and strangers get 404', async () => {
    const bad = await api.get(`${ws()}/runs?createdFrom=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('createdFrom');
    expect((await api.get(`${ws()}/runs?status=sleeping`)).status).toBe(400);
    const stranger = client(server, addUser(server, 'stranger'));
    expect((await stranger.get(`${ws()}/runs`)).status).toBe(404);
    expect((await stranger.get(`${ws()}/approvals`)).status).toBe(404);
  });

  test('pending approvals across automations, with who may decide; decided ones leave the list', async () => {
    const mine = await dora.get(`${ws()}/approvals`);
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([
      {
        runId: ids.second,
        automationId: approvalAutomation,
        automationName: 'Expense approval',
        stepId: 'ok',
        message: 'Pay 20?',
        approvers: ['dora'],
        requestedAt: '2026-09-01T08:02:00.000Z',
        youMayDecide: true,
      },
      expect.objectContaining({ runId: ids.first, message: 'Pay 10?', youMayDecide: true }),
    ]);
    // The Owner sees them too, but is not a named approver.
    expect((await api.get(`${ws()}/approvals`)).body.items.map((a: { youMayDecide: boolean }) => a.youMayDecide)).toEqual([false, false]);
    expect((await api.get(`${ws()}/approvals?approver=@dora&limit=1`)).body.items.map((a: { runId: string }) => a.runId)).toEqual([
      ids.second,
    ]);
    expect(
      (await api.get(`${ws()}/approvals?approver=dora&before=${ids.second}`)).body.items.map((a: { runId: string }) => a.runId),
    ).toEqual([ids.first]);
    expect((await api.get(`${ws()}/approvals?approver=someone`)).body.items).toEqual([]);
    expect((await api.get(`${ws()}/approvals?automationId=${plainAutomation}`)).body.items).toEqual([]);

    expect((await dora.post(`/api/v1/automations/${approvalAutomation}/runs/${ids.first}/approve`)).body.item.status).toBe('completed');
    expect((await dora.get(`${ws()}/approvals`)).body.items.map((a: { runId: string }) => a.runId)).toEqual([ids.second]);
  });
});
