import { createHash } from 'node:crypto';
import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { AUTOMATION_ENV, createAutomation, runsOf } from './helpers';

/**
 * Rotating an inbound URL or its bearer token with an overlap window
 * (`POST /api/v1/automations/{id}/inbound/rotate`; docs "Automations", "Rotating the URL or
 * token"), over real sockets. The server's clock is the test's: the end of a window is reached by
 * moving it, not by sleeping.
 */
describe('inbound URL and token rotation', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let patToken: string;
  let now = Date.UTC(2026, 10, 2, 9, 0, 0);
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const pathOf = (url: string) => new URL(url).pathname;
  const post = (path: string, token?: string) =>
    call(server.url, 'POST', path, {
      rawBody: '{"n":1}',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const rotate = (automationId: string, body: unknown) => api.post(`/api/v1/automations/${automationId}/inbound/rotate`, body);

  beforeAll(async () => {
    server = await startServer({ env: AUTOMATION_ENV, clock: { now: () => now } });
    api = client(server, server.token);
    patToken = addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' });
  });
  afterAll(() => server.close());

  test('a token rotation: the new token works at once, the old one until the window ends; only hashes are stored', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Guarded',
      trigger: { type: 'webhook', requireToken: true },
      actions: [],
    });
    const oldToken = a.webhook.token as string;
    const path = pathOf(a.webhook.url);
    expect((await post(path, oldToken)).status).toBe(200);

    const res = await rotate(a.id, { rotate: 'token', overlapSeconds: 60 });
    expect(res.status).toBe(200);
    const item = res.body.item;
    expect(item).toEqual({
      rotated: 'token',
      id: a.webhook.id,
      url: a.webhook.url,
      requiresToken: true,
      token: expect.stringMatching(/^whk_/),
      previousValidUntil: new Date(now + 60_000).toISOString(),
    });
    const newToken = item.token as string;
    expect(newToken).not.toBe(oldToken);
    // The token is shown once; reads never return it.
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item.webhook).toEqual({
      id: a.webhook.id,
      url: a.webhook.url,
      requiresToken: true,
    });

    // Inside the window both tokens work, anything else is refused.
    expect((await post(path, oldToken)).status).toBe(200);
    expect((await post(path, newToken)).status).toBe(200);
    const wrong = await post(path, 'whk_not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.details).toMatchObject({ field: 'authorization', reason: 'invalid_token' });
    expect((await post(path)).status).toBe(401);

    const [row] = await dbOf(server).all<Record<string, unknown>>('SELECT * FROM inbound_webhooks WHERE automation_id = ?', a.id);
    expect(row).toMatchObject({ token_hash: sha256(newToken), previous_token_hash: sha256(oldToken) });
    expect(JSON.stringify(row)).not.toContain(newToken.slice(4));
    expect(JSON.stringify(row)).not.toContain(oldToken.slice(4));

    // A save that keeps requireToken keeps the new token and the window.
    const saved = await api.put(`/api/v1/automations/${a.id}`, {
      name: 'Guarded v2',
      trigger: { type: 'webhook', requireToken: true },
      actions: [],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.item.webhook.token).toBeUndefined();
    const [kept] = await dbOf(server).all<Record<string, unknown>>(
      'SELECT token_hash, previous_token_hash FROM inbound_webhooks WHERE automation_id = ?',
      a.id,
    );
    expect(kept).toEqual({ token_hash: sha256(newToken), previous_token_hash: sha256(oldToken) });

    // One second before the end the old token still works; at the end it is refused.
    now += 59_000;
    expect((await post(path, oldToken)).status).toBe(200);
    now += 1_000;
    const expired = await post(path, oldToken);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await post(path, newToken)).status).toBe(200);
    // 5 accepted calls, each with its run; the refused ones made none.
    expect(await runsOf(api, a.id)).toHaveLength(5);
  });

  test('a URL rotation: both URLs reach the automation inside the window, the old one is 404 after it (forms too)', async () => {
    const form = await createAutomation(api, server.workspaceId, {
      name: 'Form',
      trigger: { type: 'form', title: 'Sign up', fields: [{ name: 'who', label: 'Who', type: 'text', required: true }] },
      actions: [],
    });
    const oldId = form.webhook.id as string;
    const res = await rotate(form.id, { rotate: 'url' });
    expect(res.status).toBe(200);
    const item = res.body.item;
    expect(item.rotated).toBe('url');
    expect(item.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(item.id).not.toBe(oldId);
    expect(item).toMatchObject({
      url: `${server.url}/webhooks/${item.id}`,
      formUrl: `${server.url}/forms/${item.id}`,
      requiresToken: false,
    });
    expect(item.token).toBeUndefined();
    // Default window: one day.
    expect(item.previousValidUntil).toBe(new Date(now + 86_400_000).toISOString());
    expect((await api.get(`/api/v1/automations/${form.id}`)).body.item.webhook).toMatchObject({
      id: item.id,
      url: item.url,
      formUrl: item.formUrl,
    });

    const submit = (id: string) =>
      call(server.url, 'POST', `/forms/${id}`, {
        rawBody: 'who=Ada',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      });
    for (const id of [oldId, item.id]) {
      expect([id, (await call(server.url, 'GET', `/forms/${id}`)).status]).toEqual([id, 200]);
      expect([id, (await submit(id)).status]).toEqual([id, 200]);
    }
    expect(await runsOf(api, form.id)).toHaveLength(2);

    // Saving the automation keeps the new URL.
    const saved = await api.put(`/api/v1/automations/${form.id}`, {
      name: 'Form v2',
      trigger: { type: 'form', title: 'Sign up', fields: [{ name: 'who', label: 'Who', type: 'text', required: true }] },
      actions: [],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.item.webhook.id).toBe(item.id);

    now += 86_400_000;
    expect((await call(server.url, 'GET', `/forms/${oldId}`)).status).toBe(404);
    expect((await submit(oldId)).status).toBe(404);
    expect((await post(`/webhooks/${oldId}`)).status).toBe(404);
    expect((await submit(item.id)).status).toBe(200);
    expect(await runsOf(api, form.id)).toHaveLength(3);
  });

  test('overlapSeconds 0 ends the old token at once; a save turning requireToken off and on ends a window too', async () => {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Now',
      trigger: { type: 'webhook', requireToken: true },
      actions: [],
    });
    const path = pathOf(a.webhook.url);
    const res = await rotate(a.id, { rotate: 'token', overlapSeconds: 0 });
    expect(res.status).toBe(200);
    expect(res.body.item.previousValidUntil).toBe(new Date(now).toISOString());
    expect((await post(path, a.webhook.token)).status).toBe(401);
    expect((await post(path, res.body.item.token)).status).toBe(200);

    const second = await rotate(a.id, { rotate: 'token', overlapSeconds: 3600 });
    const rotated = second.body.item.token as string;
    expect((await post(path, res.body.item.token)).status).toBe(200);
    const definition = (requireToken: boolean) => ({ name: 'Now', trigger: { type: 'webhook', requireToken }, actions: [] });
    expect((await api.put(`/api/v1/automations/${a.id}`, definition(false))).status).toBe(200);
    const on = await api.put(`/api/v1/automations/${a.id}`, definition(true));
    expect(on.status).toBe(200);
    for (const token of [res.body.item.token, rotated]) expect((await post(path, token)).status).toBe(401);
    expect((await post(path, on.body.item.webhook.token)).status).toBe(200);
  });

  test('refusals: bad input 400, no inbound URL or no token 409, not the Owner 403, unknown 404', async () => {
    const open = await createAutomation(api, server.workspaceId, { name: 'Open', trigger: { type: 'webhook' }, actions: [] });
    const bad = [
      [{ rotate: 'password' }, 'rotate'],
      [{}, 'rotate'],
      [{ rotate: 'url', overlapSeconds: 604_801 }, 'overlapSeconds'],
      [{ rotate: 'url', overlapSeconds: -1 }, 'overlapSeconds'],
      [{ rotate: 'url', overlapSeconds: 1.5 }, 'overlapSeconds'],
      [{ rotate: 'url', extra: true }, 'extra'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await rotate(open.id, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_ERROR']);
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    }
    const noToken = await rotate(open.id, { rotate: 'token' });
    expect(noToken.status).toBe(409);
    expect(noToken.body.error.details).toMatchObject({ field: 'rotate', reason: 'no_token' });

    const evented = await createAutomation(api, server.workspaceId, { name: 'Evented', trigger: { type: 'task.added' }, actions: [] });
    const noUrl = await rotate(evented.id, { rotate: 'url' });
    expect(noUrl.status).toBe(409);
    expect(noUrl.body.error.details).toMatchObject({ field: 'rotate', reason: 'no_inbound_url' });

    const participant = client(server, patToken);
    expect((await participant.post(`/api/v1/automations/${open.id}/inbound/rotate`, { rotate: 'url' })).status).toBe(403);
    expect((await rotate('00000000-0000-4000-8000-000000000000', { rotate: 'url' })).status).toBe(404);
    // Nothing changed by the refusals.
    expect((await api.get(`/api/v1/automations/${open.id}`)).body.item.webhook.id).toBe(open.webhook.id);
  });
});
