import { createHmac } from 'node:crypto';
import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, runsOf } from '../automations/helpers';

/**
 * Inbound calls from someone who has no credential, or replays one (issue 35, items 6 and 7), over
 * real sockets: forged tokens and signatures count against the URL's throttle (429 once it is
 * spent), a sender's delivery id makes its retries and replays one run, and the header a trigger
 * reads its signature from is recorded redacted whatever its name.
 */
describe('inbound webhooks: forged and replayed calls', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const send = (path: string, rawBody: string, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, { rawBody, headers: { 'content-type': 'application/json', ...headers } });
  const webhook = async (trigger: Record<string, unknown> = {}) => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Forgery', trigger: { type: 'webhook', ...trigger }, actions: [] });
    return { ...a, path: new URL(a.webhook.url).pathname };
  };
  const hmacHex = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startServer({ env: { ...AUTOMATION_ENV, TASKSPACE_INBOUND_RATE_PER_MINUTE: '30' } });
    api = client(server, server.token);
    for (const [name, value] of [
      ['GH_KEY', 'gh-key'],
      ['STRIPE_KEY', 'whsec_key'],
      ['SLACK_KEY', 'slack-key'],
      ['HOOK_KEY', 'hook-key'],
    ]) {
      expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/${name}`, { value })).status).toBe(200);
    }
  });
  afterAll(() => server.close());

  /**
   * Sends 60 calls one after the other and checks that the first 30 spend the bucket (refused by
   * the check) and the rest are throttled, but for what the bucket refilled meanwhile (30 a minute:
   * one call per 2 s of the loop). Returns the last answer.
   */
  async function sixtyCalls(refused: number, attempt: (i: number) => ReturnType<typeof send>) {
    const started = Date.now();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 60; i++) {
      last = await attempt(i);
      statuses.push(last.status);
    }
    const refills = Math.ceil((Date.now() - started) / 2000) + 1;
    expect(statuses.slice(0, 30)).toEqual(new Array(30).fill(refused));
    expect(statuses.every((s) => s === refused || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - refills);
    return last!;
  }

  test('forged tokens and signatures are throttled: 60 calls with the limit at 30 get 429s, and record nothing', async () => {
    const tokened = await webhook({ requireToken: true });
    await sixtyCalls(401, (i) => send(tokened.path, '{}', { authorization: `Bearer whk_guess${i}` }));

    const signed = await webhook({ verify: { type: 'github', secret: 'GH_KEY' } });
    const body = JSON.stringify({ action: 'opened' });
    const throttled = await sixtyCalls(401, (i) =>
      send(signed.path, body, { 'x-hub-signature-256': `sha256=${hmacHex(`guess-${i}`, body)}` }),
    );
    if (throttled.status === 429) {
      expect(throttled.body.code).toBe('RATE_LIMITED');
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(await runsOf(api, tokened.id)).toEqual([]);
    expect(await runsOf(api, signed.id)).toEqual([]);
  });

  test('the same GitHub delivery sent 5 times makes 1 run, each answered like an idempotent repeat; another delivery makes another', async () => {
    const gh = await webhook({ verify: { type: 'github', secret: 'GH_KEY' } });
    const body = JSON.stringify({ action: 'opened', number: 7 });
    const delivery = (id: string, payload = body) =>
      send(gh.path, payload, {
        'x-github-event': 'pull_request',
        'x-github-delivery': id,
        'x-hub-signature-256': `sha256=${hmacHex('gh-key', payload)}`,
      });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await delivery('72d3162e-cc78-11e3-81ab-4c9367dc0958'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.requestId)).size).toBe(1);
    expect(await runsOf(api, gh.id)).toHaveLength(1);
    // The same delivery id with another (validly signed) body is not a retry: refused, as a reused Idempotency-Key is.
    const changed = await delivery('72d3162e-cc78-11e3-81ab-4c9367dc0958', JSON.stringify({ action: 'closed', number: 7 }));
    expect([changed.status, changed.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const other = await delivery('8e1c4a10-cc78-11e3-81ab-4c9367dc0958');
    expect(other.status).toBe(200);
    expect(other.body.requestId).not.toBe(answers[0]!.body.requestId);
    expect(await runsOf(api, gh.id)).toHaveLength(2);
  });

  test("Stripe's event id, Slack's event_id and a generic preset's delivery header de-duplicate too", async () => {
    const stripe = await webhook({ verify: { type: 'stripe', secret: 'STRIPE_KEY' } });
    const event = JSON.stringify({ id: 'evt_1NG8Du2eZvKYlo2C', type: 'invoice.paid' });
    const stripeSig = (t = now()) => `t=${t},v1=${hmacHex('whsec_key', `${t}.${event}`)}`;
    for (let i = 0; i < 3; i++) expect((await send(stripe.path, event, { 'stripe-signature': stripeSig() })).status).toBe(200);
    expect(await runsOf(api, stripe.id)).toHaveLength(1);

    const slack = await webhook({ verify: { type: 'slack', secret: 'SLACK_KEY' } });
    const callback = JSON.stringify({ type: 'event_callback', event_id: 'Ev08MFMKH6', event: { type: 'app_mention' } });
    const slackHeaders = (retry: number, ts = now()) => ({
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': `v0=${hmacHex('slack-key', `v0:${ts}:${callback}`)}`,
      ...(retry > 0 ? { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_timeout' } : {}),
    });
    for (let retry = 0; retry < 3; retry++) expect((await send(slack.path, callback, slackHeaders(retry))).status).toBe(200);
    expect(await runsOf(api, slack.id)).toHaveLength(1);

    const hook = await webhook({
      verify: { type: 'hmac-sha256', secret: 'HOOK_KEY', header: 'X-Hook-Mac', deliveryHeader: 'X-Hook-Delivery' },
    });
    const payload = JSON.stringify({ order: 42 });
    const hookCall = (id: string) => send(hook.path, payload, { 'x-hook-mac': hmacHex('hook-key', payload), 'x-hook-delivery': id });
    for (let i = 0; i < 5; i++) expect((await hookCall('d-1')).status).toBe(200);
    expect((await hookCall('d-2')).status).toBe(200);
    expect(await runsOf(api, hook.id)).toHaveLength(2);

    // The delivery header belongs to the generic preset: the others name their own.
    const misplaced = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Misplaced',
      trigger: { type: 'webhook', verify: { type: 'github', secret: 'GH_KEY', deliveryHeader: 'X-Other' } },
      actions: [],
    });
    expect(misplaced.status).toBe(400);
  });

  test('a custom signature header is recorded redacted, whatever its name, also in what Viewers read', async () => {
    const hook = await webhook({ verify: { type: 'hmac-sha256', secret: 'HOOK_KEY', header: 'X-Hook-Mac' } });
    const payload = JSON.stringify({ order: 7 });
    const mac = hmacHex('hook-key', payload);
    const res = await send(hook.path, payload, { 'x-hook-mac': mac, 'x-plain': 'shown' });
    expect(res.status).toBe(200);
    const viewer = client(server, addUser(server, 'forgery-viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const runs = await runsOf(viewer, hook.id);
    expect(runs).toHaveLength(1);
    const run = (await viewer.get(`/api/v1/automations/${hook.id}/runs/${runs[0].id}`)).body.item;
    expect(run.trigger.headers).toMatchObject({ 'x-hook-mac': '[redacted]', 'x-plain': 'shown' });
    expect(run.trigger.variables.headers).toMatchObject({ 'x-hook-mac': '[redacted]' });
    expect(JSON.stringify(run)).not.toContain(mac);
  });
});
