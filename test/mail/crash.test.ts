import { runCli, spawnServer, call, tempDataDir, type ChildServer } from '../helpers/server';
import { openStore } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { startSmtp, type TestSmtp } from './smtp';

/**
 * kill -9 of the mail sender (docs/email.md "Delivery"): a server process is killed while one mail
 * is in the SMTP server's hands (DATA received, not yet accepted) and others wait in the outbox.
 * After a restart on the same data every mail arrives exactly once: none lost, none doubled
 * (counted by Message-ID and by recipient).
 */

const USERS = ['ann', 'ben', 'cat', 'dan', 'eve'];

describe('mail across a kill -9 of the sender', () => {
  let smtp: TestSmtp;
  let child: ChildServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await child?.stop('SIGKILL');
    await smtp.stop();
  });

  test('the mail in flight and the queued ones each arrive once after the restart', async () => {
    const dataDir = tempDataDir();
    const env = {
      TASKSPACE_SMTP_URL: smtp.url,
      TASKSPACE_MAIL_POLL_MS: '50',
      TASKSPACE_MAIL_RETRY_BASE_MS: '100',
      // One mail at a time: the held one is the only one in flight when the process dies.
      TASKSPACE_MAIL_CONCURRENCY: '1',
    };
    child = await spawnServer(dataDir, env);
    for (const handle of USERS) expect(runCli(dataDir, 'user', 'create', handle).code).toBe(0);
    const store = openStore(dataDir);
    try {
      for (const handle of USERS) await store.db.run('UPDATE users SET email = ? WHERE handle = ?', `${handle}@example.test`, handle);
    } finally {
      await store.close();
    }

    const held = smtp.hold();
    for (const handle of USERS) {
      expect((await call(child.url, 'POST', '/api/v1/auth/password/forgot', { body: { login: handle } })).status).toBe(200);
    }
    await held.received;
    await child.stop('SIGKILL');
    await held.closed();
    held.release();
    expect(smtp.mails).toHaveLength(0);

    child = await spawnServer(dataDir, env);
    const mails = await smtp.waitForMails(USERS.length, 20_000);
    const check = openStore(dataDir);
    try {
      await waitFor(
        async () => (await check.db.value<number>("SELECT count(*) FROM mail_outbox WHERE status = 'sent'")) === USERS.length,
        'every mail marked sent',
      );
      const rows = await check.db.all<{ message_id: string; attempts: number }>('SELECT message_id, attempts FROM mail_outbox');
      expect(rows).toHaveLength(USERS.length);
      // One mail was attempted twice (the one in flight), under one Message-ID.
      expect(rows.filter((r) => r.attempts === 2)).toHaveLength(1);
      expect(new Set(mails.map((m) => m.messageId))).toEqual(new Set(rows.map((r) => r.message_id)));
    } finally {
      await check.close();
    }
    // Every row is sent: nothing is left to send again.
    expect(smtp.mails).toHaveLength(USERS.length);
    expect(smtp.mails.map((m) => m.to && !Array.isArray(m.to) && m.to.value[0]!.address).sort()).toEqual(
      USERS.map((h) => `${h}@example.test`).sort(),
    );
  }, 60_000);
});
