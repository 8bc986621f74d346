import { call, startServer, type TestServer } from '../helpers/server';

const PASSWORD = 'owner password 1';

/** The `name=value` part of the session cookie a reply sets, and the whole header. */
function sessionCookie(headers: Record<string, string | string[] | undefined>): { pair: string; raw: string } | undefined {
  const raw = ([] as string[]).concat(headers['set-cookie'] ?? []).find((c) => c.startsWith('taskspace_session='));
  return raw === undefined ? undefined : { pair: raw.split(';')[0]!, raw };
}

/**
 * The session probe, `GET /api/v1/auth/session` (docs/api.md "Authentication"): 200 whether or not
 * anyone is signed in, so the web app's first request logs no failed request for a signed-out
 * visitor; a presented bearer token that is wrong is still refused.
 */
describe('GET /api/v1/auth/session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
  });
  afterAll(() => server.close());

  const probe = (headers: Record<string, string> = {}) => call(server.url, 'GET', '/api/v1/auth/session', { headers });

  test('without a credential: 200 signedIn false, not cached, no cookie set', async () => {
    const res = await probe();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, signedIn: false });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(sessionCookie(res.headers)).toBeUndefined();
    // Counted like any other request: the anonymous budget of the address.
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  test('with a session: signedIn true and the caller as GET /me has it; after sign-out, false and the cookie cleared', async () => {
    const signIn = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    const { pair } = sessionCookie(signIn.headers)!;
    const me = await call(server.url, 'GET', '/api/v1/me', { headers: { cookie: pair } });
    const signedIn = await probe({ cookie: pair });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ ok: true, signedIn: true, item: me.body.item });

    expect((await call(server.url, 'POST', '/api/v1/auth/sign-out', { headers: { cookie: pair, origin: server.url } })).status).toBe(200);
    const ended = await probe({ cookie: pair });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ok: true, signedIn: false });
    expect(sessionCookie(ended.headers)!.raw).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);

    const unknown = await probe({ cookie: 'taskspace_session=not-a-session' });
    expect(unknown.body).toEqual({ ok: true, signedIn: false });
  });

  test('with a bearer token: signedIn true; a wrong token is 401 in the error envelope, as everywhere', async () => {
    const withToken = await call(server.url, 'GET', '/api/v1/auth/session', { token: server.token });
    expect(withToken.status).toBe(200);
    expect(withToken.body).toMatchObject({ ok: true, signedIn: true, item: { handle: 'owner' } });
    const wrong = await call(server.url, 'GET', '/api/v1/auth/session', { token: 'tsk_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
  });

  test('is in the OpenAPI document, answering 200 for both cases', async () => {
    const doc = (await call(server.url, 'GET', '/openapi.json')).body;
    const op = doc.paths['/api/v1/auth/session'].get;
    expect(Object.keys(op.responses)).toContain('200');
    expect(op.summary).toMatch(/signed in/);
  });
});
