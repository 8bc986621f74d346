import { startServer, call, addUser, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { hashToken } from '../../server/src/auth/tokens';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

/**
 * Email verification (docs "Accounts and sign-in", "Your email address"; issue 39): a new address
 * is the account's only once the link mailed to it is used — once —, the account is then
 * verified and the old address told; until then every mail goes to the old address.
 */

const PASSWORD = 'first password 1';

describe('changing the email address by a mailed link', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  const me = (path = '/api/v1/me/email') => call(server.url, 'GET', path, { token: server.token });
  const change = (email: string, currentPassword = PASSWORD) =>
    call(server.url, 'POST', '/api/v1/me/email', { token: server.token, body: { email, currentPassword } });
  const verify = (token: string) => call(server.url, 'POST', '/api/v1/auth/email/verify', { body: { token } });
  const tokenOf = (mailIndex: number) =>
    new URL(linkIn(smtp.mails[mailIndex]!, `${server.url}/verify-email?token=`)).searchParams.get('token')!;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_MAIL_POLL_MS: '50' },
    });
    await dbOf(server).run("UPDATE users SET email = 'old@example.test', verified = 0 WHERE handle = 'owner'");
    addUser(server, 'nina');
    await dbOf(server).run("UPDATE users SET email = 'nina@example.test' WHERE handle = 'nina'");
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  test('bad requests are refused in the envelope and change nothing', async () => {
    const wrong = await change('new@example.test', 'not my password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toMatchObject({ field: 'currentPassword', reason: 'incorrect' });
    const taken = await change('NINA@example.test');
    expect(taken.status).toBe(409);
    expect(taken.body.error.details).toMatchObject({ field: 'email', reason: 'taken' });
    expect((await change('old@EXAMPLE.test')).body.error.details).toMatchObject({ field: 'email', reason: 'unchanged' });
    expect((await change('not an address')).body.error.details).toMatchObject({ field: 'email', reason: 'invalid_format' });
    const extra = await call(server.url, 'POST', '/api/v1/me/email', {
      token: server.token,
      body: { email: 'x@example.test', currentPassword: PASSWORD, verified: true },
    });
    expect(extra.status).toBe(400);
    expect((await me()).body).toEqual({ ok: true, item: { email: 'old@example.test', pendingEmail: null } });
    expect(await dbOf(server).value('SELECT count(*) FROM email_changes')).toBe(0);
  });

  test('the link confirms the new address once, verifies the account and tells the old address', async () => {
    expect((await call(server.url, 'GET', '/api/v1/me', { token: server.token })).body.item.verified).toBe(false);
    const asked = await change('New@Example.test');
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ ok: true, item: { email: 'old@example.test', pendingEmail: 'New@Example.test' } });

    const [mail] = await smtp.waitForMails(1);
    expect(mail!.to).toMatchObject({ value: [{ address: 'New@example.test' }] });
    expect(mail!.subject).toBe('Confirm your email address for Taskspace');
    const token = tokenOf(0);
    expect(await dbOf(server).value('SELECT count(*) FROM email_changes WHERE token_hash = ?', hashToken(token))).toBe(1);
    expect(await dbOf(server).value('SELECT count(*) FROM email_changes WHERE token_hash = ?', token)).toBe(0);
    await waitFor(
      async () => (await dbOf(server).value("SELECT status FROM mail_outbox WHERE kind = 'email_verification'")) === 'sent',
      'sent',
    );
    expect(await dbOf(server).value("SELECT text_body FROM mail_outbox WHERE kind = 'email_verification'")).toBe('');

    // Opening the link (as a mail scanner does) is the web app's page: it changes nothing.
    const page = await call(server.url, 'GET', `/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect((await me()).body.item).toEqual({ email: 'old@example.test', pendingEmail: 'New@Example.test' });
    // Until the link is used, a password reset still goes to the old address.
    await call(server.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: 'owner' } });
    const [, reset] = await smtp.waitForMails(2);
    expect(reset!.to).toMatchObject({ value: [{ address: 'old@example.test' }] });

    const used = await verify(token);
    expect(used.status).toBe(200);
    expect(used.body).toEqual({ ok: true, item: { email: 'New@Example.test', pendingEmail: null } });
    expect((await me()).body.item).toEqual({ email: 'New@Example.test', pendingEmail: null });
    expect((await call(server.url, 'GET', '/api/v1/me', { token: server.token })).body.item.verified).toBe(true);
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.error.details).toMatchObject({ field: 'token', reason: 'link_used' });

    const [, , notice] = await smtp.waitForMails(3);
    expect(notice!.to).toMatchObject({ value: [{ address: 'old@example.test' }] });
    expect(notice!.subject).toBe('Your Taskspace email address was changed');
    expect(notice!.text).toContain('New@Example.test');
    expect(notice!.text).not.toContain('verify-email');
    // Sign-in by the new address works; the old one is no longer the account's.
    expect(
      (await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'new@example.test', password: PASSWORD } })).status,
    ).toBe(200);
    expect(
      (await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'old@example.test', password: PASSWORD } })).status,
    ).toBe(401);
  });

  test('a newer request replaces the older link; unknown and expired links are refused', async () => {
    const before = smtp.mails.length;
    expect((await change('first@example.test')).status).toBe(200);
    expect((await change('second@example.test')).status).toBe(200);
    await smtp.waitForMails(before + 2);
    const byAddress = (address: string) => smtp.mails.findIndex((m, i) => i >= before && m.to && JSON.stringify(m.to).includes(address));
    const first = tokenOf(byAddress('first@example.test'));
    const second = tokenOf(byAddress('second@example.test'));
    expect((await verify(first)).body.error.details).toMatchObject({ field: 'token', reason: 'link_used' });
    expect((await verify('nope')).body.error.details).toMatchObject({ field: 'token', reason: 'invalid_link' });
    await dbOf(server).run('UPDATE email_changes SET expires_at = 1 WHERE token_hash = ?', hashToken(second));
    expect((await verify(second)).body.error.details).toMatchObject({ field: 'token', reason: 'link_expired' });
    expect((await me()).body.item).toEqual({ email: 'New@Example.test', pendingEmail: null });
  });

  test('an address taken by someone else meanwhile is refused at confirmation', async () => {
    const before = smtp.mails.length;
    expect((await change('shared@example.test')).status).toBe(200);
    await smtp.waitForMails(before + 1);
    const token = tokenOf(before);
    await dbOf(server).run("UPDATE users SET email = 'shared@example.test' WHERE handle = 'nina'");
    const res = await verify(token);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toMatchObject({ field: 'email', reason: 'taken' });
    expect((await me()).body.item.email).toBe('New@Example.test');
  });
});

describe('changing the email address without mail', () => {
  test('no SMTP configured: 409 mail_not_configured, nothing written', async () => {
    const server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    try {
      const res = await call(server.url, 'POST', '/api/v1/me/email', {
        token: server.token,
        body: { email: 'new@example.test', currentPassword: PASSWORD },
      });
      expect(res.status).toBe(409);
      expect(res.body.error.details).toMatchObject({ field: 'email', reason: 'mail_not_configured' });
      expect(await dbOf(server).value('SELECT count(*) FROM email_changes')).toBe(0);
      expect(await dbOf(server).value('SELECT count(*) FROM mail_outbox')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
