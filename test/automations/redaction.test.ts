import { addUser, call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, settledRuns } from './helpers';
import { dbOf } from '../helpers/db';

/** One redaction rule for definitions, run journals and recorded inbound calls (docs "Automations", "Credentials"). */
describe('credentials are never shown to those who should not see them', () => {
  let server: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    rx = await receiver(() => ({ status: 200, body: { ok: true } }));
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  const definition = () => ({
    name: 'Calls a paid API',
    trigger: { type: 'webhook' },
    actions: [
      {
        id: 'call',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/charge?api_key=live_abc123&page=2`,
        headers: { Authorization: 'Bearer sk_live_123', 'X-Trace': 'trace-1', 'X-Api-Key': '{{ trigger.key }}' },
        query: { access_token: 'tok_999', lang: 'en' },
        body: { type: 'json', value: { client_secret: 'shh', nested: { password: 'p4ss' }, name: 'invoice' } },
      },
    ],
  });

  test('a Viewer or Participant sees [redacted] and the list of hidden paths; the Owner sees the definition as saved', async () => {
    const owner = client(server, server.token);
    const viewer = client(server, addUser(server, 'vic', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const participant = client(server, addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' }));
    const created = await createAutomation(owner, server.workspaceId, definition());
    expect(created.redacted).toBeUndefined();
    expect(created.actions[0].headers.Authorization).toBe('Bearer sk_live_123');

    for (const reader of [viewer, participant]) {
      for (const item of [
        (await reader.get(`/api/v1/automations/${created.id}`)).body.item,
        (await reader.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items[0],
      ]) {
        const call = item.actions[0];
        expect(call.headers).toEqual({ Authorization: '[redacted]', 'X-Trace': 'trace-1', 'X-Api-Key': '{{ trigger.key }}' });
        expect(call.query).toEqual({ access_token: '[redacted]', lang: 'en' });
        expect(call.body.value).toEqual({ client_secret: '[redacted]', nested: { password: '[redacted]' }, name: 'invoice' });
        expect(call.url).toContain('api_key=%5Bredacted%5D');
        expect(call.url).toContain('page=2');
        expect(item.redacted.sort()).toEqual(
          [
            'actions[0].headers.Authorization',
            'actions[0].query.access_token',
            'actions[0].url',
            'actions[0].body.value.client_secret',
            'actions[0].body.value.nested.password',
          ].sort(),
        );
        const text = JSON.stringify(item);
        for (const secret of ['sk_live_123', 'live_abc123', 'tok_999', 'shh', 'p4ss']) expect(text).not.toContain(secret);
      }
    }
    const again = (await owner.get(`/api/v1/automations/${created.id}`)).body.item;
    expect(again.actions[0]).toEqual({ ...definition().actions[0] });
  });

  test('the run journal shows the request with credential headers and query values redacted; the receiver got them', async () => {
    const owner = client(server, server.token);
    const created = await createAutomation(owner, server.workspaceId, { ...definition(), name: 'Journal' });
    await call(server.url, 'POST', new URL(created.webhook.url).pathname, { body: { key: 'k-from-trigger' } });
    const [run] = await settledRuns(owner, created.id);
    const input = run.steps[0].input;
    expect(input.headers).toMatchObject({ authorization: '[redacted]', 'x-api-key': '[redacted]', 'x-trace': 'trace-1' });
    expect(input.url).toContain('api_key=%5Bredacted%5D');
    expect(input.url).toContain('access_token=%5Bredacted%5D');
    expect(JSON.stringify(run)).not.toContain('sk_live_123');
    const got = rx.received.find((r) => r.url.startsWith('/charge'))!;
    expect(got.headers.authorization).toBe('Bearer sk_live_123');
    expect(got.headers['x-api-key']).toBe('k-from-trigger');
  });

  test("an inbound caller's credential headers are recorded by name only", async () => {
    const owner = client(server, server.token);
    const created = await createAutomation(owner, server.workspaceId, { name: 'Intake', trigger: { type: 'webhook' }, actions: [] });
    const res = await call(server.url, 'POST', new URL(created.webhook.url).pathname, {
      body: { a: 1 },
      headers: {
        'X-API-Key': 'caller-key-1',
        'X-Auth-Token': 'caller-token-2',
        'X-Webhook-Secret': 'caller-secret-3',
        'X-Request-Source': 'crm',
      },
    });
    expect(res.status).toBe(200);
    // The call's run records its headers at once, in the intake's transaction.
    const runs = (await owner.get(`/api/v1/automations/${created.id}/runs?requestId=${res.body.requestId}`)).body.items;
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger.headers).toMatchObject({
      'x-api-key': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-webhook-secret': '[redacted]',
      'x-request-source': 'crm',
    });
    const stored = await dbOf(server).value<string>('SELECT trigger_json FROM automation_runs WHERE id = ?', runs[0].id);
    expect(stored).not.toMatch(/caller-(key|token|secret)/);
  });
});
