import { request } from 'undici';
import { call, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

const PASSWORD = 'owner password 1';

async function cookieFor(server: TestServer): Promise<string> {
  const res = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password: PASSWORD } });
  return ([] as string[])
    .concat(res.headers['set-cookie']!)
    .find((c) => c.startsWith('taskspace_session='))!
    .split(';')[0]!;
}

async function folderCount(server: TestServer): Promise<number> {
  return (await dbOf(server).value<number>('SELECT COUNT(*) AS n FROM folders'))!;
}

describe('CSRF protection of cookie-authenticated writes', () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    cookie = await cookieFor(server);
  });
  afterAll(() => server.close());

  const path = () => `/api/v1/workspaces/${server.workspaceId}/folders`;

  it('refuses a cross-site sign-in (login CSRF); same-origin pages and scripts without Origin sign in', async () => {
    const body = { login: 'owner', password: PASSWORD };
    const forged = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body, headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toMatchObject({ code: 'CSRF_REJECTED', details: { field: 'origin', reason: 'cross_origin' } });
    expect(forged.headers['set-cookie']).toBeUndefined();
    const viaReferer = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body, headers: { referer: 'https://evil.example/login' } });
    expect(viaReferer.status).toBe(403);
    expect((await call(server.url, 'POST', '/api/v1/auth/sign-in', { body, headers: { origin: server.url } })).status).toBe(200);
    expect((await call(server.url, 'POST', '/api/v1/auth/sign-in', { body })).status).toBe(200);
  });

  it('refuses a forged cross-site form post', async () => {
    const before = await folderCount(server);
    const res = await request(server.url + path(), {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=pwned',
    });
    const body = (await res.body.json()) as { ok: boolean; error: { code: string; details: unknown } };
    expect(res.statusCode).toBe(403);
    expect(body.error.code).toBe('CSRF_REJECTED');
    expect(body.error.details).toEqual({ field: 'origin', reason: 'cross_origin' });
    expect(await folderCount(server)).toBe(before);
  });

  it('refuses a forged fetch with JSON from another origin, and one with no Origin or Referer', async () => {
    const before = await folderCount(server);
    const forged = await call(server.url, 'POST', path(), { headers: { cookie, origin: 'http://127.0.0.1:1' }, body: { name: 'pwned' } });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('CSRF_REJECTED');
    const bare = await call(server.url, 'POST', path(), { headers: { cookie }, body: { name: 'pwned' } });
    expect(bare.status).toBe(403);
    expect(bare.body.error.details).toEqual({ field: 'referer', reason: 'missing_origin' });
    const badReferer = await call(server.url, 'POST', path(), {
      headers: { cookie, referer: 'https://evil.example/page' },
      body: { name: 'pwned' },
    });
    expect(badReferer.status).toBe(403);
    expect(await folderCount(server)).toBe(before);
  });

  it('accepts same-origin writes (Origin or Referer), cookie reads, and bearer writes without Origin', async () => {
    const byOrigin = await call(server.url, 'POST', path(), { headers: { cookie, origin: server.url }, body: { name: 'a' } });
    expect(byOrigin.status).toBe(200);
    const byReferer = await call(server.url, 'POST', path(), { headers: { cookie, referer: `${server.url}/app/x` }, body: { name: 'b' } });
    expect(byReferer.status).toBe(200);
    expect((await call(server.url, 'GET', path(), { headers: { cookie } })).status).toBe(200);
    const bearer = await call(server.url, 'POST', path(), {
      token: server.token,
      headers: { origin: 'https://evil.example' },
      body: { name: 'c' },
    });
    expect(bearer.status).toBe(200);
    const names = (await dbOf(server).all<{ name: string }>("SELECT name FROM folders WHERE name IN ('a', 'b', 'c')")).map((r) => r.name);
    expect(names.sort()).toEqual(['a', 'b', 'c']);
  });
});

// Sign-in throttling (back-off per account and per address, trusted proxies): sign-in-throttle.test.ts.
