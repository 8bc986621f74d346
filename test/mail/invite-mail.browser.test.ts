import type { Browser } from 'playwright-core';
import { call, startServer, type TestServer } from '../helpers/server';
import { browserAvailable, launch, withScreenshot } from '../web/browser';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

const run = browserAvailable() ? describe : describe.skip;

/**
 * An invitation by email end to end in a real Chromium (docs/email.md, docs "Invitations and
 * members"): the Owner invites from the Members page, which says it was mailed; the mail, read from
 * a real SMTP server on loopback, carries the link; a second browser context opens it, creates an
 * account and is in the workspace.
 */
run('web app: invitation by email', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  const PASSWORD = 'the owner password';
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD, TASKSPACE_MAIL_POLL_MS: '50' },
    });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  test('the Owner invites nina@example.test; the mailed link joins her new account from another browser', async () => {
    const ownerContext = await browser.newContext();
    const owner = await ownerContext.newPage();
    await withScreenshot(owner, 'invite-by-mail-owner', async () => {
      await owner.goto(`${server.url}/sign-in?next=%2Fsettings%2Fmembers`);
      await owner.getByLabel('Handle or email').fill('owner');
      await owner.getByLabel('Password').fill(PASSWORD);
      await owner.getByRole('button', { name: 'Sign in' }).click();
      await owner.getByLabel('Email or @handle').fill('nina@example.test');
      await owner.getByRole('button', { name: 'Create invitation link' }).click();
      await owner.getByText('The invitation was mailed to nina@example.test.').waitFor();
    });
    const [mail] = await smtp.waitForMails(1);
    expect(mail!.to).toMatchObject({ value: [{ address: 'nina@example.test' }] });
    const link = linkIn(mail!, `${server.url}/invite?token=`);

    const ninaContext = await browser.newContext();
    const nina = await ninaContext.newPage();
    await withScreenshot(nina, 'invite-by-mail-nina', async () => {
      await nina.goto(link);
      await nina.getByText('(nina@example.test)').waitFor();
      await nina.getByLabel('Handle').fill('nina');
      await nina.getByLabel(/^Password/).fill('nina has a long password');
      await nina.getByRole('button', { name: 'Create account and join' }).click();
      await nina.waitForURL(`${server.url}/`);
      await nina.getByText('Signed in as @nina').waitFor();
    });
    const members = (await call(server.url, 'GET', `/api/v1/workspaces/${server.workspaceId}/members`, { token: server.token })).body.items;
    expect(members.map((m: { handle: string }) => m.handle)).toContain('nina');
    await ownerContext.close();
    await ninaContext.close();
  }, 60_000);
});
