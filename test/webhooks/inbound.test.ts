import Database from 'better-sqlite3';
import path from 'node:path';
import { migrations } from '../../server/src/platform/db/migrations';
import { migrate, migrationsFor } from '../../server/src/platform/db/migrate';
import { addUser, call, client, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, runsOf, runWithStatus } from '../automations/helpers';
import { dbOf } from '../helpers/db';

/**
 * Inbound calls `POST /webhooks/<id>` (and form posts, which share the intake) over real sockets.
 * An inbound URL is part of its automation; an accepted call's run is recorded in the call's own
 * transaction, so it is there, queued or further, as soon as the reply arrives.
 */

describe('inbound webhooks', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const db = () => dbOf(server);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, {
      rawBody: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  const webhook = async (trigger: Record<string, unknown> = {}, actions: unknown[] = []) => {
    const a = await createAutomation(api, server.workspaceId, { name: 'Intake', trigger: { type: 'webhook', ...trigger }, actions });
    return { ...a, path: new URL(a.webhook.url).pathname };
  };
  const runOf = async (automationId: string, requestId: string) => {
    const items = (await api.get(`/api/v1/automations/${automationId}/runs?requestId=${requestId}`)).body.items;
    expect(items).toHaveLength(1);
    return items[0];
  };

  beforeAll(async () => {
    server = await startServer({ env: { ...AUTOMATION_ENV, TASKSPACE_INBOUND_RATE_PER_MINUTE: '10' } });
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  test('an unguessable URL; the reply comes once the run is recorded, with its trigger and the headers (credentials redacted)', async () => {
    const a = await webhook();
    const id = a.webhook.id as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(24);
    expect(a.webhook.url).toBe(`${server.url}/webhooks/${id}`);

    const res = await post(
      a.path,
      { name: 'Ada', amount: 3, nested: { ok: true } },
      { 'x-custom': 'yes', cookie: 'c=1', 'x-api-key': 'secret-1' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, requestId: expect.any(String) });
    // No waiting: the run was written in the call's transaction.
    const run = await runOf(a.id, res.body.requestId);
    expect(run.trigger).toMatchObject({
      type: 'webhook',
      eventId: res.body.requestId,
      variables: { body: { name: 'Ada', amount: 3, nested: { ok: true } }, name: 'Ada', amount: 3 },
      headers: { 'x-custom': 'yes', cookie: '[redacted]', 'x-api-key': '[redacted]' },
    });
    await runWithStatus(api, a.id, run.id, 'completed');
    // Migration 018 dropped the table of pending calls (PostgreSQL's baseline never had it).
    // (Matched on the message: jest's toThrow does not take better-sqlite3's SqliteError for an error.)
    await expect(db().all('SELECT * FROM inbound_requests')).rejects.toMatchObject({
      message: expect.stringMatching(/no such table: inbound_requests|relation "inbound_requests" does not exist/),
    });
  });

  test('any JSON value or a form is accepted; malformed JSON bodies are 400 and record nothing; unknown ids are 404', async () => {
    // 9 calls: below the test server's rate of 10 per minute (rejected calls count too).
    const a = await webhook();
    // (Text, XML and empty bodies are accepted: test/automations/inbound-senders.test.ts.)
    for (const [raw, type] of [
      ['{"a":', 'application/json'],
      ['not json', 'application/vnd.custom'],
    ]) {
      const res = await post(a.path, raw!, { 'content-type': type! });
      expect([raw, res.status, res.body.ok, res.body.error.details]).toEqual([raw, 400, false, { field: 'body', reason: 'invalid_json' }]);
    }
    expect(await runsOf(api, a.id)).toEqual([]);
    const accepted: unknown[] = [];
    for (const [raw, type, parsed] of [
      ['[1,2]', 'application/json', [1, 2]],
      ['"text"', 'application/json', 'text'],
      ['a=1&b=2&b=3', 'application/x-www-form-urlencoded; charset=utf-8', { a: '1', b: ['2', '3'] }],
      ['{"fromText":1}', 'text/plain', { fromText: 1 }],
    ] as const) {
      const res = await post(a.path, raw, { 'content-type': type });
      expect([raw, res.status]).toEqual([raw, 200]);
      accepted.push(parsed);
    }
    const unknown = await post('/webhooks/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const bodies = (await runsOf(api, a.id)).reverse().map((r) => r.trigger.variables.body);
    expect(bodies).toEqual(accepted);
  });

  test("a repeated Idempotency-Key gets the first call's request id and run; with another body 422; another key gets its own", async () => {
    const a = await webhook();
    const send = (key: string, n: number) => post(a.path, { n }, { 'idempotency-key': key });
    const first = await send('order-17', 1);
    const again = await send('order-17', 1);
    const other = await send('order-18', 3);
    expect(again.status).toBe(200);
    expect(again.body.requestId).toBe(first.body.requestId);
    // The same key with another body is refused, not answered with the first run (Stripe's 422).
    const reused = await send('order-17', 2);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({
      ok: false,
      code: 'IDEMPOTENCY_KEY_REUSED',
      error: { details: { field: 'Idempotency-Key', reason: 'reused_with_different_body' } },
    });
    expect(other.body.requestId).not.toBe(first.body.requestId);
    const runs = await runsOf(api, a.id);
    expect(runs.map((r) => r.trigger.variables.n).sort()).toEqual([1, 3]);
    expect((await runOf(a.id, first.body.requestId)).trigger.variables.n).toBe(1);
    const tooLong = await post(a.path, { n: 4 }, { 'idempotency-key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual({ field: 'Idempotency-Key', reason: 'too_long' });
  });

  test('calls sent at once: one Idempotency-Key gets one run, calls without a key a run each', async () => {
    // 8 calls: below the test server's rate of 10 per minute. Only calls with one key take turns.
    const a = await webhook();
    const keyed = await Promise.all([1, 2, 3, 4].map(() => post(a.path, { n: 1 }, { 'idempotency-key': 'order-42' })));
    const unkeyed = await Promise.all([1, 2, 3, 4].map((n) => post(a.path, { n: 10 + n })));
    expect([...keyed, ...unkeyed].map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(keyed.map((res) => res.body.requestId)).size).toBe(1);
    expect(new Set(unkeyed.map((res) => res.body.requestId)).size).toBe(4);
    const runs = await runsOf(api, a.id);
    expect(runs.map((r) => r.trigger.variables.n).sort((x: number, y: number) => x - y)).toEqual([1, 11, 12, 13, 14]);
  });

  test('a token-protected URL: 401 without or with a wrong token, 200 with it; stored hashed; switched off and on through the automation', async () => {
    const a = await webhook({ requireToken: true });
    const token = a.webhook.token as string;
    expect(token).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
    expect(a.webhook.requiresToken).toBe(true);
    const none = await post(a.path, { a: 1 });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: 'INVALID_TOKEN', details: { reason: 'missing_token' } });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await post(a.path, { a: 1 }, { authorization: 'Bearer whk_wrong' });
    expect(wrong.body.error.details.reason).toBe('invalid_token');
    const right = await post(a.path, { a: 1 }, { authorization: `Bearer ${token}` });
    expect(right.status).toBe(200);
    expect((await runOf(a.id, right.body.requestId)).trigger.headers.authorization).toBe('[redacted]');
    const stored = await db().value<string>('SELECT token_hash FROM inbound_webhooks WHERE id = ?', a.webhook.id);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await db().all('SELECT * FROM automation_runs WHERE automation_id = ?', a.id))).not.toContain(token);
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item.webhook).toEqual({
      id: a.webhook.id,
      url: a.webhook.url,
      requiresToken: true,
    });

    const definition = { name: 'Intake', trigger: { type: 'webhook' }, actions: [] };
    const off = await api.put(`/api/v1/automations/${a.id}`, definition);
    expect(off.body.item.webhook).toEqual({ id: a.webhook.id, url: a.webhook.url, requiresToken: false });
    expect((await post(a.path, { a: 2 })).status).toBe(200);
    const on = await api.put(`/api/v1/automations/${a.id}`, { ...definition, trigger: { type: 'webhook', requireToken: true } });
    const fresh = on.body.item.webhook.token as string;
    expect(fresh).toMatch(/^whk_/);
    expect(fresh).not.toBe(token);
    expect((await post(a.path, { a: 3 }, { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await post(a.path, { a: 3 }, { authorization: `Bearer ${fresh}` })).status).toBe(200);
  });

  test("past the per-URL rate, calls get 429 with Retry-After; a form's page posts share its URL's bucket; other URLs are unaffected", async () => {
    const busy = await createAutomation(api, server.workspaceId, {
      name: 'Signup',
      trigger: { type: 'form', title: 'Signup', fields: [{ name: 'email', label: 'Email', type: 'text' }] },
      actions: [],
    });
    const calm = await webhook();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await post(`/webhooks/${busy.webhook.id}`, { email: `${i}@example.com` })).status);
    const formPost = await post(`/forms/${busy.webhook.id}`, { email: 'late@example.com' });
    expect([...statuses, formPost.status]).toEqual([...new Array(10).fill(200), 429]);
    expect(formPost.body.error.code).toBe('RATE_LIMITED');
    expect(Number(formPost.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await post(calm.path, { a: 1 })).status).toBe(200);
  });

  test('the URL is part of its automation: created with it in one transaction, gone with its trigger or with it', async () => {
    const free = addUser(server, 'inbound-free', { workspaceId: server.workspaceId, role: 'Owner', plan: 'free', verified: true });
    const count = () => db().value('SELECT (SELECT count(*) FROM automations) + (SELECT count(*) FROM inbound_webhooks) AS n');
    const before = await count();
    const refused = await client(server, free).post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'No plan',
      trigger: { type: 'webhook' },
      actions: [],
    });
    expect(refused.status).toBe(402);
    expect(await count()).toBe(before);

    const switched = await webhook();
    expect(
      (
        await api.put(`/api/v1/automations/${switched.id}`, {
          name: 'Now a schedule',
          trigger: { type: 'schedule', cron: '0 9 * * *' },
          actions: [],
        })
      ).status,
    ).toBe(200);
    expect((await api.get(`/api/v1/automations/${switched.id}`)).body.item.webhook).toBeUndefined();
    expect((await post(switched.path, { a: 1 })).status).toBe(404);

    const deleted = await webhook();
    expect((await api.delete(`/api/v1/automations/${deleted.id}`)).status).toBe(200);
    expect((await post(deleted.path, { a: 1 })).status).toBe(404);
    expect(await db().value('SELECT count(*) AS n FROM inbound_webhooks WHERE id IN (?, ?)', switched.webhook.id, deleted.webhook.id)).toBe(
      0,
    );
    // The link is stored once: the automation's own row does not repeat it.
    expect(await db().value('SELECT meta_json FROM automations WHERE id = ?', switched.id)).not.toContain('webhook');
  });
});

