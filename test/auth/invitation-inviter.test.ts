import { addUser, call, client, runCli, startServer, type TestServer } from '../helpers/server';

/** docs/accounts.md "Invitations and members": an invitation cannot outlive its inviter's right to invite. */
describe('invitations and their inviter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const ws = () => `/api/v1/workspaces/${server.workspaceId}`;
  const owner = () => client(server, server.token);
  const roleOf = async (handle: string) =>
    ((await owner().get(`${ws()}/members`)).body.items as { handle: string; role: string }[]).find((m) => m.handle === handle)?.role;

  it('an Owner removed from the workspace cannot come back with an invitation they made', async () => {
    const oliviaToken = addUser(server, 'olivia', { workspaceId: server.workspaceId, role: 'Owner' });
    const olivia = client(server, oliviaToken);
    const self = (await olivia.post(`${ws()}/invitations`, { handle: 'olivia', role: 'Owner' })).body.item.token;
    const anyone = (await olivia.post(`${ws()}/invitations`, { email: 'olivia2@example.org', role: 'Owner' })).body.item.token;
    expect((await owner().delete(`${ws()}/members/olivia`)).status).toBe(200);

    // Her pending invitations were withdrawn with her.
    expect((await owner().get(`${ws()}/invitations`)).body.items).toEqual([]);
    const back = await olivia.post('/api/v1/invitations/accept', { token: self });
    expect(back.status).toBe(400);
    expect(back.body.error.details).toEqual({ field: 'token', reason: 'invalid_link' });
    const newAccount = await call(server.url, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token: anyone, handle: 'olivia2', password: 'olivia password 1' },
    });
    expect(newAccount.status).toBe(400);
    expect(newAccount.body.error.details).toEqual({ field: 'token', reason: 'invalid_link' });
    expect(await roleOf('olivia')).toBeUndefined();
    expect(await roleOf('olivia2')).toBeUndefined();
  });

  it("demoting an Owner withdraws their invitations; other Owners' invitations stay", async () => {
    const peterToken = addUser(server, 'peter', { workspaceId: server.workspaceId, role: 'Owner' });
    const peter = client(server, peterToken);
    const his = (await peter.post(`${ws()}/invitations`, { handle: 'peter', role: 'Owner' })).body.item.token;
    const mine = await owner().post(`${ws()}/invitations`, { email: 'kept@example.org', role: 'Viewer' });
    expect((await owner().patch(`${ws()}/members/peter`, { role: 'Collaborator' })).status).toBe(200);
    expect((await owner().get(`${ws()}/invitations`)).body.items.map((i: { id: string }) => i.id)).toEqual([mine.body.item.id]);
    const back = await peter.post('/api/v1/invitations/accept', { token: his });
    expect(back.status).toBe(400);
    expect(await roleOf('peter')).toBe('Collaborator');
  });

  it('accepting checks the inviter again: an inviter demoted outside the API makes the link fail with 403', async () => {
    const quentinToken = addUser(server, 'quentin', { workspaceId: server.workspaceId, role: 'Owner' });
    const link = (await client(server, quentinToken).post(`${ws()}/invitations`, { email: 'friend@example.org', role: 'Owner' })).body.item
      .token;
    // The admin CLI changes the role directly (no withdrawal).
    expect(runCli(server.dataDir, 'member', 'add', server.workspaceId, 'quentin', 'Viewer').code).toBe(0);
    const preview = await call(server.url, 'POST', '/api/v1/auth/invitations/preview', { body: { token: link } });
    expect(preview.status).toBe(403);
    expect(preview.body).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      error: { details: { field: 'token', reason: 'inviter_not_allowed' } },
    });
    const accept = await call(server.url, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token: link, handle: 'friend', password: 'friend password 1' },
    });
    expect(accept.status).toBe(403);
    expect(accept.body.error.details.reason).toBe('inviter_not_allowed');
    expect(accept.body.message).toMatch(/no longer an Owner/);
    expect(await roleOf('friend')).toBeUndefined();
    // Made an Owner again, the inviter's link works.
    expect(runCli(server.dataDir, 'member', 'add', server.workspaceId, 'quentin', 'Owner').code).toBe(0);
    const later = await call(server.url, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token: link, handle: 'friend', password: 'friend password 1' },
    });
    expect(later.status).toBe(200);
    expect(await roleOf('friend')).toBe('Owner');
  });
});
