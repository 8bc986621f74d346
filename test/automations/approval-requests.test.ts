import { addUser, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runsOf, runWithStatus, waitFor } from './helpers';

/**
 * Approvals reach people: a run waiting on an approval raises `approval.requested` (automation
 * trigger and signed webhook) with a decision link that a signed-in approver uses once.
 */
describe('approval requests and decision links', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let dora: ReturnType<typeof client>;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    dora = client(server, addUser(server, 'dora', { workspaceId: server.workspaceId, role: 'Viewer' }));
    hooks = await receiver();
    expect((await api.post('/api/v2/webhooks', { targetUrl: `${hooks.url}/approvals`, events: ['approval.requested'] })).status).toBe(200);
  });
  afterAll(async () => {
    await hooks?.close();
    await server?.close();
  });

  test('the request reaches a webhook and a notifier automation; the link decides once, for an approver only', async () => {
    const projectId = await newProject(server, 'Notes');
    const notifier = await createAutomation(api, server.workspaceId, {
      name: 'Notify approvers',
      trigger: { type: 'approval.requested' },
      actions: [{ id: 'tell', type: 'task.create', projectId, text: '{{ trigger.approvers | join: ", " }}: {{ trigger.message }}' }],
    });
    const needsYes = await createAutomation(api, server.workspaceId, {
      name: 'Pay invoice',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', approvers: ['@dora'], message: 'Pay {{ trigger.amount }} EUR?' }],
    });
    const run = (await api.post(`/api/v1/automations/${needsYes.id}/test`, { payload: { amount: 120 } })).body.item;
    await runWithStatus(api, needsYes.id, run.id, 'waiting');

    const [delivery] = await waitFor(
      () => hooks.received.filter((r) => r.url === '/approvals').length === 1 && hooks.received,
      'the signed request',
    );
    expect(delivery!.headers['x-service-event']).toBe('approval.requested');
    const { payload } = JSON.parse(delivery!.body);
    expect(payload).toMatchObject({
      automationId: needsYes.id,
      automationName: 'Pay invoice',
      runId: run.id,
      stepId: 'ok',
      message: 'Pay 120 EUR?',
      approvers: ['dora'],
      test: true,
    });
    expect(payload.decisionLink).toMatch(new RegExp(`^${server.url}/decide\\?token=`));
    const token = new URL(payload.decisionLink).searchParams.get('token')!;
    await waitFor(async () => (await allTasks(server, projectId)).some((t) => t.text === 'dora: Pay 120 EUR?'), 'the notifier task');
    // The notifier's own runs never ask it to notify about itself.
    expect(await runsOf(api, notifier.id)).toHaveLength(1);

    const seen = await dora.post('/api/v1/approvals/inspect', { token });
    expect(seen.status).toBe(200);
    expect(seen.body.item).toMatchObject({
      automationName: 'Pay invoice',
      runId: run.id,
      message: 'Pay 120 EUR?',
      approvers: ['dora'],
      pending: true,
    });
    // The Owner may open it but is not the named approver.
    expect((await api.post('/api/v1/approvals/decide', { token, decision: 'approve' })).status).toBe(403);
    const decided = await dora.post('/api/v1/approvals/decide', { token, decision: 'approve', comment: 'ok by me' });
    expect(decided.status).toBe(200);
    expect(decided.body.item.status).toBe('completed');
    const again = await dora.post('/api/v1/approvals/decide', { token, decision: 'reject' });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual({ field: 'token', reason: 'link_used' });
    // Decided once: one request raised, not another when the run moved on.
    expect(hooks.received.filter((r) => r.url === '/approvals')).toHaveLength(1);
  });

  test('bad links, strangers and signed-out callers are refused', async () => {
    const bogus = await dora.post('/api/v1/approvals/inspect', { token: 'not-a-token' });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.details).toEqual({ field: 'token', reason: 'invalid_link' });
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Ask',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval' }],
    });
    const before = hooks.received.length;
    const run = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    await runWithStatus(api, a.id, run.id, 'waiting');
    const [delivery] = await waitFor(() => hooks.received.length > before && hooks.received.slice(before), 'the request');
    const token = new URL(JSON.parse(delivery!.body).payload.decisionLink).searchParams.get('token')!;
    const stranger = client(server, addUser(server, 'stranger3'));
    expect((await stranger.post('/api/v1/approvals/inspect', { token })).status).toBe(404);
    expect((await client(server, null).post('/api/v1/approvals/inspect', { token })).status).toBe(401);
    // Without named approvers, Participants and above decide.
    expect((await dora.post('/api/v1/approvals/decide', { token, decision: 'approve' })).status).toBe(403);
    expect((await api.post('/api/v1/approvals/decide', { token, decision: 'reject' })).body.item.status).toBe('rejected');
  });
});
