import { request } from 'undici';
import { call, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

const PASSWORD = 'owner password 1';

/** The `name=value` part of the session cookie in a reply's set-cookie header, and the whole header. */
function sessionCookie(headers: Record<string, string | string[] | undefined>): { pair: string; raw: string } {
  const all = ([] as string[]).concat(headers['set-cookie'] ?? []);
  const raw = all.find((c) => c.startsWith('taskspace_session='))!;
  return { pair: raw.split(';')[0]!, raw };
}

async function signIn(server: TestServer, login = 'owner', password = PASSWORD) {
  return call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login, password } });
}

function withCookie(server: TestServer, cookie: string, extra: Record<string, string> = {}) {
  const headers = { cookie, origin: server.url, ...extra };
  return {
    get: (p: string) => call(server.url, 'GET', p, { headers }),
    post: (p: string, body?: unknown) => call(server.url, 'POST', p, { headers, body }),
    delete: (p: string) => call(server.url, 'DELETE', p, { headers }),
  };
}

describe('sessions', () => {
  let now = Date.parse('2026-03-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      clock,
      env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_SESSION_IDLE_MINUTES: '60', TASKSPACE_SESSION_MAX_DAYS: '2' },
    });
  });
  afterAll(() => server.close());

  it('signs in with handle or email, sets a hardened cookie, and the cookie authenticates the API', async () => {
    const res = await signIn(server);
    expect(res.status).toBe(200);
    expect(res.body.item.user.handle).toBe('owner');
    const { pair, raw } = sessionCookie(res.headers);
    expect(pair).toMatch(/^taskspace_session=[A-Za-z0-9_-]{43}$/);
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).toMatch(/Path=\//);
    expect(raw).not.toMatch(/Secure/i);
    const stored = (await dbOf(server).all<{ secret_hash: string }>('SELECT secret_hash FROM sessions')).map((r) => r.secret_hash);
    expect(stored.join()).not.toContain(pair.split('=')[1]);

    const me = await withCookie(server, pair).get('/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.item.handle).toBe('owner');
    const v2 = await call(server.url, 'GET', '/api/v2/workspaces', { headers: { cookie: pair } });
    expect(v2.status).not.toBe(401);

    await dbOf(server).run("UPDATE users SET email = 'owner@example.org' WHERE handle = 'owner'");
    expect((await signIn(server, 'OWNER@example.org')).status).toBe(200);
  });

  it('gives the same generic 401 for an unknown user and a wrong password', async () => {
    const unknown = await signIn(server, 'nobody', PASSWORD);
    const wrong = await signIn(server, 'owner', 'wrong password!');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.error).toEqual(wrong.body.error);
    expect(wrong.body.error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'wrong login or password' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('lists my sessions marking the current one, revokes one, and signs out', async () => {
    const a = sessionCookie((await signIn(server)).headers).pair;
    const b = sessionCookie((await signIn(server)).headers).pair;
    const list = await withCookie(server, a).get('/api/v1/auth/sessions');
    expect(list.status).toBe(200);
    const current = list.body.items.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    const bId = (await withCookie(server, b).get('/api/v1/auth/sessions')).body.items.find((s: { current: boolean }) => s.current).id;
    expect(current[0].id).not.toBe(bId);
    expect(JSON.stringify(list.body)).not.toContain(a.split('=')[1]);

    expect((await withCookie(server, a).delete(`/api/v1/auth/sessions/${bId}`)).status).toBe(200);
    const ended = await withCookie(server, b).get('/api/v1/me');
    expect(ended.status).toBe(401);
    expect(ended.body.error.details).toEqual({ field: 'cookie', reason: 'session_expired' });
    expect((await withCookie(server, a).delete(`/api/v1/auth/sessions/${bId}`)).status).toBe(404);

    const out = await withCookie(server, a).post('/api/v1/auth/sign-out');
    expect(out.status).toBe(200);
    expect(sessionCookie(out.headers).raw).toMatch(/taskspace_session=;/);
    expect((await withCookie(server, a).get('/api/v1/me')).status).toBe(401);
  });

  it('ends a session after the idle time and after the absolute lifetime', async () => {
    const idle = sessionCookie((await signIn(server)).headers).pair;
    now += 59 * 60_000;
    expect((await withCookie(server, idle).get('/api/v1/me')).status).toBe(200);
    now += 59 * 60_000; // used 59 min ago: still alive
    expect((await withCookie(server, idle).get('/api/v1/me')).status).toBe(200);
    now += 61 * 60_000;
    expect((await withCookie(server, idle).get('/api/v1/me')).status).toBe(401);

    // Used every 50 minutes (never idle), it still ends 2 days after sign-in.
    const signedInAt = now;
    const busy = sessionCookie((await signIn(server)).headers).pair;
    while (now + 50 * 60_000 < signedInAt + 2 * 86_400_000) {
      now += 50 * 60_000;
      expect((await withCookie(server, busy).get('/api/v1/me')).status).toBe(200);
    }
    now += 50 * 60_000;
    expect((await withCookie(server, busy).get('/api/v1/me')).status).toBe(401);
  });

  it('a password change needs the current password and ends my other sessions', async () => {
    const mine = sessionCookie((await signIn(server)).headers).pair;
    const other = sessionCookie((await signIn(server)).headers).pair;
    const bad = await withCookie(server, mine).post('/api/v1/auth/password', {
      currentPassword: 'not it at all',
      newPassword: 'new password 22',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ field: 'currentPassword', reason: 'incorrect' });
    const ok = await withCookie(server, mine).post('/api/v1/auth/password', { currentPassword: PASSWORD, newPassword: 'new password 22' });
    expect(ok.status).toBe(200);
    expect((await withCookie(server, mine).get('/api/v1/me')).status).toBe(200);
    expect((await withCookie(server, other).get('/api/v1/me')).status).toBe(401);
    expect((await signIn(server, 'owner', PASSWORD)).status).toBe(401);
    expect((await signIn(server, 'owner', 'new password 22')).status).toBe(200);
  });
});

describe('a short idle time (TASKSPACE_SESSION_IDLE_MINUTES=1)', () => {
  let now = Date.parse('2026-03-01T00:00:00Z');
  const clock = { now: () => now };
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ clock, env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_SESSION_IDLE_MINUTES: '1' } });
  });
  afterAll(() => server.close());

  it('never ends a session used every 30 s; ends it a minute after its last use', async () => {
    const cookie = sessionCookie((await signIn(server)).headers).pair;
    for (let i = 1; i <= 10; i++) {
      now += 30_000;
      expect([i * 30, (await withCookie(server, cookie).get('/api/v1/me')).status]).toEqual([i * 30, 200]);
    }
    now += 44_000; // a use 44 s after the last one is still within the idle time
    expect((await withCookie(server, cookie).get('/api/v1/me')).status).toBe(200);
    now += 60_000;
    expect((await withCookie(server, cookie).get('/api/v1/me')).status).toBe(401);
  });
});

describe('session cookie behind https', () => {
  it('is Secure when TASKSPACE_PUBLIC_URL is https', async () => {
    const server = await startServer({
      env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_PUBLIC_URL: 'https://tasks.example.org' },
    });
    try {
      const res = await request(`${server.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'owner', password: PASSWORD }),
      });
      await res.body.text();
      expect(sessionCookie(res.headers).raw).toMatch(/; Secure/i);
    } finally {
      await server.close();
    }
  });
});
