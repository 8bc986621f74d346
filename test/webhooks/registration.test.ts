import { addUser, call, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

/** Signed webhook registration rules (spec 4.6, 7.4, 8) and the legacy subscription pair. */

const EVENTS = ['task.due', 'task.assigned', 'comment.created', 'project.created', 'project.assigned', 'project.joined'];
const enc = encodeURIComponent;

function createWorkspace(server: TestServer, name: string, owner: string): string {
  const out = runCli(server.dataDir, 'workspace', 'create', name, '--owner', owner);
  const match = /created workspace (\S+)/.exec(out.out);
  if (!match) throw new Error(out.err || out.out);
  return match[1]!;
}

describe('signed webhook registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('registers, shows the secret once, and lists/gets without it', async () => {
    const api = client(server, OWNER_TOKEN);
    const url = 'https://hooks.example.com/taskspace?source=test';
    const created = await api.post('/api/v2/webhooks', { targetUrl: url, events: ['project.created', 'comment.created'] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      ok: true,
      webhook: { id: url, url, events: ['project.created', 'comment.created'], spaceIds: [], createdAt: expect.any(String) },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const secret = created.body.secret as string;

    const list = await api.get('/api/v2/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([created.body.webhook]);
    const one = await api.get(`/api/v2/webhooks/${enc(url)}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ok: true, item: created.body.webhook });
    for (const res of [list, one]) expect(JSON.stringify(res.body)).not.toContain(secret);

    const stored = (await dbOf(server).get<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE url = ?', url))!;
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(secret);
  });

  test('re-registering the same URL replaces events and scope and returns a new secret', async () => {
    const api = client(server, OWNER_TOKEN);
    const url = 'https://hooks.example.com/replace';
    const first = await api.post('/api/v2/webhooks', { targetUrl: url, events: ['task.due'] });
    const second = await api.post('/api/v2/webhooks', {
      targetUrl: url,
      events: ['task.assigned', 'project.joined'],
      spaceIds: [server.workspaceId],
    });
    expect(second.status).toBe(200);
    expect(second.body.secret).not.toBe(first.body.secret);
    expect(second.body.webhook).toEqual({
      ...first.body.webhook,
      events: ['task.assigned', 'project.joined'],
      spaceIds: [server.workspaceId],
    });
    const list = await api.get('/api/v2/webhooks');
    expect(list.body.items.filter((w: { url: string }) => w.url === url)).toHaveLength(1);
  });

  test('an id given in another spelling of the same URL finds the registration', async () => {
    const api = client(server, OWNER_TOKEN);
    await api.post('/api/v2/webhooks', { targetUrl: 'https://Hooks.Example.com/Path', events: ['task.due'] });
    const one = await api.get(`/api/v2/webhooks/${enc('https://hooks.example.com:443/Path')}`);
    expect(one.status).toBe(200);
    expect(one.body.item.id).toBe('https://hooks.example.com/Path');
  });

  test('a near-2048-character URL works as a path id (encoded, with many slashes)', async () => {
    const api = client(server, OWNER_TOKEN);
    const long = 'https://hooks.example.com/' + Array.from({ length: 250 }, (_, i) => `s${i}`).join('/') + '?q=' + 'é'.repeat(100);
    const created = await api.post('/api/v2/webhooks', { targetUrl: long, events: ['task.due'] });
    expect(created.status).toBe(200);
    const id = created.body.webhook.id as string;
    expect(id.length).toBeGreaterThan(1500);
    expect(id.length).toBeLessThanOrEqual(2048);
    expect((await api.get(`/api/v2/webhooks/${enc(id)}`)).body.item.url).toBe(id);
    expect((await api.get(`/api/v2/webhooks/${enc(id)}/deliveries`)).body).toEqual({ ok: true, items: [] });
    expect((await api.delete(`/api/v2/webhooks/${enc(long)}`)).status).toBe(200);
  });

  test.each([
    [{ targetUrl: 'http://hooks.example.com/x', events: ['task.due'] }, 'targetUrl', 'insecure_scheme'],
    [{ targetUrl: 'ftp://hooks.example.com/x', events: ['task.due'] }, 'targetUrl', 'insecure_scheme'],
    [{ targetUrl: 'not a url', events: ['task.due'] }, 'targetUrl', 'invalid_format'],
    [{ targetUrl: 'https://user:pw@hooks.example.com/x', events: ['task.due'] }, 'targetUrl', 'credentials_not_allowed'],
    [{ targetUrl: 'https://hooks.example.com/' + 'a'.repeat(2030), events: ['task.due'] }, 'targetUrl', 'too_long'],
    [{ targetUrl: 'https://hooks.example.com/' + 'é'.repeat(700), events: ['task.due'] }, 'targetUrl', 'too_long'],
    [{ targetUrl: 'https://hooks.example.com/x', events: [] }, 'events', 'too_few'],
    [{ targetUrl: 'https://hooks.example.com/x' }, 'events', 'required'],
    [{ targetUrl: 'https://hooks.example.com/x', events: ['task.added'] }, 'events[0]', 'invalid_value'],
    [{ targetUrl: 'https://hooks.example.com/x', events: ['task.due', 'task.due'] }, 'events[1]', 'duplicate_value'],
    [{ targetUrl: 'https://hooks.example.com/x', events: ['task.due'], spaceIds: ['nope'] }, 'spaceIds[0]', 'not_found'],
    [{ events: ['task.due'] }, 'targetUrl', 'required'],
  ])('400 for an invalid body (#%#)', async (body, field, reason) => {
    const res = await client(server, OWNER_TOKEN).post('/api/v2/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: { field, reason } } });
  });

  test.each([
    'https://127.0.0.1/x',
    'https://10.0.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[::ffff:0:7f00:1]/x',
    'https://[::ffff:0:a9fe:a9fe]/x',
  ])('refuses the blocked address %s at registration', async (targetUrl) => {
    const res = await client(server, OWNER_TOKEN).post('/api/v2/webhooks', { targetUrl, events: ['task.due'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'targetUrl', reason: 'blocked_address' });
  });

  test('spaceIds must be workspaces the caller belongs to (not merely existing ones)', async () => {
    const token = addUser(server, 'scoped', { plan: 'pro', verified: true });
    const res = await client(server, token).post('/api/v2/webhooks', {
      targetUrl: 'https://hooks.example.com/scoped',
      events: ['task.due'],
      spaceIds: [server.workspaceId],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ field: 'spaceIds[0]', reason: 'not_found' });
  });

  test('402 PAYMENT_REQUIRED below Pro or when unverified; Pro+ verified may register', async () => {
    const body = { targetUrl: 'https://hooks.example.com/plan', events: ['project.created'] };
    const cases: [string, { plan: string; verified: boolean }, number][] = [
      ['plan-free', { plan: 'free', verified: true }, 402],
      ['plan-starter', { plan: 'starter', verified: true }, 402],
      ['plan-pro-unverified', { plan: 'pro', verified: false }, 402],
      ['plan-pro', { plan: 'pro', verified: true }, 200],
      ['plan-business', { plan: 'business', verified: true }, 200],
    ];
    for (const [handle, opts, status] of cases) {
      const token = addUser(server, handle, opts);
      const res = await client(server, token).post('/api/v2/webhooks', body);
      expect([handle, res.status]).toEqual([handle, status]);
      if (status === 402) expect(res.body.error.code).toBe('PAYMENT_REQUIRED');
      const legacy = await client(server, token).post('/api/v2/subscribeWebhook', { targetUrl: body.targetUrl, triggerType: 'task.due' });
      expect([handle, legacy.status]).toEqual([handle, status]);
    }
  });

  test('delete is always allowed, also after a downgrade to free', async () => {
    const token = addUser(server, 'downgraded', { plan: 'pro', verified: true });
    const api = client(server, token);
    const url = 'https://hooks.example.com/downgrade';
    expect((await api.post('/api/v2/webhooks', { targetUrl: url, events: ['task.due'] })).status).toBe(200);
    expect(runCli(server.dataDir, 'user', 'update', 'downgraded', '--plan', 'free').code).toBe(0);
    expect((await api.post('/api/v2/webhooks', { targetUrl: url, events: ['task.due'] })).status).toBe(402);
    expect((await api.get('/api/v2/webhooks')).body.items).toHaveLength(1);
    const deleted = await api.delete(`/api/v2/webhooks/${enc(url)}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true, deleted: true });
    expect((await api.get(`/api/v2/webhooks/${enc(url)}`)).status).toBe(404);
    expect((await api.delete(`/api/v2/webhooks/${enc(url)}`)).status).toBe(404);
  });

  test('legacy subscriptions are listed to their owner only, oldest first, and leave the list when unsubscribed', async () => {
    const token = addUser(server, 'legacy-lister', { plan: 'pro', verified: true });
    const api = client(server, token);
    const first = await api.post('/api/v2/subscribeWebhook', { targetUrl: 'https://hooks.example.com/legacy-a', triggerType: 'task.due' });
    const second = await api.post('/api/v2/subscribeWebhook', {
      targetUrl: 'https://hooks.example.com/legacy-b',
      triggerType: 'comment.created',
    });
    const listed = await api.get('/api/v2/subscriptions');
    expect(listed.status).toBe(200);
    // Oldest first; two made in the same millisecond are in id order (the documented tie-break).
    const made = [first.body.hookId, second.body.hookId];
    const items = listed.body.items as { hookId: string; createdAt: string }[];
    const inOrder = (a: { hookId: string; createdAt: string }, b: { hookId: string; createdAt: string }) =>
      a.createdAt.localeCompare(b.createdAt) || a.hookId.localeCompare(b.hookId);
    expect([...items].sort(inOrder)).toEqual(items);
    expect([...items].sort((a, b) => made.indexOf(a.hookId) - made.indexOf(b.hookId))).toEqual([
      {
        hookId: first.body.hookId,
        targetUrl: 'https://hooks.example.com/legacy-a',
        triggerType: 'task.due',
        createdAt: expect.any(String),
      },
      {
        hookId: second.body.hookId,
        targetUrl: 'https://hooks.example.com/legacy-b',
        triggerType: 'comment.created',
        createdAt: expect.any(String),
      },
    ]);
    expect(
      (await client(server, addUser(server, 'legacy-stranger', { plan: 'pro', verified: true })).get('/api/v2/subscriptions')).body.items,
    ).toEqual([]);
    await api.post('/api/v2/unsubscribeWebhook', { hookId: first.body.hookId });
    expect((await api.get('/api/v2/subscriptions')).body.items.map((i: any) => i.hookId)).toEqual([second.body.hookId]);
  });

  test("another account cannot see, read the log of, or delete someone's webhook", async () => {
    const url = 'https://hooks.example.com/private';
    await client(server, OWNER_TOKEN).post('/api/v2/webhooks', { targetUrl: url, events: ['task.due'] });
    const other = client(
      server,
      addUser(server, 'snoop', { plan: 'enterprise', verified: true, workspaceId: server.workspaceId, role: 'Owner' }),
    );
    expect((await other.get('/api/v2/webhooks')).body.items).toEqual([]);
    expect((await other.get(`/api/v2/webhooks/${enc(url)}`)).status).toBe(404);
    expect((await other.get(`/api/v2/webhooks/${enc(url)}/deliveries`)).status).toBe(404);
    expect((await other.delete(`/api/v2/webhooks/${enc(url)}`)).status).toBe(404);
    expect((await client(server, OWNER_TOKEN).get(`/api/v2/webhooks/${enc(url)}`)).status).toBe(200);
  });

  test('v2 needs a bearer token and reports rate-limit headers', async () => {
    const res = await call(server.url, 'GET', '/api/v2/webhooks');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_TOKEN');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  test('the legacy pair: subscribe (idempotent per URL and event), unsubscribe once, others get 404', async () => {
    const api = client(server, OWNER_TOKEN);
    const body = { targetUrl: 'https://hooks.example.com/legacy', triggerType: 'comment.created' };
    const sub = await api.post('/api/v2/subscribeWebhook', body);
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual({ ok: true, hookId: expect.any(String) });
    expect((await api.post('/api/v2/subscribeWebhook', body)).body.hookId).toBe(sub.body.hookId);
    const bad = await api.post('/api/v2/subscribeWebhook', { ...body, triggerType: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('triggerType');
    const insecure = await api.post('/api/v2/subscribeWebhook', { ...body, targetUrl: 'http://hooks.example.com/legacy' });
    expect(insecure.body.error.details).toEqual({ field: 'targetUrl', reason: 'insecure_scheme' });

    const other = client(server, addUser(server, 'legacy-other', { plan: 'pro', verified: true }));
    expect((await other.post('/api/v2/unsubscribeWebhook', { hookId: sub.body.hookId })).status).toBe(404);
    const gone = await api.post('/api/v2/unsubscribeWebhook', { hookId: sub.body.hookId });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ ok: true, deleted: true });
    expect((await api.post('/api/v2/unsubscribeWebhook', { hookId: sub.body.hookId })).status).toBe(404);
  });

  test('the OpenAPI document marks the legacy operations deprecated', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body;
    expect(doc.paths['/api/v2/subscribeWebhook'].post.deprecated).toBe(true);
    expect(doc.paths['/api/v2/unsubscribeWebhook'].post.deprecated).toBe(true);
    expect(doc.paths['/api/v2/webhooks'].post.deprecated).toBeUndefined();
  });
});

