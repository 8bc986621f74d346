import { actorForToken } from '../../server/src/auth/tokens';
import { buildApp, type BuiltApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import {
  claimInboundRequests,
  completeInboundRequest,
  createInboundWebhook,
  deleteInboundWebhook,
  getInboundWebhook,
  InboundThrottle,
  receiveInboundRequest,
  releaseInboundRequest,
  setInboundWebhookToken,
} from '../../server/src/modules/automations/inbound';
import { ServiceError } from '../../server/src/errors';
import { addUser, call, startServer, tempDataDir, OWNER_TOKEN, type TestServer } from '../helpers/server';

/**
 * Inbound webhooks `POST /webhooks/<id>`: intake over real sockets; the URLs are created
 * through the exported domain API (no management route exists until the engine issue).
 */

describe('inbound webhooks', () => {
  let server: TestServer;
  const svc = () => server.built.services;
  const owner = () => actorForToken(svc().db, OWNER_TOKEN)!;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, { rawBody: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_INBOUND_RATE_PER_MINUTE: '10' } });
  });
  afterAll(() => server.close());

  test('creates an unguessable URL; a JSON object body is accepted and stored for the engine', async () => {
    const hook = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId });
    expect(hook.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(hook.id, 'base64url')).toHaveLength(24);
    expect(hook.url).toBe(`${server.url}/webhooks/${hook.id}`);
    expect(hook.token).toBeUndefined();

    const res = await post(`/webhooks/${hook.id}`, { name: 'Ada', amount: 3, nested: { ok: true } }, { 'idempotency-key': 'order-17', 'x-custom': 'yes' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, requestId: expect.any(String) });

    // Stored durably for the engine (whose consumer may already have picked it up).
    const row = svc().db.prepare('SELECT * FROM inbound_requests WHERE id = ?').get(res.body.requestId) as Record<string, any>;
    expect(row).toMatchObject({ webhook_id: hook.id, workspace_id: server.workspaceId, automation_id: null, idempotency_key: 'order-17' });
    expect(JSON.parse(row.body_json)).toEqual({ name: 'Ada', amount: 3, nested: { ok: true } });
    expect(JSON.parse(row.headers_json)).toMatchObject({ 'x-custom': 'yes', 'idempotency-key': 'order-17' });

    // A URL made for an automation that does not exist (left behind by a crash) takes nothing.
    const orphan = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId, automationId: 'gone' });
    const refused = await post(`/webhooks/${orphan.id}`, { a: 1 });
    expect(refused.status).toBe(404);
    expect(svc().db.prepare('SELECT count(*) AS n FROM inbound_requests WHERE webhook_id = ?').get(orphan.id)).toEqual({ n: 0 });
  });

  test('any JSON value or a form is accepted, whatever the content type; malformed bodies are 400; unknown ids are 404', async () => {
    // 9 calls: below the test server's rate of 10 per minute (rejected calls count too).
    const hook = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId });
    const path = `/webhooks/${hook.id}`;
    for (const [raw, type] of [
      ['not json', 'text/plain'],
      ['{"a":', 'application/json'],
      ['', 'application/json'],
    ]) {
      const res = await post(path, raw!, { 'content-type': type! });
      expect([raw, res.status, res.body.ok, res.body.error.details]).toEqual([raw, 400, false, { field: 'body', reason: 'invalid_json' }]);
    }
    const accepted: unknown[] = [];
    for (const [raw, type, parsed] of [
      ['[1,2]', 'application/json', [1, 2]],
      ['"text"', 'application/json', 'text'],
      ['a=1&b=2&b=3', 'application/x-www-form-urlencoded; charset=utf-8', { a: '1', b: ['2', '3'] }],
      ['{"fromText":1}', 'text/plain', { fromText: 1 }],
    ] as const) {
      const res = await post(path, raw, { 'content-type': type });
      expect([raw, res.status]).toEqual([raw, 200]);
      accepted.push(parsed);
    }
    const unknown = await post('/webhooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const stored = svc().db.prepare('SELECT body_json FROM inbound_requests WHERE webhook_id = ? ORDER BY received_at, rowid').all(hook.id) as { body_json: string }[];
    expect(stored.map((r) => JSON.parse(r.body_json))).toEqual(accepted);
  });

  test('a token-protected URL: 401 without a token, 401 with a wrong one, 200 with it; the token is stored hashed', async () => {
    const hook = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId, requireToken: true });
    expect(hook.token).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
    const path = `/webhooks/${hook.id}`;
    const none = await post(path, { a: 1 });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: 'INVALID_TOKEN', details: { reason: 'missing_token' } });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await post(path, { a: 1 }, { authorization: 'Bearer whk_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.details.reason).toBe('invalid_token');
    const right = await post(path, { a: 1 }, { authorization: `Bearer ${hook.token}` });
    expect(right.status).toBe(200);

    const row = svc().db.prepare('SELECT token_hash FROM inbound_webhooks WHERE id = ?').get(hook.id) as { token_hash: string };
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(hook.token);
    const stored = svc().db.prepare('SELECT headers_json FROM inbound_requests WHERE webhook_id = ?').all(hook.id) as { headers_json: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.headers_json).not.toContain(hook.token);
    expect(getInboundWebhook(svc(), owner(), hook.id).requiresToken).toBe(true);

    const chosen = setInboundWebhookToken(svc(), owner(), hook.id, { requireToken: true, token: 'my-own-token-1234567' });
    expect(chosen.token).toBe('my-own-token-1234567');
    expect((await post(path, { a: 1 }, { authorization: `Bearer ${hook.token}` })).status).toBe(401);
    expect((await post(path, { a: 1 }, { authorization: 'Bearer my-own-token-1234567' })).status).toBe(200);
    setInboundWebhookToken(svc(), owner(), hook.id, { requireToken: false });
    expect((await post(path, { a: 1 })).status).toBe(200);
  });

  test('past the per-URL rate, calls get 429 with Retry-After; other URLs are unaffected', async () => {
    const busy = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId });
    const calm = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await post(`/webhooks/${busy.id}`, { i });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...new Array(10).fill(200), 429]);
    expect(last!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await post(`/webhooks/${calm.id}`, { a: 1 })).status).toBe(200);
  });

  test('management: Owner only (403/404), Pro+ verified only (402); a deleted URL answers 404', async () => {
    const participant = addUser(server, 'inbound-part', { workspaceId: server.workspaceId, role: 'Collaborator', plan: 'pro', verified: true });
    const outsider = addUser(server, 'inbound-out', { plan: 'pro', verified: true });
    const free = addUser(server, 'inbound-free', { workspaceId: server.workspaceId, role: 'Owner', plan: 'free', verified: true });
    const attempt = (token: string) => {
      try {
        createInboundWebhook(svc(), actorForToken(svc().db, token)!, { workspaceId: server.workspaceId });
        return 200;
      } catch (error) {
        return (error as ServiceError).statusCode;
      }
    };
    expect(attempt(participant)).toBe(403);
    expect(attempt(outsider)).toBe(404);
    expect(attempt(free)).toBe(402);
    expect(() => createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId, token: 'short' })).toThrow(/16 to 256/);

    const hook = createInboundWebhook(svc(), owner(), { workspaceId: server.workspaceId });
    expect(() => deleteInboundWebhook(svc(), actorForToken(svc().db, participant)!, hook.id)).toThrow(/Owner/);
    deleteInboundWebhook(svc(), owner(), hook.id);
    expect((await post(`/webhooks/${hook.id}`, { a: 1 })).status).toBe(404);
  });
});

