import { request } from 'undici';
import { addUser, client, spawnServer, tempDataDir, type ChildServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, automationServer, createAutomation, receiver, runWithStatus } from './helpers';

/** Waiting for an event mid-run (docs/automations.md "Waiting for an event"): the API, the resume URL, timeouts, and kill -9. */
describe('wait.event', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver();
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  /** Posts `body` (raw) to a URL; resolves status and parsed body. */
  async function post(url: string, body = '') {
    const res = await request(url, { method: 'POST', headers: body ? { 'content-type': 'application/json' } : {}, body });
    return { status: res.statusCode, body: (await res.body.json()) as any };
  }

  test('an external system resumes the run through its resume URL, with a payload', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Waits for the ERP',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'ask',
          type: 'http.request',
          method: 'POST',
          url: `${rx.url}/erp`,
          body: { type: 'json', value: { callback: '{{ run.resumeUrl }}' } },
        },
        { id: 'answer', type: 'wait.event', event: 'erp.done', timeoutMinutes: 60 },
        { id: 'after', type: 'set', values: { by: '{{ steps.answer.payload.by }}', event: '{{ steps.answer.event }}' } },
      ],
    });
    const started = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(started.status).toBe('waiting');
    const callback = JSON.parse(rx.received.find((r) => r.url === '/erp')!.body).callback as string;
    expect(callback).toMatch(new RegExp(`^${server.url}/resume/${started.id}/[A-Za-z0-9_-]{43}$`));

    // A wrong signature is a 404 and changes nothing.
    expect(
      (
        await post(
          callback.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
          '{}',
        )
      ).status,
    ).toBe(404);
    const sent = await post(callback, JSON.stringify({ by: 'erp', ok: true }));
    expect(sent).toEqual({ status: 200, body: { ok: true, item: { runId: started.id, status: expect.any(String) } } });
    const done = await runWithStatus(api, automation.id, started.id, 'completed');
    expect(done.steps.find((s: any) => s.id === 'answer').output).toMatchObject({
      event: 'erp.done',
      payload: { by: 'erp', ok: true },
      sentBy: 'resumeUrl',
    });
    expect(done.steps.find((s: any) => s.id === 'after').output).toEqual({ by: 'erp', event: 'erp.done' });
    // Once used, the URL finds the run no longer waiting.
    expect((await post(callback, '{}')).status).toBe(409);
  });

  test('members send named events over the API; the wrong event, a Viewer, a bad body and an unknown run are refused', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Waits for a signal',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'signal', type: 'wait.event', event: 'go' },
        { id: 'after', type: 'set', values: { got: '{{ steps.signal.payload }}' } },
      ],
    });
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(run.status).toBe('waiting');
    const wrong = await api.post(`/api/v1/runs/${run.id}/events/stop`, {});
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.message).toMatch(/waits for the event 'go'/);
    const viewer = client(server, addUser(server, 'vince', { workspaceId: server.workspaceId, role: 'Viewer' }));
    expect((await viewer.post(`/api/v1/runs/${run.id}/events/go`, {})).status).toBe(403);
    const bad = await request(`${server.url}/api/v1/runs/${run.id}/events/go`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(bad.statusCode).toBe(400);
    await bad.body.dump();
    expect((await api.post('/api/v1/runs/no-such-run/events/go', {})).status).toBe(404);
    // A Participant may send it; an empty body is the payload {}.
    const participantToken = addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' });
    const empty = await request(`${server.url}/api/v1/runs/${run.id}/events/go`, {
      method: 'POST',
      headers: { authorization: `Bearer ${participantToken}` },
    });
    await empty.body.dump();
    expect(empty.statusCode).toBe(200);
    const done = await runWithStatus(api, automation.id, run.id, 'completed');
    expect(done.steps[0].output).toMatchObject({ event: 'go', payload: {}, sentBy: 'pat' });
  });

  test('past timeoutMinutes the step fails with EVENT_TIMEOUT, which onError may handle', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Gives up',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'reply', type: 'wait.event', event: 'reply', timeoutMinutes: 0.01, onError: 'continue' },
        { id: 'after', type: 'set', values: { code: '{{ steps.reply.error.code }}' } },
      ],
    });
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    const done = await runWithStatus(api, automation.id, run.id, 'completed');
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['reply', 'failed'],
      ['after', 'succeeded'],
    ]);
    expect(done.steps[1].output).toEqual({ code: 'EVENT_TIMEOUT' });
    const invalid = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'webhook' },
      actions: [{ id: 'w', type: 'wait.event', event: 'has space' }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.field).toBe('actions[0].event');
  });
});

describe('wait.event across kill -9', () => {
  let first: ChildServer | undefined;
  let second: ChildServer | undefined;
  afterAll(async () => {
    await first?.stop('SIGKILL');
    await second?.stop();
  });

  test('a run waiting for an event survives a kill -9 and continues when the event comes', async () => {
    const dataDir = tempDataDir();
    first = await spawnServer(dataDir, AUTOMATION_ENV);
    let api = client(first, 'tsk_test_owner_token');
    const workspaceId = (await api.get('/api/v1/workspaces')).body.items[0].id;
    const made = await api.post('/api/v1/automations', {
      workspaceId,
      name: 'Durable wait',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'signal', type: 'wait.event', event: 'ship' },
        { id: 'after', type: 'set', values: { carrier: '{{ steps.signal.payload.carrier }}' } },
      ],
    });
    const automation = made.body.item;
    const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(run.status).toBe('waiting');
    await first.stop('SIGKILL');
    first = undefined;
    second = await spawnServer(dataDir, AUTOMATION_ENV);
    api = client(second, 'tsk_test_owner_token');
    expect((await api.post(`/api/v1/runs/${run.id}/events/ship`, { carrier: 'DHL' })).status).toBe(200);
    const done = await runWithStatus(api, automation.id, run.id, 'completed');
    expect(done.steps.map((s: any) => [s.id, s.status, s.attempts])).toEqual([
      ['signal', 'succeeded', 1],
      ['after', 'succeeded', 1],
    ]);
    expect(done.steps[1].output).toEqual({ carrier: 'DHL' });
  });
});
