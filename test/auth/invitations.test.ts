import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

describe('invitations, roles and member removal', () => {
  let now = Date.parse('2026-07-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ clock });
  });
  afterAll(() => server.close());

  const ws = () => `/api/v1/workspaces/${server.workspaceId}`;

  it('invites by email; the link creates an account that joins with the role, once', async () => {
    const owner = client(server, server.token);
    const invited = await owner.post(`${ws()}/invitations`, { email: 'nina@example.org', role: 'Collaborator' });
    expect(invited.status).toBe(200);
    const { token, url, id } = invited.body.item;
    expect(url).toBe(`${server.url}/invite?token=${token}`);
    expect(await dbOf(server).value('SELECT token_hash FROM invitations WHERE id = ?', id)).not.toContain(token);
    const pending = await owner.get(`${ws()}/invitations`);
    expect(pending.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(JSON.stringify(pending.body)).not.toContain(token);

    const preview = await call(server.url, 'POST', '/api/v1/auth/invitations/preview', { body: { token } });
    expect(preview.status).toBe(200);
    const workspaceName = (await owner.get('/api/v1/workspaces')).body.items[0].name;
    expect(preview.body.item).toEqual({
      workspaceName,
      role: 'Collaborator',
      email: 'nina@example.org',
      handle: null,
      expiresAt: new Date(now + 7 * 24 * 3600 * 1000).toISOString(),
    });
    const bogus = await call(server.url, 'POST', '/api/v1/auth/invitations/preview', { body: { token: 'x'.repeat(43) } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.details).toEqual({ field: 'token', reason: 'invalid_link' });

    const joined = await call(server.url, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, handle: 'nina', password: 'nina password 1' },
    });
    expect(joined.status).toBe(200);
    expect(joined.body.item).toMatchObject({ handle: 'nina', workspaceId: server.workspaceId, role: 'Collaborator' });
    const signIn = await call(server.url, 'POST', '/api/v1/auth/sign-in', {
      body: { login: 'nina@example.org', password: 'nina password 1' },
    });
    expect(signIn.status).toBe(200);
    const members = (await owner.get(`${ws()}/members`)).body.items;
    expect(members.find((m: { handle: string }) => m.handle === 'nina').role).toBe('Collaborator');

    const again = await call(server.url, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, handle: 'nina2', password: 'nina password 1' },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual({ field: 'token', reason: 'link_used' });
    const usedPreview = await call(server.url, 'POST', '/api/v1/auth/invitations/preview', { body: { token } });
    expect(usedPreview.body.error.details).toEqual({ field: 'token', reason: 'link_used' });
    // Handles compare without case (users.handle is NOCASE on SQLite, lower() on PostgreSQL).
    expect(await dbOf(server).value("SELECT COUNT(*) AS n FROM users WHERE lower(handle) = 'nina2'")).toBe(0);
    expect((await owner.get(`${ws()}/invitations`)).body.items).toEqual([]);
  });

  it('invites an existing account by handle; only that account may accept; links expire', async () => {
    const owner = client(server, server.token);
    const paulToken = addUser(server, 'paul');
    const otherToken = addUser(server, 'quinn');
    const { token } = (await owner.post(`${ws()}/invitations`, { handle: 'paul', role: 'Viewer' })).body.item;
    const wrong = await client(server, otherToken).post('/api/v1/invitations/accept', { token });
    expect(wrong.status).toBe(403);
    const ok = await client(server, paulToken).post('/api/v1/invitations/accept', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.item).toEqual({ workspaceId: server.workspaceId, role: 'Viewer' });
    expect((await client(server, paulToken).get(`${ws()}/folders`)).status).toBe(200);

    const late = (await owner.post(`${ws()}/invitations`, { handle: 'quinn', role: 'Viewer' })).body.item.token;
    now += 7 * 24 * 3600_000;
    const expired = await client(server, otherToken).post('/api/v1/invitations/accept', { token: late });
    expect(expired.status).toBe(400);
    expect(expired.body.error.details).toEqual({ field: 'token', reason: 'link_expired' });
  });

  it('only Owners invite, change roles and remove; removal ends access at once; the last Owner stays', async () => {
    const owner = client(server, server.token);
    const roseToken = addUser(server, 'rose', { workspaceId: server.workspaceId, role: 'Collaborator' });
    const rose = client(server, roseToken);
    expect((await rose.post(`${ws()}/invitations`, { email: 'x@example.org', role: 'Owner' })).status).toBe(403);
    expect((await rose.patch(`${ws()}/members/rose`, { role: 'Owner' })).status).toBe(403);
    expect((await owner.post(`${ws()}/invitations`, { email: 'x@example.org', handle: 'x', role: 'Viewer' })).status).toBe(400);

    expect((await owner.patch(`${ws()}/members/rose`, { role: 'Viewer' })).status).toBe(200);
    const denied = await rose.post(`${ws()}/folders`, { name: 'not as viewer' });
    expect(denied.status).toBe(403);

    expect((await rose.get(`${ws()}/folders`)).status).toBe(200);
    expect((await owner.delete(`${ws()}/members/rose`)).status).toBe(200);
    expect((await rose.get(`${ws()}/folders`)).status).toBe(404);

    const last = await owner.delete(`${ws()}/members/owner`);
    expect(last.status).toBe(409);
    expect(last.body.error.details).toEqual({ field: 'handle', reason: 'last_owner' });
    expect((await owner.patch(`${ws()}/members/owner`, { role: 'Viewer' })).status).toBe(409);
  });
});
