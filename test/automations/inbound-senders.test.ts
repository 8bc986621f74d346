import { createHmac } from 'node:crypto';
import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runsOf } from './helpers';

/**
 * Inbound webhook URLs for real senders (docs "Automations", "Triggers", webhook, and "Verifying
 * signatures"): more methods, text and XML bodies, the request as trigger variables, and
 * GitHub-, Stripe-, Slack-shaped and generic HMAC signatures, over real sockets.
 */
describe('inbound webhooks for real senders', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const send = (method: string, path: string, rawBody: string | Buffer | undefined, headers: Record<string, string> = {}) =>
    call(server.url, method, path, { ...(rawBody === undefined ? {} : { rawBody }), headers });
  const webhook = async (trigger: Record<string, unknown> = {}, actions: unknown[] = []) => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Senders', trigger: { type: 'webhook', ...trigger }, actions });
    return { ...a, path: new URL(a.webhook.url).pathname };
  };
  const runOf = async (automationId: string, requestId: string) => {
    const items = (await api.get(`/api/v1/automations/${automationId}/runs?requestId=${requestId}`)).body.items;
    expect(items).toHaveLength(1);
    return items[0];
  };
  const hmacHex = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    for (const [name, value] of [
      ['GH_SECRET', 'gh-key'],
      ['STRIPE_SECRET', 'whsec_test'],
      ['SLACK_SECRET', 'slack-key'],
      ['SHOP_SECRET', 'shop-key'],
    ]) {
      expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/${name}`, { value })).status).toBe(200);
    }
  });
  afterAll(() => server.close());

  test('methods are allowed per URL (default POST only, others 405 with Allow; no implicit HEAD)', async () => {
    const only = await webhook();
    const refused = await send('PUT', only.path, '{}', { 'content-type': 'application/json' });
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('POST');
    expect(refused.body).toMatchObject({
      ok: false,
      code: 'METHOD_NOT_ALLOWED',
      error: { details: { field: 'method', reason: 'not_allowed' } },
    });

    const many = await webhook({ methods: ['GET', 'PUT', 'PATCH', 'DELETE'] }, [
      { id: 'echo', type: 'set', values: { m: '{{ trigger.method }}', q: '{{ trigger.query.a }}' } },
    ]);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await send(method, `${many.path}?a=1&b=2&b=3&token=hide-me`, undefined);
      expect([method, res.status]).toEqual([method, 200]);
      const run = await runOf(many.id, res.body.requestId);
      expect(run.trigger.variables).toMatchObject({ method, query: { a: '1', b: ['2', '3'], token: '[redacted]' }, body: {} });
    }
    const post = await send('POST', many.path, '{}', { 'content-type': 'application/json' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, PUT, PATCH, DELETE']);
    expect((await send('HEAD', many.path, undefined)).status).not.toBe(200);
    expect(await runsOf(api, many.id)).toHaveLength(4);
    const bad = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'x',
      trigger: { type: 'webhook', methods: ['TRACE'] },
      actions: [],
    });
    expect(bad.status).toBe(400);
  });

  test('text, XML and empty bodies are accepted; binary ones are 415; headers, query, method and rawBody are trigger variables', async () => {
    const a = await webhook({}, [
      {
        id: 'seen',
        type: 'set',
        values: { event: '{{ trigger.headers["x-github-event"] }}', raw: '{{ trigger.rawBody }}', method: '{{ trigger.http.method }}' },
      },
    ]);
    const xml = '<note><to>Ada</to></note>';
    const cases: [string, string, unknown][] = [
      [xml, 'application/xml', xml],
      [xml, 'text/xml; charset=utf-8', xml],
      ['hello, plain', 'text/plain', 'hello, plain'],
      ['a,b\n1,2', 'text/csv', 'a,b\n1,2'],
      ['', 'application/json', {}],
      ['', 'text/plain', {}],
    ];
    for (const [raw, type, parsed] of cases) {
      const res = await send('POST', a.path, raw, { 'content-type': type, 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=abc' });
      expect([type, res.status]).toEqual([type, 200]);
      const run = await runOf(a.id, res.body.requestId);
      expect(run.trigger.variables).toMatchObject({ body: parsed, rawBody: raw, method: 'POST', query: {} });
      expect(run.trigger.variables.headers).toMatchObject({
        'x-github-event': 'push',
        'x-hub-signature-256': '[redacted]',
        'content-type': type,
      });
    }
    for (const type of ['application/octet-stream', 'image/png', 'multipart/form-data; boundary=x']) {
      const res = await send('POST', a.path, Buffer.from([0, 1, 2, 255]), { 'content-type': type });
      expect([type, res.status, res.body.code, res.body.error?.details]).toEqual([
        type,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        { field: 'content-type', reason: 'binary_body' },
      ]);
    }
    // Invalid UTF-8 under a text type is binary too.
    expect((await send('POST', a.path, Buffer.from([0xff, 0xfe, 0x00]), { 'content-type': 'text/plain' })).status).toBe(415);
    // A JSON object's fields stay top-level variables and win over the request's names (backward compatible).
    const res = await send('POST', a.path, JSON.stringify({ method: 'mine', n: 1 }), {
      'content-type': 'application/json',
      'x-github-event': 'issues',
    });
    const run = await runOf(a.id, res.body.requestId);
    expect(run.trigger.variables).toMatchObject({ method: 'mine', n: 1, http: { method: 'POST' }, rawBody: '{"method":"mine","n":1}' });
    // The template reads the header by its lower-case name.
    const done = await (async () => {
      for (let i = 0; i < 100; i++) {
        const r = (await api.get(`/api/v1/automations/${a.id}/runs/${run.id}`)).body.item;
        if (r.status === 'completed') return r;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      throw new Error('run did not complete');
    })();
    expect(done.steps.find((s: { id: string }) => s.id === 'seen').output).toMatchObject({ event: 'issues', method: 'POST' });
  });
  test('GitHub, Stripe, Slack and generic HMAC signatures are verified with a workspace secret; failures are 401 and record nothing', async () => {
    const body = JSON.stringify({ action: 'opened', number: 7 });
    const json = { 'content-type': 'application/json' };
    const now = () => Math.floor(Date.now() / 1000);
    const refusedWith = async (res: Awaited<ReturnType<typeof send>>, reason: string) => {
      expect([res.status, res.body.code, res.body.error?.details?.reason]).toEqual([401, 'INVALID_SIGNATURE', reason]);
    };

    const gh = await webhook({ verify: { type: 'github', secret: 'GH_SECRET' } });
    const ok = await send('POST', gh.path, body, {
      ...json,
      'x-github-event': 'pull_request',
      'x-hub-signature-256': `sha256=${hmacHex('gh-key', body)}`,
    });
    expect(ok.status).toBe(200);
    expect((await runOf(gh.id, ok.body.requestId)).trigger.variables).toMatchObject({
      action: 'opened',
      headers: { 'x-github-event': 'pull_request' },
    });
    await refusedWith(await send('POST', gh.path, body, json), 'missing_signature');
    await refusedWith(
      await send('POST', gh.path, body, { ...json, 'x-hub-signature-256': `sha256=${hmacHex('wrong', body)}` }),
      'invalid_signature',
    );
    await refusedWith(
      await send('POST', gh.path, `${body} `, { ...json, 'x-hub-signature-256': `sha256=${hmacHex('gh-key', body)}` }),
      'invalid_signature',
    );
    expect(await runsOf(api, gh.id)).toHaveLength(1);

    const stripe = await webhook({ verify: { type: 'stripe', secret: 'STRIPE_SECRET', toleranceSeconds: 60 } });
    const stripeSig = (t: number, key = 'whsec_test') => `t=${t},v1=${hmacHex('other', 'x')},v1=${hmacHex(key, `${t}.${body}`)},v0=abc`;
    expect((await send('POST', stripe.path, body, { ...json, 'stripe-signature': stripeSig(now()) })).status).toBe(200);
    await refusedWith(await send('POST', stripe.path, body, { ...json, 'stripe-signature': stripeSig(now() - 120) }), 'stale_timestamp');
    await refusedWith(
      await send('POST', stripe.path, body, { ...json, 'stripe-signature': stripeSig(now(), 'whsec_other') }),
      'invalid_signature',
    );
    await refusedWith(await send('POST', stripe.path, body, { ...json, 'stripe-signature': `t=${now()}` }), 'invalid_signature');
    expect(await runsOf(api, stripe.id)).toHaveLength(1);

    // Slack signs `v0:<timestamp>:<body>` of its form posts.
    const slack = await webhook({ verify: { type: 'slack', secret: 'SLACK_SECRET' } });
    const form = 'command=%2Fdeploy&text=prod';
    const slackHeaders = (ts: number, key = 'slack-key') => ({
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': `v0=${hmacHex(key, `v0:${ts}:${form}`)}`,
    });
    const slackOk = await send('POST', slack.path, form, slackHeaders(now()));
    expect(slackOk.status).toBe(200);
    expect((await runOf(slack.id, slackOk.body.requestId)).trigger.variables).toMatchObject({ command: '/deploy', text: 'prod' });
    await refusedWith(await send('POST', slack.path, form, slackHeaders(now() - 301)), 'stale_timestamp');
    await refusedWith(await send('POST', slack.path, form, slackHeaders(now(), 'nope')), 'invalid_signature');
    expect(await runsOf(api, slack.id)).toHaveLength(1);

    // Generic: base64 HMAC of the raw body in a named header, with a prefix.
    const shop = await webhook({
      verify: { type: 'hmac-sha256', secret: 'SHOP_SECRET', header: 'X-Shop-Hmac', encoding: 'base64', prefix: 'sha256=' },
    });
    const b64 = createHmac('sha256', 'shop-key').update(body).digest('base64');
    expect((await send('POST', shop.path, body, { ...json, 'x-shop-hmac': `sha256=${b64}` })).status).toBe(200);
    await refusedWith(await send('POST', shop.path, body, { ...json, 'x-shop-hmac': b64 }), 'invalid_signature');

    // A secret the workspace does not have: refused at save (field named, closest name suggested)…
    const unknown = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'x',
      trigger: { type: 'webhook', verify: { type: 'github', secret: 'GH_SECRTE' } },
      actions: [],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: { details: { field: 'trigger.verify.secret', reason: 'unknown_secret' } },
    });
    expect(unknown.body.message).toContain("did you mean 'GH_SECRET'?");
    // …and one deleted after the save is refused at call time.
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/GONE_SECRET`, { value: 'gone-key' })).status).toBe(200);
    const unset = await webhook({ verify: { type: 'github', secret: 'GONE_SECRET' } });
    const savedWith = await api.get(`/api/v1/automations/${unset.id}`);
    expect(savedWith.status).toBe(200);
    // An enabled automation's signing secret cannot be deleted; once the automation is disabled it can.
    expect((await api.delete(`/api/v1/workspaces/${server.workspaceId}/secrets/GONE_SECRET`)).status).toBe(409);
    expect((await api.post(`/api/v1/automations/${unset.id}/disable`, {})).status).toBe(200);
    expect((await api.delete(`/api/v1/workspaces/${server.workspaceId}/secrets/GONE_SECRET`)).status).toBe(200);
    expect((await api.post(`/api/v1/automations/${unset.id}/enable`, {})).status).toBe(200);
    await refusedWith(
      await send('POST', unset.path, body, { ...json, 'x-hub-signature-256': `sha256=${hmacHex('gone-key', body)}` }),
      'secret_not_set',
    );
    // Saving it again without the secret is refused too (updates are checked like creates).
    const resave = await api.put(`/api/v1/automations/${unset.id}`, {
      name: 'Senders',
      trigger: { type: 'webhook', verify: { type: 'github', secret: 'GONE_SECRET' } },
      actions: [],
    });
    expect(resave.status).toBe(400);
    expect(resave.body.error.details).toMatchObject({ field: 'trigger.verify.secret', reason: 'unknown_secret' });
    // `header` is for hmac-sha256 only, and required there.
    for (const verify of [
      { type: 'github', secret: 'GH_SECRET', header: 'X-Other' },
      { type: 'hmac-sha256', secret: 'GH_SECRET' },
    ]) {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'x',
        trigger: { type: 'webhook', verify },
        actions: [],
      });
      expect(res.status).toBe(400);
    }
  });
});
