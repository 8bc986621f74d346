import { request } from 'undici';
import { call, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { verifyPassword } from '../../server/src/accounts/passwords';

async function passwordHash(server: TestServer, handle = 'owner'): Promise<string | null> {
  return (await dbOf(server).value<string | null>('SELECT password_hash FROM users WHERE handle = ?', handle)) as string | null;
}

describe('first-start setup link', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('is made on first start, stored only as a hash, and shows a password form', async () => {
    const token = server.built.bootstrap!.setupToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = (await dbOf(server).all<{ token_hash: string }>('SELECT token_hash FROM setup_links')).map((r) => r.token_hash);
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain(token);
    const res = await call(server.url, 'GET', `/setup?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('@owner');
    expect(res.body).toContain('name="password"');
    const bad = await call(server.url, 'GET', '/setup?token=nope');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('not valid');
  });

  it('refuses a short password, then sets it once through the API; the link is single use', async () => {
    const token = server.built.bootstrap!.setupToken!;
    const short = await call(server.url, 'POST', '/api/v1/auth/setup', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.details).toEqual({ field: 'password', reason: 'too_short' });
    expect(await passwordHash(server)).toBeNull();

    const ok = await call(server.url, 'POST', '/api/v1/auth/setup', { body: { token, password: 'owner password 1' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    expect(await verifyPassword('owner password 1', await passwordHash(server))).toBe(true);

    const again = await call(server.url, 'POST', '/api/v1/auth/setup', { body: { token, password: 'another password' } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'token', reason: 'link_used' } });
    expect(await verifyPassword('owner password 1', await passwordHash(server))).toBe(true);

    const unknown = await call(server.url, 'POST', '/api/v1/auth/setup', { body: { token: 'x'.repeat(43), password: 'another password' } });
    expect(unknown.body.error.details).toEqual({ field: 'token', reason: 'invalid_link' });
  });
});

describe('setup link expiry and the HTML form', () => {
  it('works as a plain form post and expires after 24 hours', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = { now: () => now };
    const server = await startServer({ clock });
    try {
      const token = server.built.bootstrap!.setupToken!;
      const form = await request(`${server.url}/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, password: 'short' }).toString(),
      });
      expect(form.statusCode).toBe(400);
      expect(await form.body.text()).toContain('at least 10');

      now += 24 * 60 * 60 * 1000;
      const late = await call(server.url, 'POST', '/api/v1/auth/setup', { body: { token, password: 'long enough pw' } });
      expect(late.status).toBe(400);
      expect(late.body.error.details).toEqual({ field: 'token', reason: 'link_expired' });
    } finally {
      await server.close();
    }
  });

  it('sets the password from the plain HTML form post', async () => {
    const server = await startServer();
    try {
      const res = await request(`${server.url}/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: server.built.bootstrap!.setupToken!, password: 'form password 1' }).toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
      expect(await res.body.text()).toContain('Password set');
      expect(await verifyPassword('form password 1', await passwordHash(server))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('TASKSPACE_BOOTSTRAP_PASSWORD sets the password and makes no link', async () => {
    const server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: 'scripted password' } });
    try {
      expect(server.built.bootstrap!.setupToken).toBeUndefined();
      expect(await verifyPassword('scripted password', await passwordHash(server))).toBe(true);
      expect(await dbOf(server).value('SELECT COUNT(*) AS n FROM setup_links')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
