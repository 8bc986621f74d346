import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runsOf, settledRuns, waitFor } from './helpers';
import { newProject } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/**
 * Respond to webhook (docs "Automations", "Respond to webhook"): an inbound call to an automation
 * with a `respond` step gets that step's status, headers and body; without a response in time, or
 * when the run ends without one, it gets `{ok, requestId}`; a retry with the same Idempotency-Key
 * gets the same response from the same run.
 */
describe('respond to webhook', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', new URL(url).pathname, { body, headers });

  beforeAll(async () => {
    server = await automationServer({ TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS: '1500' });
    api = client(server, server.token);
    projectId = await newProject(server, 'Orders');
  });
  afterAll(() => server.close());

  test('the caller gets the status, headers and typed JSON body of the respond step, and later steps still run', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Order intake',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'calc', type: 'set', values: { total: '{{ trigger.amount | times: 2 }}' } },
        { id: 'make', type: 'task.create', projectId, text: 'Order {{ trigger.id }}' },
        {
          id: 'answer',
          type: 'respond',
          status: 201,
          headers: { 'X-Order': '{{ trigger.id }}' },
          body: { orderId: '{{ trigger.id }}', total: '{{ steps.calc.total }}', taskId: '{{ steps.make.id }}', run: '{{ run.id }}' },
        },
        { id: 'after', type: 'task.create', projectId, text: 'After answering {{ trigger.id }}' },
      ],
    });
    const res = await post(a.webhook.url, { id: 'A-1', amount: 21 });
    expect(res.status).toBe(201);
    expect(res.headers['x-order']).toBe('A-1');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-security-policy']).toMatch(/sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toMatchObject({ orderId: 'A-1', total: 42 });
    const [run] = await settledRuns(api, a.id);
    expect(run.status).toBe('completed');
    expect(res.body.run).toBe(run.id);
    expect(res.body.taskId).toBe(run.steps.find((s: any) => s.id === 'make').output.id);
    expect(run.steps.map((s: any) => s.id)).toEqual(['calc', 'make', 'answer', 'after']);
    expect(run.steps.find((s: any) => s.id === 'answer').output).toEqual({ status: 201, headers: { 'X-Order': 'A-1' }, body: res.body });
  });

  test('a text body is sent as text/plain unless the automation sets a Content-Type; the first respond step answers', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Hello',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'pick',
          type: 'branch',
          conditions: { anyOf: [{ allOf: [{ left: '{{ trigger.format | default: "text" }}', operator: 'equals', right: 'csv' }] }] },
          then: [{ id: 'csv', type: 'respond', headers: { 'Content-Type': 'text/csv' }, body: 'name\n{{ trigger.name }}\n' }],
          else: [{ id: 'text', type: 'respond', status: 202, body: 'Hello {{ trigger.name }}' }],
        },
        { id: 'again', type: 'respond', body: 'never sent' },
      ],
    });
    const text = await post(a.webhook.url, { name: 'Ada' });
    expect(text.status).toBe(202);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.body).toBe('Hello Ada');
    const csv = await post(a.webhook.url, { name: 'Bob', format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv');
    expect(csv.body).toBe('name\nBob\n');
  });

  test('past the timeout the caller gets {ok, requestId}; a retry with the same Idempotency-Key later gets the response of the same run', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Slow answer',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'wait', type: 'delay', seconds: 3 },
        { id: 'answer', type: 'respond', body: { done: '{{ trigger.n }}', run: '{{ run.id }}' } },
      ],
    });
    const first = await post(a.webhook.url, { n: 1 }, { 'Idempotency-Key': 'slow-1' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await waitFor(
      async () => {
        const runs = await runsOf(api, a.id);
        return runs[0]?.status === 'completed' && runs;
      },
      'the slow run to complete',
      15000,
    );
    const retry = await post(a.webhook.url, { n: 1 }, { 'Idempotency-Key': 'slow-1' });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ done: 1, run: run.id });
    const again = await post(a.webhook.url, { n: 1 }, { 'Idempotency-Key': 'slow-1' });
    expect(again.body).toEqual(retry.body);
    expect(await runsOf(api, a.id)).toHaveLength(1);
  });

  test('a run that fails before responding, or ends without a respond step on its path, answers {ok, requestId} at once', async () => {
    const failing = await createAutomation(api, server.workspaceId, {
      name: 'Fails first',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'boom', type: 'set', values: { x: '{{ trigger.missing }}' } },
        { id: 'answer', type: 'respond', body: 'unreachable' },
      ],
    });
    const res = await post(failing.webhook.url, { n: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await settledRuns(api, failing.id);
    expect(run.status).toBe('failed');

    const skipped = await createAutomation(api, server.workspaceId, {
      name: 'Answers only VIPs',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'vip',
          type: 'branch',
          conditions: { anyOf: [{ allOf: [{ left: '{{ trigger.vip }}', operator: 'equals', right: true }] }] },
          then: [{ id: 'answer', type: 'respond', body: 'welcome' }],
        },
      ],
    });
    expect((await post(skipped.webhook.url, { vip: false })).body).toEqual({ ok: true, requestId: expect.any(String) });
    expect((await post(skipped.webhook.url, { vip: true })).body).toBe('welcome');
  });

  test('status outside 200–599, headers that frame the message or set cookies, and unsafe rendered header values are refused', async () => {
    const make = (respond: Record<string, unknown>) =>
      api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        actions: [{ id: 'r', type: 'respond', ...respond }],
      });
    const status = await make({ status: 99 });
    expect(status.status).toBe(400);
    expect(status.body.error.details).toEqual({ field: 'actions[0].status', reason: 'too_small' });
    const cookie = await make({ headers: { 'Set-Cookie': 'sid=1' } });
    expect(cookie.status).toBe(400);
    expect(cookie.body.error.details).toEqual({ field: 'actions[0].headers.Set-Cookie', reason: 'forbidden_header' });
    const csp = await make({ headers: { 'content-security-policy': 'default-src *' } });
    expect(csp.body.error.details.reason).toBe('forbidden_header');
    const name = await make({ headers: { 'Bad Header': 'x' } });
    expect(name.status).toBe(400);
    expect(name.body.error.details.field).toBe('actions[0].headers');

    const injected = await createAutomation(api, server.workspaceId, {
      name: 'Header from the body',
      trigger: { type: 'webhook' },
      actions: [{ id: 'r', type: 'respond', headers: { 'X-Echo': '{{ trigger.value }}' }, body: 'ok' }],
    });
    const res = await post(injected.webhook.url, { value: 'a\r\nSet-Cookie: sid=evil' });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await settledRuns(api, injected.id);
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('INVALID_INPUT');
  });

  test('only allow-listed headers may be set: each other one is 400 at save naming the field; Location only with a 3xx status', async () => {
    const make = (respond: Record<string, unknown>) =>
      api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Headers',
        trigger: { type: 'webhook' },
        actions: [{ id: 'r', type: 'respond', ...respond }],
      });
    const refused = [
      'Clear-Site-Data',
      'Refresh',
      'Access-Control-Allow-Origin',
      'Access-Control-Allow-Credentials',
      'X-Frame-Options',
      'Content-Encoding',
      'X-RateLimit-Remaining',
      'x-ratelimit-limit',
      'X-Content-Type-Options',
      'X-Accel-Redirect',
      'Permissions-Policy',
      'Cross-Origin-Opener-Policy',
      'WWW-Authenticate',
    ];
    for (const name of refused) {
      const res = await make({ headers: { [name]: 'x' } });
      expect([name, res.status, res.body.error?.details]).toEqual([
        name,
        400,
        { field: `actions[0].headers.${name}`, reason: 'forbidden_header' },
      ]);
    }
    const location = await make({ headers: { Location: 'https://example.com/' } });
    expect(location.status).toBe(400);
    expect(location.body.error.details).toEqual({ field: 'actions[0].headers.Location', reason: 'forbidden_header' });
    expect(location.body.error.message).toMatch(/3xx/);

    const allowed = await createAutomation(api, server.workspaceId, {
      name: 'Allowed headers',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'r',
          type: 'respond',
          status: 302,
          headers: {
            Location: 'https://example.com/next',
            'Cache-Control': 'no-store',
            ETag: '"v1"',
            'Content-Language': 'en',
            'Retry-After': '5',
            'X-Order': '7',
          },
          body: 'moved',
        },
      ],
    });
    const res = await post(allowed.webhook.url, {});
    expect(res.status).toBe(302);
    expect(res.headers).toMatchObject({
      location: 'https://example.com/next',
      'cache-control': 'no-store',
      etag: '"v1"',
      'content-language': 'en',
      'retry-after': '5',
      'x-order': '7',
    });
  });

  test('a definition stored before the allow-list held: the refused header is enforced at run time, never sent', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Old respond',
      trigger: { type: 'webhook' },
      actions: [{ id: 'r', type: 'respond', headers: { 'X-Fine': '1' }, body: 'ok' }],
    });
    const definition = JSON.parse((await dbOf(server).value<string>('SELECT definition_json FROM automations WHERE id = ?', a.id))!);
    definition.actions[0].headers = { 'Clear-Site-Data': '"*"', 'X-Fine': '1' };
    await dbOf(server).run('UPDATE automations SET definition_json = ? WHERE id = ?', JSON.stringify(definition), a.id);
    await dbOf(server).run('UPDATE automation_versions SET definition_json = ? WHERE automation_id = ?', JSON.stringify(definition), a.id);
    const res = await post(a.webhook.url, {});
    expect(res.status).toBe(200);
    expect(res.headers['clear-site-data']).toBeUndefined();
    expect(res.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await settledRuns(api, a.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(run.error.message).toMatch(/Clear-Site-Data/);
  });

  test('the published schema describes the respond action', async () => {
    const schema = (await api.get('/api/v1/automations/schema')).body;
    expect(schema.definitions.action.properties.type.enum).toEqual(expect.arrayContaining(['respond', 'automation.run']));
    expect(schema.definitions.trigger.properties.type.enum).toContain('form');
  });
});
