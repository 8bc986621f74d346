import { addUser, call, client, runCli, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

describe('personal access tokens over the API', () => {
  let now = Date.parse('2026-06-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ clock });
  });
  afterAll(() => server.close());

  it('creates a token shown once, lists it without the token, and revokes it at once', async () => {
    const owner = client(server, server.token);
    const created = await owner.post('/api/v1/tokens', { name: 'laptop' });
    expect(created.status).toBe(200);
    const { token, id } = created.body.item;
    expect(token).toMatch(/^tsk_/);
    expect(created.body.item).toMatchObject({ name: 'laptop', scope: 'write', expiresAt: null, lastUsedAt: null, expired: false });
    const stored = await dbOf(server).value<string>('SELECT token_hash FROM access_tokens WHERE id = ?', id);
    expect(stored).not.toContain(token);

    expect((await client(server, token).get('/api/v1/me')).status).toBe(200);
    const list = await owner.get('/api/v1/tokens');
    expect(list.status).toBe(200);
    const mine = list.body.items.find((t: { id: string }) => t.id === id);
    expect(mine.name).toBe('laptop');
    expect(mine.lastUsedAt).toBe(new Date(now).toISOString());
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(list.body.items.every((t: object) => !('token' in t))).toBe(true);

    // The token was used (and cached) just now; revoking it takes effect on the next request.
    expect((await owner.delete(`/api/v1/tokens/${id}`)).status).toBe(200);
    const revoked = await client(server, token).get('/api/v1/me');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('INVALID_TOKEN');
    expect((await owner.delete(`/api/v1/tokens/${id}`)).status).toBe(404);
    expect((await owner.get('/api/v1/tokens')).body.items.some((t: { id: string }) => t.id === id)).toBe(false);
  });

  it('re-reads a remembered token after a minute, even when nothing said it changed', async () => {
    const created = await client(server, server.token).post('/api/v1/tokens', { name: 'remembered' });
    const { token, id } = created.body.item;
    expect((await client(server, token).get('/api/v1/me')).status).toBe(200);
    // Revoked behind the service's back (no notification, no other SQLite connection): the
    // remembered lookup still answers until it is a minute old (auth/tokens.ts ACTOR_CACHE_MAX_AGE_MS).
    expect(await dbOf(server).run('UPDATE access_tokens SET revoked_at = ? WHERE id = ?', now, id)).toBe(1);
    expect((await client(server, token).get('/api/v1/me')).status).toBe(200);
    now += 60_000;
    const refused = await client(server, token).get('/api/v1/me');
    expect(refused.status).toBe(401);
    expect(refused.body.error.details.reason).toBe('invalid_token');
  });

  it('refuses bad input with 400', async () => {
    const owner = client(server, server.token);
    expect((await owner.post('/api/v1/tokens', { name: '' })).status).toBe(400);
    expect((await owner.post('/api/v1/tokens', { name: 'x', scope: 'admin' })).status).toBe(400);
    const past = await owner.post('/api/v1/tokens', { name: 'x', expiresAt: new Date(now - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toEqual({ field: 'expiresAt', reason: 'in_past' });
  });

  it('an expired token is 401 INVALID_TOKEN with reason token_expired', async () => {
    const created = await client(server, server.token).post('/api/v1/tokens', {
      name: 'short',
      expiresAt: new Date(now + 3600_000).toISOString(),
    });
    const token = created.body.item.token;
    expect((await client(server, token).get('/api/v1/me')).status).toBe(200);
    now += 3600_000;
    const res = await client(server, token).get('/api/v1/me');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'INVALID_TOKEN', details: { reason: 'token_expired' } });
    const listed = (await client(server, server.token).get('/api/v1/tokens')).body.items.find((t: { name: string }) => t.name === 'short');
    expect(listed.expired).toBe(true);
  });

  it('a read-scoped token reads but every write is 403 INSUFFICIENT_SCOPE naming write', async () => {
    const owner = client(server, server.token);
    const reader = client(server, (await owner.post('/api/v1/tokens', { name: 'ro', scope: 'read' })).body.item.token);
    expect((await reader.get(`/api/v1/workspaces/${server.workspaceId}/folders`)).status).toBe(200);
    const writes = [
      await reader.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'nope' }),
      await reader.post('/api/v1/tokens', { name: 'escalate' }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'write' } });
    }
    // Webhook registration (API v2) needs the webhooks scope, which only write tokens carry.
    const v2 = await call(server.url, 'POST', '/api/v2/webhooks', {
      token: (await owner.post('/api/v1/tokens', { name: 'ro2', scope: 'read' })).body.item.token,
      body: {},
    });
    expect(v2.status).toBe(403);
    expect(v2.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { scope: 'webhooks' } });
    expect(await dbOf(server).value("SELECT COUNT(*) AS n FROM folders WHERE name = 'nope'")).toBe(0);
  });

  it('Owners list and revoke the tokens of their members; others cannot', async () => {
    const memberToken = addUser(server, 'mia', { workspaceId: server.workspaceId, role: 'Collaborator' });
    const outsiderToken = addUser(server, 'olaf');
    const member = client(server, memberToken);
    const extra = (await member.post('/api/v1/tokens', { name: 'mia-extra' })).body.item;

    expect((await member.get(`/api/v1/workspaces/${server.workspaceId}/tokens`)).status).toBe(403);
    const all = await client(server, server.token).get(`/api/v1/workspaces/${server.workspaceId}/tokens`);
    expect(all.status).toBe(200);
    const seen = all.body.items.find((t: { id: string }) => t.id === extra.id);
    expect(seen.user.handle).toBe('mia');
    expect(JSON.stringify(all.body)).not.toContain(extra.token);

    expect((await client(server, outsiderToken).delete(`/api/v1/tokens/${extra.id}`)).status).toBe(404);
    expect((await member.get('/api/v1/me')).status).toBe(200);
    expect((await client(server, server.token).delete(`/api/v1/tokens/${extra.id}`)).status).toBe(200);
    expect((await client(server, extra.token).get('/api/v1/me')).status).toBe(401);
    // The CLI still lists tokens.
    expect(runCli(server.dataDir, 'token', 'list', 'mia').out).toContain('mia-extra\t');
  });
});
