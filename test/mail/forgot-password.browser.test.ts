import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { browserAvailable, launch, seriousViolations, withScreenshot } from '../web/browser';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

const run = browserAvailable() ? describe : describe.skip;

/**
 * "Forgot password?" end to end in a real Chromium (docs "Accounts and sign-in", "Forgotten
 * password"): the sign-in page's link, the request form, the mail read from a real SMTP server on
 * loopback, the reset page, signing in with the new password; the used link then refuses.
 */
run('web app: forgot password', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_BOOTSTRAP_PASSWORD: 'the old password', TASKSPACE_MAIL_POLL_MS: '50' },
    });
    await dbOf(server).run("UPDATE users SET email = 'owner@example.test' WHERE handle = 'owner'");
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  test('sign-in → Forgot password? → mail → new password → signed in; the link works only once', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'forgot-password', async () => {
      await page.goto(`${server.url}/sign-in`);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL(/\/forgot-password$/);
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByLabel('Handle or email').fill('owner@example.test');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('status').filter({ hasText: 'is on its way' }).waitFor();

      const [mail] = await smtp.waitForMails(1);
      const link = linkIn(mail!, `${server.url}/reset-password?token=`);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await page.getByLabel('New password', { exact: true }).fill('the new password');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(/\/sign-in$/);
      await page.getByLabel('Handle or email').fill('owner');
      await page.getByLabel('Password').fill('the new password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Signed in as @owner').waitFor();

      // The same link again: refused, with a way to ask for a new one.
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('a third password');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('alert').filter({ hasText: 'already been used' }).waitFor();
    });
    await context.close();
  }, 60_000);
});