describe('migration 018: inbound requests pending at the upgrade become queued runs', () => {
  test('a pending request gets its run; handled ones and URLs of vanished automations go; the link leaves the automation row', () => {
    const file = path.join(tempDataDir(), 'upgrade.sqlite');
    const db = new Database(file);
    try {
      db.pragma('foreign_keys = ON');
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
      for (const m of migrationsFor(migrations, 'sqlite').filter((m) => m.version < 18)) {
        db.exec(m.up);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
      }
      db.exec(`
        INSERT INTO users (id, handle, display_name, created_at) VALUES ('u1', 'ada', 'Ada', 0);
        INSERT INTO workspaces (id, name, created_at) VALUES ('w1', 'W', 0);
        INSERT INTO automations (id, workspace_id, owner_id, trigger_type, version, enabled, definition_json, meta_json, created_at, updated_at)
        VALUES ('a1', 'w1', 'u1', 'webhook', 2, 1, '{"name":"A","trigger":{"type":"webhook"},"actions":[]}', '{"webhookId":"hook1","note":"kept"}', 0, 0);
        INSERT INTO inbound_webhooks (id, workspace_id, automation_id, token_hash, created_by, created_at) VALUES ('hook1', 'w1', 'a1', 'abc', 'u1', 5);
        INSERT INTO inbound_webhooks (id, workspace_id, automation_id, token_hash, created_by, created_at) VALUES ('orphan', 'w1', 'gone', NULL, 'u1', 5);
        INSERT INTO inbound_requests (id, webhook_id, workspace_id, automation_id, body_json, headers_json, status, received_at)
        VALUES ('r1', 'hook1', 'w1', 'a1', '{"lead":"x","body":"own"}', '{"x-a":"1"}', 'pending', 7),
               ('r2', 'hook1', 'w1', 'a1', '[1]', '{}', 'done', 8);
      `);
      migrate(db, migrations);
      const runs = db.prepare('SELECT automation_id, version, status, depth, dedupe_key, trigger_json FROM automation_runs').all() as any[];
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ automation_id: 'a1', version: 2, status: 'queued', depth: 1, dedupe_key: 'inbound:r1' });
      expect(JSON.parse(runs[0].trigger_json)).toEqual({
        type: 'webhook',
        variables: { body: 'own', lead: 'x' },
        eventId: 'r1',
        headers: { 'x-a': '1' },
      });
      expect(db.prepare('SELECT id, automation_id, token_hash, created_at FROM inbound_webhooks').all()).toEqual([
        { id: 'hook1', automation_id: 'a1', token_hash: 'abc', created_at: 5 },
      ]);
      expect(JSON.parse(db.prepare("SELECT meta_json FROM automations WHERE id = 'a1'").pluck().get() as string)).toEqual({ note: 'kept' });
      expect(db.prepare('SELECT count(*) FROM pragma_foreign_key_check').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
