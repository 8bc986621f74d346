import { startServer, call, type TestServer } from '../helpers/server';
import { dbOf, openStore } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { makeCertificate } from '../webhooks/receiver';
import { enqueueMail } from '../../server/src/modules/mail/outbox';
import { renderMail } from '../../server/src/modules/mail/templates/layout';
import { startSmtp, type TestSmtp } from './smtp';

/**
 * The mail outbox and its sender (docs/email.md "Delivery") against a real SMTP server on
 * loopback: a queued mail goes out once with both bodies and its Message-ID, over STARTTLS or
 * implicit TLS with AUTH; with the SMTP server down it waits (retried with back-off) while
 * requests are answered as usual, and goes out once the server is back.
 */

const FAST_RETRY = { TASKSPACE_MAIL_RETRY_BASE_MS: '100', TASKSPACE_MAIL_RETRY_MAX_MS: '300', TASKSPACE_MAIL_POLL_MS: '50' };

/** Queues one mail on `server` through the outbox, as the service's own code does. */
async function queue(server: TestServer, to: string, subject: string): Promise<string> {
  const { services } = server.built;
  const body = renderMail({
    subject,
    title: subject,
    paragraphs: ['Hello <there> & welcome'],
    action: { label: 'Open', url: 'http://x/y?a=1&b=2' },
  });
  const id = await services.store.run(
    enqueueMail(
      services.store.sql,
      services.config,
      { kind: 'test', to: [to], subject, text: body.text, html: body.html },
      services.clock.now(),
    ),
  );
  services.signals?.notify('mail');
  return id;
}

describe('mail outbox', () => {
  let smtp: TestSmtp | undefined;
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    await smtp?.stop();
    server = undefined;
    smtp = undefined;
  });

  test('STARTTLS: a queued mail goes out once with text and HTML bodies, the From and its Message-ID; the row is marked sent', async () => {
    smtp = await startSmtp({ tls: makeCertificate() });
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_MAIL_FROM: 'Taskspace <robot@example.test>', ...FAST_RETRY },
    });
    const id = await queue(server, 'ann@example.test', 'Hello Ann');
    const [mail] = await smtp.waitForMails(1);
    expect(mail!.subject).toBe('Hello Ann');
    expect(mail!.from?.value[0]).toMatchObject({ name: 'Taskspace', address: 'robot@example.test' });
    expect(mail!.text).toContain('Hello <there> & welcome');
    expect(mail!.text).toContain('Open: http://x/y?a=1&b=2');
    expect(mail!.html).toContain('Hello &lt;there&gt; &amp; welcome');
    expect(mail!.messageId).toBe(`<${id}@example.test>`);
    expect(smtp.lastSecure()).toBe(true);
    const db = dbOf(server);
    await waitFor(async () => (await db.value('SELECT status FROM mail_outbox WHERE id = ?', id)) === 'sent', 'the mail marked sent');
    expect(await db.value('SELECT attempts FROM mail_outbox WHERE id = ?', id)).toBe(1);
    expect(smtp.mails).toHaveLength(1);
  });

  test('implicit TLS with AUTH (smtps://user:pass@…)', async () => {
    smtp = await startSmtp({ tls: makeCertificate(), secure: true, auth: { user: 'mailer', pass: 's3cret pass' } });
    expect(smtp.url).toMatch(/^smtps:\/\/mailer:s3cret%20pass@/);
    server = await startServer({ env: { TASKSPACE_SMTP_URL: smtp.url, ...FAST_RETRY } });
    await queue(server, 'bob@example.test', 'Over TLS');
    const [mail] = await smtp.waitForMails(1);
    expect(mail!.subject).toBe('Over TLS');
    expect(smtp.lastSecure()).toBe(true);
  });

  test('SMTP down: mails wait, retried with back-off, requests are not slowed; once it is back each goes out once', async () => {
    smtp = await startSmtp();
    await smtp.stop();
    server = await startServer({ env: { TASKSPACE_SMTP_URL: smtp.url, ...FAST_RETRY } });
    const db = dbOf(server);
    const ids = [await queue(server, 'c1@example.test', 'One'), await queue(server, 'c2@example.test', 'Two')];
    await waitFor(
      async () => ((await db.value<number>('SELECT min(attempts) FROM mail_outbox')) ?? 0) >= 2,
      'two failed attempts of each mail',
    );
    const row = await db.get<{ status: string; last_error: string }>('SELECT status, last_error FROM mail_outbox WHERE id = ?', ids[0]);
    expect(['pending', 'sending']).toContain(row!.status);
    expect(row!.last_error).toMatch(/ECONNREFUSED|ESOCKET|connect/i);
    // Requests go on as usual meanwhile.
    expect((await call(server.url, 'GET', '/api/v1/workspaces', { token: server.token })).status).toBe(200);
    await smtp.start();
    await smtp.waitForMails(2);
    await waitFor(async () => (await db.value<number>("SELECT count(*) FROM mail_outbox WHERE status = 'sent'")) === 2, 'both sent');
    expect(smtp.mails.map((m) => m.subject).sort()).toEqual(['One', 'Two']);
  });

  test("without TASKSPACE_SMTP_URL a mail for the service's server is given up, nothing is tried", async () => {
    server = await startServer();
    expect(server.built.services.config.mail.smtpUrl).toBeUndefined();
    const id = await queue(server, 'd@example.test', 'Never');
    const db = dbOf(server);
    await waitFor(async () => (await db.value('SELECT status FROM mail_outbox WHERE id = ?', id)) === 'failed', 'the mail given up');
    expect(await db.value('SELECT last_error FROM mail_outbox WHERE id = ?', id)).toMatch(/no TASKSPACE_SMTP_URL/);
  });

  test('the leader deletes done mails older than the log retention, and keeps the rest', async () => {
    const first = await startServer();
    await first.close();
    const store = openStore(first.dataDir);
    const insert = (id: string, status: string, createdAt: number) =>
      store.db.run(
        `INSERT INTO mail_outbox (id, message_id, kind, to_json, subject, text_body, status, next_attempt_at, created_at)
         VALUES (?, ?, 'test', '[]', 's', 't', ?, ?, ?)`,
        id,
        `<${id}@x>`,
        status,
        createdAt,
        createdAt,
      );
    try {
      await insert('old-sent', 'sent', 1);
      await insert('old-failed', 'failed', 1);
      await insert('old-pending', 'pending', Date.now() + 86_400_000 * 365);
      await insert('new-sent', 'sent', Date.now());
    } finally {
      await store.close();
    }
    server = await startServer({ dataDir: first.dataDir });
    const db = dbOf(server);
    await waitFor(async () => (await db.value<number>('SELECT count(*) FROM mail_outbox')) === 2, 'the old done mails deleted');
    expect((await db.all<{ id: string }>('SELECT id FROM mail_outbox ORDER BY id')).map((r) => r.id)).toEqual(['new-sent', 'old-pending']);
  });
});
