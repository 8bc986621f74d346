import net from 'node:net';
import { startServer, call, addUser, type TestServer } from '../helpers/server';
import { dbOf, openStore } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { hashToken } from '../../server/src/auth/tokens';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

/**
 * Forgotten passwords (docs "Accounts and sign-in", "Forgotten password"): the forgot route's one
 * answer, the mailed link that sets a password once and only once and signs out every session,
 * tokens stored hashed, the throttle, and mail that waits on a dead SMTP server without slowing
 * the request.
 */

const PASSWORD = 'first password 1';
const NEW_PASSWORD = 'second password 2';

async function signIn(server: TestServer, password: string): Promise<{ status: number; cookie?: string }> {
  const res = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password } });
  const set = res.headers['set-cookie'];
  const cookie = (Array.isArray(set) ? set[0] : set)?.split(';')[0];
  return { status: res.status, cookie };
}

describe('password reset by mail', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_MAIL_POLL_MS: '50' },
    });
    await dbOf(server).run("UPDATE users SET email = 'owner@example.test' WHERE handle = 'owner'");
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  test('the same answer for an unknown login; a mailed link sets the password once, signs out every session, and is stored hashed', async () => {
    const session = await signIn(server, PASSWORD);
    expect(session.status).toBe(200);

    const unknown = await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'nobody@example.test' } });
    const known = await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'OWNER@example.test' } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({ ok: true });

    const [mail] = await smtp.waitForMails(1);
    expect(mail!.to).toMatchObject({ value: [{ address: 'owner@example.test' }] });
    expect(mail!.subject).toBe('Reset your Taskspace password');
    expect(mail!.html).toContain('/reset-password?token=');
    const link = linkIn(mail!, `${server.url}/reset-password?token=`);
    const token = new URL(link).searchParams.get('token')!;

    const db = dbOf(server);
    // Only the hash is stored, and the sent mail's body no longer holds the link.
    expect(await db.value('SELECT count(*) FROM password_resets WHERE token_hash = ?', hashToken(token))).toBe(1);
    expect(await db.value('SELECT count(*) FROM password_resets WHERE token_hash = ? OR id = ?', token, token)).toBe(0);
    await waitFor(async () => (await db.value("SELECT status FROM mail_outbox WHERE kind = 'password_reset'")) === 'sent', 'sent');
    expect(await db.value("SELECT text_body FROM mail_outbox WHERE kind = 'password_reset'")).toBe('');

    const short = await call(server.url, 'POST', '/api/v1/auth/password/reset', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    const reset = await call(server.url, 'POST', '/api/v1/auth/password/reset', { body: { token, password: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    const again = await call(server.url, 'POST', '/api/v1/auth/password/reset', { body: { token, password: 'third password 3' } });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toMatchObject({ field: 'token', reason: 'link_used' });

    // The session from before is gone; the old password no longer works, the new one does.
    const probe = await call(server.url, 'GET', '/api/v1/auth/sessions', { headers: { cookie: session.cookie! } });
    expect(probe.status).toBe(401);
    expect((await signIn(server, PASSWORD)).status).toBe(401);
    expect((await signIn(server, NEW_PASSWORD)).status).toBe(200);
    expect(smtp.mails).toHaveLength(1);
  });

  test('an unknown or expired link is refused', async () => {
    const bad = await call(server.url, 'POST', '/api/v1/auth/password/reset', { body: { token: 'nope', password: NEW_PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toMatchObject({ field: 'token', reason: 'invalid_link' });
    const before = smtp.mails.length;
    await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'owner' } });
    const [, mail] = await smtp.waitForMails(before + 1).then((m) => [null, m[before]]);
    const token = new URL(linkIn(mail!, `${server.url}/reset-password?token=`)).searchParams.get('token')!;
    await dbOf(server).run('UPDATE password_resets SET expires_at = 1 WHERE token_hash = ?', hashToken(token));
    const expired = await call(server.url, 'POST', '/api/v1/auth/password/reset', { body: { token, password: NEW_PASSWORD } });
    expect(expired.body.error.details).toMatchObject({ field: 'token', reason: 'link_expired' });
  });

  test('throttled per login the same way whether or not the account exists', async () => {
    const statuses = async (login: string) => {
      const out: number[] = [];
      for (let i = 0; i < 7; i++) out.push((await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login } })).status);
      return out;
    };
    addUser(server, 'nina');
    await dbOf(server).run("UPDATE users SET email = 'nina@example.test' WHERE handle = 'nina'");
    const known = await statuses('nina@example.test');
    const unknown = await statuses('ghost@example.test');
    expect(known).toEqual(unknown);
    expect(known.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(known).toContain(429);
    // At most three reset mails an hour for the account, whatever was asked.
    const nina = await dbOf(server).value<number>(
      "SELECT count(*) FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.handle = 'nina'",
    );
    expect(nina).toBe(3);
  });
});

describe('password reset without working mail', () => {
  test('no SMTP configured: the same 200, nothing queued', async () => {
    const server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    try {
      await dbOf(server).run("UPDATE users SET email = 'owner@example.test' WHERE handle = 'owner'");
      const res = await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'owner' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await dbOf(server).value('SELECT count(*) FROM mail_outbox')).toBe(0);
    } finally {
      await server.close();
    }
  });

  test('an SMTP server that never answers delays the mail, not the request', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const server = await startServer({
      env: { TASKSPACE_SMTP_URL: `smtp://127.0.0.1:${port}`, TASKSPACE_MAIL_TIMEOUT_MS: '60000', TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD },
    });
    try {
      await dbOf(server).run("UPDATE users SET email = 'owner@example.test' WHERE handle = 'owner'");
      const res = await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'owner' } });
      expect(res.status).toBe(200);
      // The sender is connected and waiting for a greeting that never comes; requests go on.
      await waitFor(() => sockets.size > 0, 'the sender to connect');
      const started = Date.now();
      for (let i = 0; i < 5; i++) expect((await call(server.url, 'GET', '/api/v1/workspaces', { token: server.token })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await dbOf(server).value("SELECT status FROM mail_outbox WHERE kind = 'password_reset'")).toBe('sending');
      // Stopping ends the conversation at once (not after the 60 s timeout); the mail stays queued, unattempted.
      const stopping = Date.now();
      await server.close();
      expect(Date.now() - stopping).toBeLessThan(10_000);
      const store = openStore(server.dataDir);
      try {
        expect(await store.db.get("SELECT status, attempts FROM mail_outbox WHERE kind = 'password_reset'")).toEqual({
          status: 'pending',
          attempts: 0,
        });
      } finally {
        await store.close();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
