import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { browserAvailable, launch, seriousViolations, withScreenshot } from '../web/browser';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

const run = browserAvailable() ? describe : describe.skip;

/**
 * Changing one's email in a real Chromium (docs "Accounts and sign-in", "Your email address"):
 * My account → Email, the confirmation mail read from a real SMTP server on loopback, the link's
 * page that changes nothing until Confirm is pressed, and My account showing the new address.
 */
run('web app: email verification', () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_BOOTSTRAP_PASSWORD: 'the owner password', TASKSPACE_MAIL_POLL_MS: '50' },
    });
    await dbOf(server).run("UPDATE users SET email = 'owner@example.test', verified = 0 WHERE handle = 'owner'");
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  test('My account → new address → mail → Confirm → the address is the account’s', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'verify-email', async () => {
      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('Handle or email').fill('owner');
      await page.getByLabel('Password').fill('the owner password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Signed in as @owner').waitFor();
      await page.goto(`${server.url}/settings/account`);
      expect(await page.locator('dl.plan dd').nth(2).textContent()).toBe('no');
      const card = page.getByRole('form', { name: 'Email' });
      await card.getByText('Mail goes to owner@example.test').waitFor();
      await card.getByLabel('New email address').fill('me@example.test');
      await card.getByLabel('Current password').fill('the owner password');
      expect(await seriousViolations(page)).toEqual([]);
      await card.getByRole('button', { name: 'Send confirmation link' }).click();
      await card.getByRole('status').filter({ hasText: 'We sent a link to me@example.test' }).waitFor();

      const [mail] = await smtp.waitForMails(1);
      const link = linkIn(mail!, `${server.url}/verify-email?token=`);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
      // Opening the page changed nothing yet.
      expect(await dbOf(server).value("SELECT email FROM users WHERE handle = 'owner'")).toBe('owner@example.test');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('status').filter({ hasText: 'mail now goes to me@example.test' }).waitFor();
      await page.getByRole('link', { name: 'My account' }).click();
      await page.getByRole('form', { name: 'Email' }).getByText('Mail goes to me@example.test').waitFor();
      await page.getByText('Account verified').waitFor();
      expect(await page.locator('dl.plan dd').nth(2).textContent()).toBe('yes');

      // The same link again is refused on the page.
      await page.goto(link);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('alert').filter({ hasText: 'already been used' }).waitFor();
    });
    await context.close();
  }, 60_000);
});