describe('the 100 event × workspace combination limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('counts all-workspace registrations per workspace and refuses past 100', async () => {
    const token = addUser(server, 'limits', { plan: 'pro', verified: true });
    const ws1 = createWorkspace(server, 'One', 'limits');
    createWorkspace(server, 'Two', 'limits');
    const api = client(server, token);
    const hook = (n: number) => `https://hooks.example.com/limit/${n}`;
    // 8 × (6 events × 2 workspaces) = 96
    for (let n = 0; n < 8; n++) expect((await api.post('/api/v2/webhooks', { targetUrl: hook(n), events: EVENTS })).status).toBe(200);
    // + 2 × (2 events × 1 workspace) = 100 exactly
    for (let n = 8; n < 10; n++) {
      const res = await api.post('/api/v2/webhooks', { targetUrl: hook(n), events: ['task.due', 'task.assigned'], spaceIds: [ws1] });
      expect(res.status).toBe(200);
    }
    const over = await api.post('/api/v2/webhooks', { targetUrl: hook(10), events: ['task.due'], spaceIds: [ws1] });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual({ field: 'events', reason: 'too_many_combinations' });
    // Replacing a registration counts it once, not twice.
    expect((await api.post('/api/v2/webhooks', { targetUrl: hook(0), events: EVENTS })).status).toBe(200);
    // Growing a replaced one past the limit is refused and changes nothing.
    const grow = await api.post('/api/v2/webhooks', {
      targetUrl: hook(9),
      events: ['task.due', 'task.assigned', 'comment.created'],
      spaceIds: [ws1],
    });
    expect(grow.status).toBe(400);
    expect((await api.get(`/api/v2/webhooks/${enc(hook(9))}`)).body.item.events).toEqual(['task.due', 'task.assigned']);
    // Joining a third workspace makes every all-workspace registration count 3 per event.
    createWorkspace(server, 'Three', 'limits');
    expect((await api.post('/api/v2/webhooks', { targetUrl: hook(11), events: ['task.due'], spaceIds: [ws1] })).status).toBe(400);
    // Registrations already over the new count stay; deleting frees room (5 × 18 + 4 + 1 = 95).
    for (const n of [1, 2, 3]) expect((await api.delete(`/api/v2/webhooks/${enc(hook(n))}`)).status).toBe(200);
    expect((await api.post('/api/v2/webhooks', { targetUrl: hook(11), events: ['task.due'], spaceIds: [ws1] })).status).toBe(200);
  });
});
