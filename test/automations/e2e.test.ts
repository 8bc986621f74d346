import { addUser, call, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runWithStatus, settledRuns } from './helpers';

/**
 * The end-to-end automation: inbound webhook → create a task from a body field → HTTP
 * Request to a loopback receiver with a templated JSON body → branch on the response →
 * approval → approve over the API → task completed.
 */
describe('end to end: webhook → task → HTTP → branch → approval → complete', () => {
  let server: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    rx = await receiver([{ status: 200, body: { accepted: true, ticket: 'T-100' } }]);
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  test('the receiver sees the templated body, the run waits for approval, approving completes the task', async () => {
    const api = client(server, server.token);
    const ann = client(server, addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' }));
    const viewer = client(server, addUser(server, 'vic', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const projectId = await newProject(server, 'Invoices');
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Invoice intake',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'create', type: 'task.create', projectId, text: 'Pay {{ trigger.invoice.number }} ({{ trigger.amount }} EUR)' },
        {
          id: 'notify',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/tickets`,
          headers: { 'X-Source': 'taskspace' },
          body: {
            type: 'json',
            value: {
              taskId: '{{ steps.create.id }}',
              title: '{{ steps.create.text }}',
              amount: '{{ trigger.amount }}',
              tags: '{{ trigger.tags }}',
            },
          },
        },
        {
          id: 'route',
          type: 'branch',
          conditions: {
            anyOf: [
              {
                allOf: [
                  { left: '{{ steps.notify.status }}', operator: 'equals', right: 200 },
                  { left: '{{ steps.notify.body.accepted }}', operator: 'equals', right: 'true' },
                ],
              },
            ],
          },
          then: [
            {
              id: 'ok',
              type: 'approval',
              message: 'Pay {{ trigger.amount }} for ticket {{ steps.notify.body.ticket }}?',
              then: [{ id: 'done', type: 'task.complete', projectId, taskId: '{{ steps.create.id }}' }],
            },
          ],
          else: [{ id: 'flag', type: 'task.update', projectId, taskId: '{{ steps.create.id }}', text: 'Refused by the receiver' }],
        },
      ],
    });
    const path = new URL(automation.webhook.url).pathname;
    const intake = await call(server.url, 'POST', path, { body: { invoice: { number: 'INV-7' }, amount: 1250, tags: ['q1', 'urgent'] } });
    expect(intake.status).toBe(200);
    expect(intake.body).toEqual({ ok: true, requestId: expect.any(String) });

    const [waiting] = await settledRuns(api, automation.id);
    expect(waiting).toMatchObject({ status: 'waiting', waitingFor: { kind: 'approval', stepId: 'ok' } });
    expect(waiting.trigger.eventId).toBe(intake.body.requestId);
    const created = waiting.steps.find((s: any) => s.id === 'create').output;

    // The receiver got exactly one request with the rendered JSON body (types kept).
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.url).toBe('/tickets');
    expect(rx.received[0]!.headers['x-source']).toBe('taskspace');
    expect(JSON.parse(rx.received[0]!.body)).toEqual({
      taskId: created.id,
      title: 'Pay INV-7 (1250 EUR)',
      amount: 1250,
      tags: ['q1', 'urgent'],
    });
    expect(waiting.steps.find((s: any) => s.id === 'route').output).toEqual({ result: true, matchedGroup: 0 });
    expect(waiting.steps.find((s: any) => s.id === 'ok')).toMatchObject({
      status: 'waiting',
      input: { message: 'Pay 1250 for ticket T-100?' },
    });
    expect(await allTasks(server, projectId)).toEqual([{ id: created.id, text: 'Pay INV-7 (1250 EUR)', completed: false }]);

    // A Viewer may read the run but not decide; a Participant approves over the API.
    expect((await viewer.get(`/api/v1/automations/${automation.id}/runs/${waiting.id}`)).status).toBe(200);
    expect((await viewer.post(`/api/v1/automations/${automation.id}/runs/${waiting.id}/approve`, {})).status).toBe(403);
    const approved = await ann.post(`/api/v1/automations/${automation.id}/runs/${waiting.id}/approve`, { comment: 'paid' });
    expect(approved.status).toBe(200);
    const done = await runWithStatus(api, automation.id, waiting.id, 'completed');
    expect(done.steps.find((s: any) => s.id === 'ok').output).toMatchObject({
      decision: 'approved',
      decidedBy: 'ann',
      comment: 'paid',
      timedOut: false,
    });
    expect(done.steps.map((s: any) => s.id)).toEqual(['create', 'notify', 'route', 'ok', 'done']);
    for (const s of done.steps) expect(typeof s.durationMs).toBe('number');
    expect(await allTasks(server, projectId)).toEqual([{ id: created.id, text: 'Pay INV-7 (1250 EUR)', completed: true }]);
    expect((await ann.post(`/api/v1/automations/${automation.id}/runs/${waiting.id}/approve`, {})).status).toBe(409);
    expect(rx.received).toHaveLength(1);
  });
});
