import { call, client, startServer, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, basic, issueTokensWithClient, postForm, signInCookie } from './helpers';

/**
 * docs/oauth.md "Threat model": an OAuth app cannot mint itself a wider or longer-lived
 * credential. Membership, invitations, personal tokens, secrets, OAuth clients and grants, and
 * automations with inbound URLs need a session or a personal access token.
 */
describe('OAuth access tokens cannot escalate or outlive their grant', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
  });
  afterAll(() => server.close());

  const ws = () => `/api/v1/workspaces/${server.workspaceId}`;

  it('refuses every first-party route to an OAuth token with 403 oauth_token_not_allowed in the error envelope', async () => {
    const { tokens } = await issueTokensWithClient(server, cookie, 'read write webhooks');
    const routes: [string, string, unknown?][] = [
      ['POST', `${ws()}/invitations`, { email: 'mallory@example.org', role: 'Owner' }],
      ['GET', `${ws()}/invitations`],
      ['DELETE', `${ws()}/invitations/some-invitation`],
      ['POST', '/api/v1/invitations/accept', { token: 'x'.repeat(43) }],
      ['PATCH', `${ws()}/members/owner`, { role: 'Owner' }],
      ['DELETE', `${ws()}/members/someone`],
      ['POST', '/api/v1/tokens', { name: 'escalate' }],
      ['GET', '/api/v1/tokens'],
      ['DELETE', '/api/v1/tokens/some-token'],
      ['GET', `${ws()}/tokens`],
      ['GET', `${ws()}/secrets`],
      ['PUT', `${ws()}/secrets/API_KEY`, { value: 'stolen' }],
      ['DELETE', `${ws()}/secrets/API_KEY`],
      ['POST', `${ws()}/oauth-clients`, { name: 'x', redirectUris: ['https://x.example/cb'], type: 'public' }],
      ['GET', `${ws()}/oauth-clients`],
      ['DELETE', '/api/v1/oauth-clients/some-client'],
      ['GET', '/api/v1/me/oauth-grants'],
      ['DELETE', '/api/v1/me/oauth-grants/some-grant'],
      ['GET', '/api/v1/auth/sessions'],
      ['DELETE', '/api/v1/auth/sessions/some-session'],
      ['POST', '/api/v1/auth/password', { currentPassword: OWNER_PASSWORD, newPassword: 'taken over by an app' }],
      ['GET', '/api/v1/me/email'],
      ['POST', '/api/v1/me/email', { email: 'attacker@example.org', currentPassword: OWNER_PASSWORD }],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(server.url, method, path, { token: tokens.access_token, body });
      expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toMatchObject({
        route: `${method} ${path}`,
        status: 403,
        body: {
          ok: false,
          code: 'FORBIDDEN',
          error: { code: 'FORBIDDEN', details: { field: 'authorization', reason: 'oauth_token_not_allowed' } },
        },
      });
      expect(res.body.message).toMatch(/needs a session or a personal access token/);
    }
    // The member list is an ordinary read.
    expect((await client(server, tokens.access_token).get(`${ws()}/members`)).status).toBe(200);
    // First-party credentials still may: a personal access token invites.
    const invited = await client(server, server.token).post(`${ws()}/invitations`, { email: 'nina@example.org', role: 'Viewer' });
    expect(invited.status).toBe(200);
    expect((await client(server, server.token).get(`${ws()}/secrets`)).status).toBe(200);
  });

  it('refuses inbound URLs (webhook and form triggers) to OAuth tokens on create, save and enable', async () => {
    const { tokens } = await issueTokensWithClient(server, cookie, 'read write');
    const app = client(server, tokens.access_token);
    for (const trigger of [
      { type: 'webhook' },
      { type: 'webhook', requireToken: true },
      { type: 'form', title: 'F', fields: [{ name: 'text', label: 'Feedback', type: 'text' }] },
    ]) {
      const res = await app.post('/api/v1/automations', { workspaceId: server.workspaceId, name: 'Backdoor', trigger, actions: [] });
      expect(res.status).toBe(403);
      expect(res.body.error.details.reason).toBe('oauth_token_not_allowed');
    }
    const made = await app.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Via app',
      trigger: { type: 'task.added' },
      actions: [],
    });
    expect(made.status).toBe(200);
    expect(made.body.item.webhook).toBeUndefined();
    const toWebhook = await app.put(`/api/v1/automations/${made.body.item.id}`, {
      name: 'Via app',
      trigger: { type: 'webhook' },
      actions: [],
    });
    expect(toWebhook.status).toBe(403);
    expect(toWebhook.body.error.details.reason).toBe('oauth_token_not_allowed');

    // An Owner's own webhook automation: the app may neither change it nor turn it back on.
    const owner = client(server, server.token);
    const own = await owner.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Mine',
      trigger: { type: 'webhook' },
      actions: [],
    });
    expect(own.status).toBe(200);
    const changed = await app.put(`/api/v1/automations/${own.body.item.id}`, {
      name: 'Mine',
      trigger: { type: 'webhook' },
      actions: [{ type: 'delay', minutes: 1 }],
    });
    expect(changed.status).toBe(403);
    expect((await owner.post(`/api/v1/automations/${own.body.item.id}/disable`)).status).toBe(200);
    expect((await app.post(`/api/v1/automations/${own.body.item.id}/enable`)).status).toBe(403);
    expect((await app.post(`/api/v1/automations/${own.body.item.id}/disable`)).status).toBe(200);
  });

  it('after the grant is revoked, nothing the app made keeps acting: its tokens fail and its automations are disabled', async () => {
    const { tokens, app: registered } = await issueTokensWithClient(server, cookie, 'read write');
    const app = client(server, tokens.access_token);
    // The attack of the report, step one, is refused; the app can only make ordinary automations.
    expect((await app.post(`${ws()}/invitations`, { email: 'mallory@example.org', role: 'Owner' })).status).toBe(403);
    const made = (
      await app.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'App rule',
        trigger: { type: 'task.added' },
        actions: [],
      })
    ).body.item;
    expect(made).toMatchObject({ enabled: true, owner: { handle: 'owner' } });
    // Saved again by the person, an automation is theirs and survives the app.
    const adopted = (
      await app.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Adopted',
        trigger: { type: 'task.added' },
        actions: [],
      })
    ).body.item;
    expect(
      (
        await client(server, server.token).put(`/api/v1/automations/${adopted.id}`, {
          name: 'Adopted',
          trigger: { type: 'task.added' },
          actions: [],
        })
      ).status,
    ).toBe(200);

    const owner = client(server, server.token);
    const grant = (await owner.get('/api/v1/me/oauth-grants')).body.items.find(
      (g: { client: { id: string } }) => g.client.id === registered.id,
    );
    expect((await owner.delete(`/api/v1/me/oauth-grants/${grant.id}`)).status).toBe(200);

    expect((await app.get('/api/v1/me')).status).toBe(401);
    const refresh = await postForm(
      server,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      basic(registered.id, registered.clientSecret!),
    );
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await owner.get(`/api/v1/automations/${made.id}`)).body.item.enabled).toBe(false);
    expect((await owner.get(`/api/v1/automations/${adopted.id}`)).body.item.enabled).toBe(true);
    // No member, invitation or token was added on the app's behalf.
    expect(
      (await owner.get(`${ws()}/invitations`)).body.items.every((i: { email: string | null }) => i.email !== 'mallory@example.org'),
    ).toBe(true);
  });

  it('deleting a client disables the automations made through it', async () => {
    const { tokens, app: registered } = await issueTokensWithClient(server, cookie, 'read write');
    const made = (
      await client(server, tokens.access_token).post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Client rule',
        trigger: { type: 'task.completed' },
        actions: [],
      })
    ).body.item;
    const owner = client(server, server.token);
    expect((await owner.delete(`/api/v1/oauth-clients/${registered.id}`)).status).toBe(200);
    expect((await owner.get(`/api/v1/automations/${made.id}`)).body.item.enabled).toBe(false);
  });
});
