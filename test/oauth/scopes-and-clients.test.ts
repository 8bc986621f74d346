import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { hashPassword } from '../../server/src/accounts/passwords';
import { dbOf } from '../helpers/db';
import { OWNER_PASSWORD, authorize, issueTokens, registerClient, signInCookie } from './helpers';

interface Operation {
  method: string;
  path: string;
  tag: string;
}

/** One read and one write operation of every tag of the OpenAPI document, path parameters filled with 'x'. */
function samplePerGroup(document: { paths: Record<string, Record<string, { tags?: string[] }>> }): Operation[] {
  const picked = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0] ?? 'untagged';
      const kind = method === 'get' ? 'read' : 'write';
      const key = `${tag}:${kind}`;
      if (!picked.has(key)) picked.set(key, { method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x'), tag });
    }
  }
  return [...picked.values()].filter((op) => op.path.startsWith('/api/') && !op.path.startsWith('/api/v1/auth/'));
}

describe('OAuth scopes and clients', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
  });
  afterAll(() => server.close());

  it('enforces scopes on a read and a write route of every route group, naming the scope needed', async () => {
    const document = (await call(server.url, 'GET', '/openapi.json')).body;
    const operations = samplePerGroup(document);
    const tags = new Set(operations.map((op) => op.tag));
    for (const tag of ['workspaces', 'projects', 'tasks', 'automations', 'webhooks', 'tokens', 'oauth']) expect(tags).toContain(tag);
    const onlyRead = (await issueTokens(server, cookie, 'read')).access_token;
    const readWrite = (await issueTokens(server, cookie, 'read write')).access_token;
    const onlyWebhooks = (await issueTokens(server, cookie, 'webhooks')).access_token;
    for (const op of operations) {
      const v2 = op.path.startsWith('/api/v2/');
      const refusals: [string, string][] = v2
        ? [[readWrite, 'webhooks']]
        : op.method === 'GET'
          ? [[onlyWebhooks, 'read']]
          : [
              [onlyRead, 'write'],
              [onlyWebhooks, 'write'],
            ];
      for (const [token, scope] of refusals) {
        const res = await call(server.url, op.method, op.path, {
          token,
          body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
        });
        expect({
          op: `${op.method} ${op.path}`,
          status: res.status,
          code: res.body?.error?.code,
          scope: res.body?.error?.details?.scope,
        }).toEqual({
          op: `${op.method} ${op.path}`,
          status: 403,
          code: 'INSUFFICIENT_SCOPE',
          scope,
        });
      }
    }
  });

  it('a granted scope lets the request through to the role checks', async () => {
    const onlyWebhooks = (await issueTokens(server, cookie, 'webhooks')).access_token;
    expect((await client(server, onlyWebhooks).get('/api/v2/webhooks')).status).toBe(200);
    const write = (await issueTokens(server, cookie, 'write')).access_token;
    // write implies read.
    expect((await client(server, write).get('/api/v1/me')).status).toBe(200);
    // Roles still apply: a Viewer's OAuth token with every scope still cannot write.
    addUser(server, 'vivian', { workspaceId: server.workspaceId, role: 'Viewer' });
    await dbOf(server).run('UPDATE users SET password_hash = ? WHERE handle = ?', await hashPassword('vivian password 1'), 'vivian');
    const viewer = (await issueTokens(server, await signInCookie(server, 'vivian', 'vivian password 1'), 'read write')).access_token;
    expect((await client(server, viewer).get(`/api/v1/workspaces/${server.workspaceId}/folders`)).status).toBe(200);
    const refused = await client(server, viewer).post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/plain',
      content: 'No',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });

  it('personal tokens: read reaches no /api/v2 route, write reaches every one', async () => {
    const read = (await client(server, server.token).post('/api/v1/tokens', { name: 'reader', scope: 'read' })).body.item.token;
    const res = await client(server, read).get('/api/v2/webhooks');
    expect(res.status).toBe(403);
    expect(res.body.error.details.scope).toBe('webhooks');
    const write = (await client(server, server.token).post('/api/v1/tokens', { name: 'writer', scope: 'write' })).body.item.token;
    expect((await client(server, write).get('/api/v2/webhooks')).status).toBe(200);
  });

  it('OAuth tokens cannot manage credentials: no personal tokens, clients or grants', async () => {
    const tokens = await issueTokens(server, cookie, 'read write webhooks');
    const app = client(server, tokens.access_token);
    const pat = await app.post('/api/v1/tokens', { name: 'escalate' });
    expect(pat.status).toBe(403);
    expect(pat.body.error.details.reason).toBe('oauth_token_not_allowed');
    expect(
      (
        await app.post(`/api/v1/workspaces/${server.workspaceId}/oauth-clients`, {
          name: 'x',
          redirectUris: ['https://x.example/cb'],
          type: 'public',
        })
      ).status,
    ).toBe(403);
    expect((await app.get('/api/v1/me/oauth-grants')).status).toBe(403);
    // Nor the person's own sign-in: sessions and the password.
    for (const res of [
      await app.get('/api/v1/auth/sessions'),
      await app.delete('/api/v1/auth/sessions/some-session'),
      await app.post('/api/v1/auth/password', { currentPassword: 'owner password 1', newPassword: 'taken over by an app' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.details.reason).toBe('oauth_token_not_allowed');
    }
    expect((await client(server, server.token).get('/api/v1/auth/sessions')).status).toBe(200);
    // Listing tokens shows personal tokens only, never OAuth ones.
    const listed = await client(server, server.token).get('/api/v1/tokens');
    expect(listed.body.items.every((t: { name: string }) => t.name !== 'Example app')).toBe(true);
  });

  it('registers clients (Owners only), checks redirect URIs, never shows a secret twice, and deleting one ends its tokens', async () => {
    const owner = client(server, server.token);
    const path = `/api/v1/workspaces/${server.workspaceId}/oauth-clients`;
    const bad: [unknown, string][] = [
      [['javascript:alert(1)'], 'refused_scheme'],
      [['https://app.example.org/cb#frag'], 'has_fragment'],
      [['not a uri'], 'invalid_uri'],
    ];
    for (const [redirectUris, reason] of bad) {
      const res = await owner.post(path, { name: 'Bad', redirectUris, type: 'public' });
      expect(res.status).toBe(400);
      expect(res.body.error.details.reason).toBe(reason);
    }
    expect((await owner.post(path, { name: 'No URIs', redirectUris: [], type: 'public' })).status).toBe(400);
    expect((await owner.post(path, { name: 'Kind', redirectUris: ['https://a.example/cb'], type: 'trusted' })).status).toBe(400);

    const editor = addUser(server, 'eddie', { workspaceId: server.workspaceId, role: 'Collaborator' });
    const refused = await client(server, editor).post(path, { name: 'Mine', redirectUris: ['https://a.example/cb'], type: 'public' });
    expect(refused.status).toBe(403);
    const outsider = addUser(server, 'olga');
    expect((await client(server, outsider).get(path)).status).toBe(404);

    const made = await owner.post(path, {
      name: 'Native app',
      redirectUris: ['com.example.app:/callback', 'http://127.0.0.1:9000/cb'],
      type: 'public',
    });
    expect(made.status).toBe(200);
    expect(made.body.item).toMatchObject({
      name: 'Native app',
      type: 'public',
      createdBy: 'owner',
      redirectUris: ['com.example.app:/callback', 'http://127.0.0.1:9000/cb'],
    });
    expect(made.body.item.clientSecret).toBeUndefined();

    const confidential = await registerClient(server, { name: 'Server app', type: 'confidential' });
    const listed = await owner.get(path);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(confidential.clientSecret);
    expect(listed.body.items.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Native app', 'Server app']));

    const query = await authorize(server, cookie, { client_id: confidential.id, redirect_uri: confidential.redirectUri });
    const tokens = await call(server.url, 'POST', '/oauth/token', {
      rawBody: new URLSearchParams({
        grant_type: 'authorization_code',
        code: query.get('code')!,
        redirect_uri: confidential.redirectUri,
        client_id: confidential.id,
        client_secret: confidential.clientSecret!,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((await client(server, tokens.body.access_token).get('/api/v1/me')).status).toBe(200);
    expect((await client(server, editor).delete(`/api/v1/oauth-clients/${confidential.id}`)).status).toBe(403);
    expect((await owner.delete(`/api/v1/oauth-clients/${confidential.id}`)).status).toBe(200);
    expect((await client(server, tokens.body.access_token).get('/api/v1/me')).status).toBe(401);
    expect((await owner.delete(`/api/v1/oauth-clients/${confidential.id}`)).status).toBe(404);
  });
});