describe('the consumer hand-off (claim, release, complete), with no engine running', () => {
  let built: BuiltApp;
  beforeAll(async () => {
    // Built but not listening: no background consumer competes with the test.
    built = await buildApp({ config: loadConfig({ TASKSPACE_DATA_DIR: tempDataDir(), TASKSPACE_LOG_LEVEL: 'silent', TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN }) });
  });
  afterAll(() => built.app.close());

  test('leases requests, hands them out again after release or lease expiry, and completes once', () => {
    const svc = built.services;
    const owner = actorForToken(svc.db, OWNER_TOKEN)!;
    const workspaceId = (svc.db.prepare('SELECT workspace_id FROM workspace_members WHERE user_id = ?').get(owner.userId) as { workspace_id: string }).workspace_id;
    const hook = createInboundWebhook(svc, owner, { workspaceId });
    const throttle = new InboundThrottle(svc.clock, 100);
    const receive = (body: object, headers: Record<string, string> = {}) =>
      receiveInboundRequest(svc, throttle, { webhookId: hook.id, authorization: undefined, body: Buffer.from(JSON.stringify(body)), headers }).requestId;
    const first = receive({ n: 1 }, { 'idempotency-key': 'k-1', authorization: 'Bearer x', cookie: 'c=1', 'x-extra': 'e' });
    const second = receive({ n: 2 });

    const claimed = claimInboundRequests(svc, { limit: 1, leaseMs: 60000 });
    expect(claimed).toEqual([
      {
        id: first,
        webhookId: hook.id,
        workspaceId,
        automationId: null,
        body: { n: 1 },
        // Credential headers are recorded by name only (the shared redaction rule).
        headers: { 'idempotency-key': 'k-1', authorization: '[redacted]', cookie: '[redacted]', 'x-extra': 'e' },
        idempotencyKey: 'k-1',
        receivedAt: expect.any(Number),
      },
    ]);
    expect(claimInboundRequests(svc, { limit: 10 }).map((r) => r.id)).toEqual([second]);
    expect(claimInboundRequests(svc)).toEqual([]);
    releaseInboundRequest(svc, first);
    expect(claimInboundRequests(svc, { leaseMs: 0 }).map((r) => r.id)).toEqual([first]);
    // A lease of 0 ms has expired at once: the request is claimable again.
    expect(claimInboundRequests(svc).map((r) => r.id)).toEqual([first]);
    expect(completeInboundRequest(svc, first, { runId: 'run-1' })).toBe(true);
    expect(completeInboundRequest(svc, first, { runId: 'run-2' })).toBe(false);
    expect(completeInboundRequest(svc, second, { error: 'automation disabled' })).toBe(true);
    expect(claimInboundRequests(svc)).toEqual([]);
    const rows = svc.db.prepare('SELECT id, status, run_id, error FROM inbound_requests ORDER BY received_at, id').all();
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: first, status: 'done', run_id: 'run-1', error: null },
        { id: second, status: 'failed', run_id: null, error: 'automation disabled' },
      ]),
    );
  });
});
