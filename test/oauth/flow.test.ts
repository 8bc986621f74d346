import { call, client, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { REFRESH_REUSE_GRACE_SECONDS } from '../../server/src/modules/oauth/model';
import {
  OWNER_PASSWORD,
  authorize,
  authorizeQuery,
  basic,
  consentFields,
  exchangeCode,
  pkcePair,
  postForm,
  registerClient,
  signInCookie,
} from './helpers';

describe('OAuth 2.0 authorization code flow', () => {
  let now = Date.parse('2026-05-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ clock, env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
  });
  afterAll(() => server.close());

  it('publishes RFC 8414 metadata', async () => {
    const res = await call(server.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
      scopes_supported: ['read', 'write', 'webhooks'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('sends a visitor without a session to sign in and back', async () => {
    const app = await registerClient(server, { type: 'public' });
    const path = authorizeQuery({
      response_type: 'code',
      client_id: app.id,
      redirect_uri: app.redirectUri,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
    });
    const res = await call(server.url, 'GET', path);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
  });

  it('never redirects to an unknown client or an unregistered redirect URI', async () => {
    const app = await registerClient(server, { type: 'confidential' });
    const unknown = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: 'nope', redirect_uri: app.redirectUri }),
      { headers: { cookie } },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
    expect(unknown.body).toContain('not registered');
    const elsewhere = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: 'https://evil.example/callback' }),
      { headers: { cookie } },
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.location).toBeUndefined();
    // Exact match: a longer path or an added query is another URI.
    const longer = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: `${app.redirectUri}/x` }),
      { headers: { cookie } },
    );
    expect(longer.status).toBe(400);
  });

  it('tells the client about bad requests by redirecting: PKCE required for public clients, plain refused, unknown scope, response type', async () => {
    const app = await registerClient(server, { type: 'public' });
    const base = { client_id: app.id, redirect_uri: app.redirectUri, state: 's1' };
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'code' }, 'invalid_request'],
      [{ response_type: 'code', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [
        { response_type: 'code', code_challenge: pkcePair().challenge, code_challenge_method: 'S256', scope: 'read admin' },
        'invalid_scope',
      ],
      [{ response_type: 'token', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }, 'unsupported_response_type'],
    ];
    for (const [params, error] of cases) {
      const res = await call(server.url, 'GET', authorizeQuery({ ...base, ...params }), { headers: { cookie } });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.location as string);
      expect(back.origin + back.pathname).toBe(app.redirectUri);
      expect(back.searchParams.get('error')).toBe(error);
      expect(back.searchParams.get('state')).toBe('s1');
    }
  });

  it('public client: consent page, code with PKCE, tokens that work on the API, single-use code', async () => {
    const app = await registerClient(server, { name: 'Pocket <planner>', type: 'public' });
    const { verifier, challenge } = pkcePair();
    const page = await call(
      server.url,
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: app.id,
        redirect_uri: app.redirectUri,
        scope: 'read write',
        state: 'st-1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: { cookie } },
    );
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const html = page.body as string;
    expect(html).toContain('Pocket &lt;planner&gt;');
    expect(html).not.toContain('<planner>');
    expect(html).toContain('@owner');
    expect(html).toMatch(/<strong>read<\/strong>/);
    expect(html).toMatch(/<strong>write<\/strong>/);
    expect(html).not.toMatch(/<strong>webhooks<\/strong>/);
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://app.example.org");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const answer = await postForm(
      server,
      '/oauth/authorize',
      { ...consentFields(html), decision: 'allow' },
      { cookie, origin: server.url },
    );
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.location as string);
    expect(back.origin + back.pathname).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const wrong = await exchangeCode(server, {
      code,
      client_id: app.id,
      redirect_uri: app.redirectUri,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');

    // A failed verification consumed the code (no online guessing); authorize again.
    const again = await authorize(server, cookie, {
      client_id: app.id,
      redirect_uri: app.redirectUri,
      scope: 'read write',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const tokens = await exchangeCode(server, {
      code: again.get('code')!,
      client_id: app.id,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.headers['cache-control']).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'read write' });
    // One hour by default (TASKSPACE_OAUTH_ACCESS_TOKEN_MINUTES), counted from issuing.
    expect(tokens.body.expires_in).toBeGreaterThan(3590);
    expect(tokens.body.expires_in).toBeLessThanOrEqual(3600);
    expect(tokens.body.access_token).toMatch(/^tso_/);
    expect(tokens.body.refresh_token).toMatch(/^tsr_/);

    const me = await client(server, tokens.body.access_token).get('/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.item.handle).toBe('owner');
    const made = await client(server, tokens.body.access_token).post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/plain',
      content: 'Made over OAuth',
    });
    expect(made.status).toBe(200);

    // Only hashes are stored.
    const dump =
      JSON.stringify(await dbOf(server).all('SELECT * FROM access_tokens')) +
      JSON.stringify(await dbOf(server).all('SELECT * FROM oauth_refresh_tokens'));
    expect(dump).not.toContain(tokens.body.access_token);
    expect(dump).not.toContain(tokens.body.refresh_token);

    const reused = await exchangeCode(server, {
      code: again.get('code')!,
      client_id: app.id,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // RFC 6749 section 4.1.2: the tokens issued with a code used twice are revoked.
    expect((await client(server, tokens.body.access_token).get('/api/v1/me')).status).toBe(401);
  });

  it('rotates refresh tokens and revokes the whole family when a rotated one is presented again', async () => {
    const app = await registerClient(server, { type: 'public' });
    const { verifier, challenge } = pkcePair();
    const query = await authorize(server, cookie, {
      client_id: app.id,
      redirect_uri: app.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const first = (
      await exchangeCode(server, { code: query.get('code')!, client_id: app.id, redirect_uri: app.redirectUri, code_verifier: verifier })
    ).body;
    expect(first.scope).toBe('read');

    const second = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: app.id,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect((await client(server, second.body.access_token).get('/api/v1/me')).status).toBe(200);

    const narrower = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: app.id,
      scope: 'read write',
    });
    expect(narrower.status).toBe(400);
    expect(narrower.body.error).toBe('invalid_scope');

    // Past the reuse grace period (a concurrent refresh within it gets a fresh pair instead; refresh-grace.test.ts).
    now += (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000;
    const reuse = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: app.id,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // Theft suspected: every token of the family ends, the newest included.
    expect((await client(server, second.body.access_token).get('/api/v1/me')).status).toBe(401);
    const newest = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: app.id,
    });
    expect(newest.body.error).toBe('invalid_grant');
  });

  it('confidential client: Basic or body authentication; a wrong secret is invalid_client with WWW-Authenticate', async () => {
    const app = await registerClient(server, { type: 'confidential' });
    expect(app.clientSecret).toMatch(/^tss_/);
    const stored = await dbOf(server).value<string>('SELECT secret_hash FROM oauth_clients WHERE id = ?', app.id);
    expect(stored).not.toContain(app.clientSecret);

    const code1 = (await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, state: 'a' })).get('code')!;
    const bad = await exchangeCode(server, { code: code1, redirect_uri: app.redirectUri }, basic(app.id, 'tss_wrong'));
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_client');
    expect(bad.headers['www-authenticate']).toMatch(/^Basic/);
    const missing = await exchangeCode(server, { code: code1, redirect_uri: app.redirectUri, client_id: app.id });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_client');

    const code2 = (await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, state: 'b' })).get('code')!;
    const viaBasic = await exchangeCode(server, { code: code2, redirect_uri: app.redirectUri }, basic(app.id, app.clientSecret!));
    expect(viaBasic.status).toBe(200);
    const code3 = (await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, state: 'c' })).get('code')!;
    const viaBody = await exchangeCode(server, {
      code: code3,
      redirect_uri: app.redirectUri,
      client_id: app.id,
      client_secret: app.clientSecret,
    });
    expect(viaBody.status).toBe(200);
    const refreshed = await postForm(
      server,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: viaBody.body.refresh_token },
      basic(app.id, app.clientSecret!),
    );
    expect(refreshed.status).toBe(200);
    const noSecret = await postForm(server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: app.id,
    });
    expect(noSecret.body.error).toBe('invalid_client');

    const json = await call(server.url, 'POST', '/oauth/token', { body: { grant_type: 'authorization_code', code: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
  });

  it('deny sends access_denied; a cross-site consent post is refused without a redirect', async () => {
    const app = await registerClient(server, { type: 'confidential' });
    const denied = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, state: 'd' }, 'deny');
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe('d');
    expect(denied.get('code')).toBeNull();

    const page = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: app.redirectUri }),
      { headers: { cookie } },
    );
    const forged = await postForm(
      server,
      '/oauth/authorize',
      { ...consentFields(page.body as string), decision: 'allow' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(forged.status).toBe(403);
    expect(forged.headers.location).toBeUndefined();
    const noOrigin = await postForm(server, '/oauth/authorize', { ...consentFields(page.body as string), decision: 'allow' }, { cookie });
    expect(noOrigin.status).toBe(403);
    const anonymous = await postForm(
      server,
      '/oauth/authorize',
      { ...consentFields(page.body as string), decision: 'allow' },
      { origin: server.url },
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.location).toBeUndefined();
  });

  it('remembers a grant, lists it under my authorized apps, and revoking it ends the tokens at once', async () => {
    const app = await registerClient(server, { name: 'Remembered', type: 'confidential' });
    const creds = basic(app.id, app.clientSecret!);
    const first = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri, scope: 'read write' });
    const tokens = (await exchangeCode(server, { code: first.get('code')!, redirect_uri: app.redirectUri }, creds)).body;

    // The same or fewer scopes: no consent page, a code at once.
    const skip = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: app.redirectUri, scope: 'read' }),
      { headers: { cookie } },
    );
    expect(skip.status).toBe(302);
    expect(new URL(skip.headers.location as string).searchParams.get('code')).toBeTruthy();
    // More scopes: consent again.
    const more = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: app.redirectUri, scope: 'read webhooks' }),
      { headers: { cookie } },
    );
    expect(more.status).toBe(200);

    const grants = await client(server, server.token).get('/api/v1/me/oauth-grants');
    const grant = grants.body.items.find((g: { client: { id: string } }) => g.client.id === app.id);
    expect(grant).toMatchObject({ client: { name: 'Remembered', workspaceId: server.workspaceId }, scopes: ['read', 'write'] });
    // An app may not see or revoke grants itself.
    expect((await client(server, tokens.access_token).get('/api/v1/me/oauth-grants')).status).toBe(403);

    expect((await client(server, server.token).delete(`/api/v1/me/oauth-grants/${grant.id}`)).status).toBe(200);
    const after = await client(server, tokens.access_token).get('/api/v1/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_TOKEN');
    const refresh = await postForm(server, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, creds);
    expect(refresh.body.error).toBe('invalid_grant');
    const ask = await call(
      server.url,
      'GET',
      authorizeQuery({ response_type: 'code', client_id: app.id, redirect_uri: app.redirectUri, scope: 'read' }),
      { headers: { cookie } },
    );
    expect(ask.status).toBe(200);
    expect((await client(server, server.token).delete(`/api/v1/me/oauth-grants/${grant.id}`)).status).toBe(404);
  });

  it('access tokens expire (token_expired); the refresh token still works; codes expire too', async () => {
    const app = await registerClient(server, { type: 'confidential' });
    const creds = basic(app.id, app.clientSecret!);
    const query = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri });
    const tokens = (await exchangeCode(server, { code: query.get('code')!, redirect_uri: app.redirectUri }, creds)).body;
    const late = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri });
    now += 61 * 60_000;
    const expired = await client(server, tokens.access_token).get('/api/v1/me');
    expect(expired.status).toBe(401);
    expect(expired.body.error.details.reason).toBe('token_expired');
    const refreshed = await postForm(server, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, creds);
    expect(refreshed.status).toBe(200);
    expect((await client(server, refreshed.body.access_token).get('/api/v1/me')).status).toBe(200);
    const stale = await exchangeCode(server, { code: late.get('code')!, redirect_uri: app.redirectUri }, creds);
    expect(stale.body.error).toBe('invalid_grant');
  });

  it('revokes tokens (RFC 7009): an access token alone, a refresh token with its family; unknown tokens answer 200', async () => {
    const app = await registerClient(server, { type: 'confidential' });
    const creds = basic(app.id, app.clientSecret!);
    const issue = async () => {
      const query = await authorize(server, cookie, { client_id: app.id, redirect_uri: app.redirectUri });
      return (await exchangeCode(server, { code: query.get('code')!, redirect_uri: app.redirectUri }, creds)).body;
    };
    const a = await issue();
    expect((await postForm(server, '/oauth/revoke', { token: a.access_token, token_type_hint: 'access_token' }, creds)).status).toBe(200);
    expect((await client(server, a.access_token).get('/api/v1/me')).status).toBe(401);
    expect((await postForm(server, '/oauth/token', { grant_type: 'refresh_token', refresh_token: a.refresh_token }, creds)).status).toBe(
      200,
    );

    const b = await issue();
    expect((await postForm(server, '/oauth/revoke', { token: b.refresh_token }, creds)).status).toBe(200);
    expect((await client(server, b.access_token).get('/api/v1/me')).status).toBe(401);
    expect(
      (await postForm(server, '/oauth/token', { grant_type: 'refresh_token', refresh_token: b.refresh_token }, creds)).body.error,
    ).toBe('invalid_grant');

    expect((await postForm(server, '/oauth/revoke', { token: 'tso_unknown' }, creds)).status).toBe(200);
    const other = await registerClient(server, { type: 'confidential' });
    const c = await issue();
    expect((await postForm(server, '/oauth/revoke', { token: c.access_token }, basic(other.id, other.clientSecret!))).status).toBe(200);
    expect((await client(server, c.access_token).get('/api/v1/me')).status).toBe(200);
    const unauthenticated = await postForm(server, '/oauth/revoke', { token: c.access_token }, basic(app.id, 'tss_wrong'));
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error).toBe('invalid_client');
  });
});
