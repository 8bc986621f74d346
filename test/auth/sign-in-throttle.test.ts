import { ConfigError, loadConfig } from '../../server/src/config';
import { hashPasswordSync } from '../../server/src/accounts/passwords';
import { SIGN_IN_FORGET_MS, SignInThrottle } from '../../server/src/accounts/sign-in-throttle';
import { addUser, call, startServer, type Reply, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

/**
 * Sign-in throttling (docs "Accounts and sign-in", "Sign-in throttling"): exponential back-off
 * per account (all its names) and per caller address, the client address taken from
 * X-Forwarded-For only from trusted proxies (TASKSPACE_TRUST_PROXY). Time is moved with the
 * injected clock, never slept.
 */

// Each checked attempt costs a full scrypt hash (32 MiB); some tests make twenty of them.
jest.setTimeout(90_000);

const PASSWORD = 'owner password 1';
const WRONG = 'wrong password';
const T0 = Date.parse('2026-05-01T00:00:00Z');

/** A server with a clock the test moves by hand (`clock.now += ms`). */
async function serverWithClock(env: Record<string, string> = {}): Promise<{ server: TestServer; clock: { now: number } }> {
  const clock = { now: T0 };
  const server = await startServer({ clock: { now: () => clock.now }, env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, ...env } });
  return { server, clock };
}

/** One sign-in attempt, from `forwardedFor` when given (as a proxy would send it). */
function signIn(server: TestServer, login: string, password: string, forwardedFor?: string): Promise<Reply> {
  const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  return call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login, password }, headers });
}

/** Expects the 429 of the sign-in throttle, in the error envelope, asking to wait `seconds`. */
function expectDelayed(res: Reply, seconds: number, field = 'password'): void {
  expect(res.status).toBe(429);
  expect(res.headers['retry-after']).toBe(String(seconds));
  expect(res.body).toMatchObject({
    ok: false,
    code: 'RATE_LIMITED',
    message: `too many failed sign-in attempts; try again in ${seconds} seconds`,
    error: {
      code: 'RATE_LIMITED',
      message: `too many failed sign-in attempts; try again in ${seconds} seconds`,
      details: { field, reason: 'too_many_failures' },
    },
  });
}

describe('sign-in back-off per account', () => {
  let server: TestServer;
  let clock: { now: number };
  beforeEach(async () => {
    ({ server, clock } = await serverWithClock());
  });
  afterEach(() => server.close());

  it('after 5 free failures the right password signs in once the 1 s delay has passed, not after 15 minutes', async () => {
    for (let i = 0; i < 6; i += 1) expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
    expectDelayed(await signIn(server, 'owner', PASSWORD), 1);
    clock.now += 1000;
    expect((await signIn(server, 'owner', PASSWORD)).status).toBe(200);
    // A success forgets the account's failures: the next five are free again.
    for (let i = 0; i < 5; i += 1) expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
  });

  it('answers an attempt inside the delay with 429 and Retry-After, doubling the delay per failure up to 60 s', async () => {
    for (let i = 0; i < 6; i += 1) expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
    for (const seconds of [1, 2, 4, 8, 16, 32, 60, 60]) {
      expectDelayed(await signIn(server, 'owner', WRONG), seconds);
      clock.now += seconds * 1000 - 500;
      // Still inside: refused (rounded up to whole seconds) and not counted.
      expectDelayed(await signIn(server, 'owner', PASSWORD), 1);
      clock.now += 500;
      expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
    }
    expectDelayed(await signIn(server, 'owner', PASSWORD), 60);
    clock.now += 60_000;
    expect((await signIn(server, 'owner', PASSWORD)).status).toBe(200);
  });

  it('counts failures by handle and by email against the same account', async () => {
    await dbOf(server).run("UPDATE users SET email = 'owner@example.org' WHERE handle = 'owner'");
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
      expect((await signIn(server, 'Owner@Example.org', WRONG)).status).toBe(401);
    }
    expectDelayed(await signIn(server, 'OWNER', PASSWORD), 1);
    expectDelayed(await signIn(server, 'owner@example.org', PASSWORD), 1);
    // Unknown logins are throttled by their text, like accounts are (nothing tells them apart).
    for (let i = 0; i < 6; i += 1) expect((await signIn(server, 'Ghost', WRONG)).status).toBe(401);
    expectDelayed(await signIn(server, 'ghost', WRONG), 1);
    clock.now += 1000;
    expect((await signIn(server, 'owner@example.org', PASSWORD)).status).toBe(200);
  });

  it('counts wrong current passwords of a password change against the same account as sign-ins by email', async () => {
    await dbOf(server).run("UPDATE users SET email = 'owner@example.org' WHERE handle = 'owner'");
    const change = (currentPassword: string) =>
      call(server.url, 'POST', '/api/v1/auth/password', {
        token: server.token,
        body: { currentPassword, newPassword: 'a new password 1' },
      });
    for (let i = 0; i < 6; i += 1) expect((await change(WRONG)).status).toBe(400);
    expectDelayed(await change(PASSWORD), 1, 'currentPassword');
    expectDelayed(await signIn(server, 'owner@example.org', PASSWORD), 1);
    clock.now += 1000;
    expect((await change(PASSWORD)).status).toBe(200);
  });

  it('lets only one of many attempts sent at once past the free failures be checked', async () => {
    for (let i = 0; i < 5; i += 1) expect((await signIn(server, 'owner', WRONG)).status).toBe(401);
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => signIn(server, 'owner', WRONG)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('slows one address spraying many accounts after 20 free failures; the delay is short', async () => {
    for (let i = 0; i < 21; i += 1) expect((await signIn(server, `user${i}`, WRONG)).status).toBe(401);
    expectDelayed(await signIn(server, 'owner', PASSWORD), 1);
    clock.now += 1000;
    expect((await signIn(server, 'owner', PASSWORD)).status).toBe(200);
    // The success does not clear the address's earlier failures: the next one waits 2 s.
    expect((await signIn(server, 'user99', WRONG)).status).toBe(401);
    expectDelayed(await signIn(server, 'user100', WRONG), 2);
  });
});

describe('client addresses behind a proxy (TASKSPACE_TRUST_PROXY)', () => {
  it('with a trusted proxy, failures from many clients against one account do not stop another account signing in', async () => {
    const { server } = await serverWithClock({ TASKSPACE_TRUST_PROXY: '127.0.0.1' });
    try {
      addUser(server, 'bea');
      await dbOf(server).run('UPDATE users SET password_hash = ? WHERE handle = ?', hashPasswordSync('bea password 1'), 'bea');
      // 10 clients guess the owner's password (past 5 free failures the account waits), 15 more
      // spray unknown logins, each from its own address: 21 failures, more than one address's free ones.
      for (let i = 0; i < 10; i += 1) expect([401, 429]).toContain((await signIn(server, 'owner', WRONG, `198.51.100.${i}`)).status);
      for (let i = 0; i < 15; i += 1) expect((await signIn(server, `user${i}`, WRONG, `203.0.113.${i}`)).status).toBe(401);
      expect((await signIn(server, 'bea', 'bea password 1', '192.0.2.7')).status).toBe(200);
      expectDelayed(await signIn(server, 'owner', PASSWORD, '192.0.2.8'), 1);
    } finally {
      await server.close();
    }
  });

  it('with a trusted proxy, one forwarded address spraying accounts is slowed on its own', async () => {
    const { server } = await serverWithClock({ TASKSPACE_TRUST_PROXY: '127.0.0.0/8, ::1' });
    try {
      for (let i = 0; i < 21; i += 1) expect((await signIn(server, `spray${i}`, WRONG, '192.0.2.66')).status).toBe(401);
      expectDelayed(await signIn(server, 'spray99', WRONG, '192.0.2.66'), 1);
      expect((await signIn(server, 'owner', PASSWORD, '192.0.2.67')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: every attempt counts against the peer address', async () => {
    const { server } = await serverWithClock();
    try {
      for (let i = 0; i < 21; i += 1) expect((await signIn(server, `user${i}`, WRONG, `203.0.113.${i}`)).status).toBe(401);
      expectDelayed(await signIn(server, 'owner', PASSWORD, '192.0.2.7'), 1);
    } finally {
      await server.close();
    }
  });

  it('a hop count trusts that many proxies next to the server and takes the client from there', async () => {
    const { server } = await serverWithClock({ TASKSPACE_TRUST_PROXY: '1' });
    try {
      // The client's own (forged) entry is left of what the one trusted proxy appended.
      for (let i = 0; i < 21; i += 1) expect((await signIn(server, `user${i}`, WRONG, `10.9.9.${i}, 192.0.2.66`)).status).toBe(401);
      expectDelayed(await signIn(server, 'owner', PASSWORD, '10.9.9.200, 192.0.2.66'), 1);
      expect((await signIn(server, 'owner', PASSWORD, '192.0.2.67')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('TASKSPACE_TRUST_PROXY configuration', () => {
  it('accepts true, false, a hop count or a list of addresses and CIDR ranges; off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TASKSPACE_TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TASKSPACE_TRUST_PROXY: 'False' }).trustProxy).toBe(false);
    expect(loadConfig({ TASKSPACE_TRUST_PROXY: 'TRUE' }).trustProxy).toBe(true);
    expect(loadConfig({ TASKSPACE_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TASKSPACE_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else at startup, naming the variable', async () => {
    for (const bad of ['yes please', '-1', '1.5', '10.0.0.0/33', '10.0.0.1,proxy.internal', '300.1.1.1', '10.0.0.1/8/1', '12345678901']) {
      expect(() => loadConfig({ TASKSPACE_TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TASKSPACE_TRUST_PROXY: bad })).toThrow(
        /^TASKSPACE_TRUST_PROXY must be true, false, a whole number of hops/,
      );
    }
    await expect(startServer({ env: { TASKSPACE_TRUST_PROXY: 'everyone' } })).rejects.toThrow(ConfigError);
  });
});

describe('SignInThrottle memory', () => {
  it('keeps at most its bound of buckets, dropping the least recently used, and forgets idle ones', () => {
    const clock = { now: T0 };
    const throttle = new SignInThrottle({ now: () => clock.now }, 10);
    for (let i = 0; i < 1000; i += 1) expect(throttle.take(`login:user${i}`, `10.0.${i >> 8}.${i & 255}`)).toBe(0);
    expect(throttle.size).toBeLessThanOrEqual(10);
    // A bucket in use stays while others come and go.
    for (let i = 0; i < 6; i += 1) {
      expect(throttle.take('user:hot', `192.0.2.${i}`)).toBe(0);
      throttle.take(`login:other${i}`, `198.51.100.${i}`);
    }
    expect(throttle.take('user:hot', '192.0.2.99')).toBe(1);
    clock.now += SIGN_IN_FORGET_MS;
    expect(throttle.take('user:hot', '192.0.2.99')).toBe(0);
  });
});
