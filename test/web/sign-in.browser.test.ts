import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../helpers/server';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The web app in a real Chromium against the real server. */
run('web app: signing in', () => {
  let server: TestServer;
  let browser: Browser;
  const PASSWORD = 'correct horse battery staple';
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a visitor who is not signed in lands on an accessible sign-in form, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // Not even a refused request: the app asks the session probe, which answers 200 signed out.
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const refused: string[] = [];
      page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${new URL(r.url()).pathname}`));
      await withScreenshot(page, `sign-in-${colorScheme}`, async () => {
        await page.goto(`${server.url}/projects/some-project`);
        await page.waitForURL(/\/sign-in\?next=%2Fprojects%2Fsome-project$/);
        await page.getByRole('heading', { name: 'Sign in to Taskspace' }).waitFor();
        await page.getByLabel('Handle or email').fill('owner');
        await page.getByLabel('Password').fill('wrong password');
        expect(await seriousViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
        expect(refused).toEqual([]);
      });
      await context.close();
    }
  });

  test('signing in with the password lands on the page asked for; signing out ends the session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'sign-in-flow', async () => {
      await page.goto(`${server.url}/automations`);
      await page.waitForURL(/\/sign-in\?next=%2Fautomations$/);
      await page.getByLabel('Handle or email').fill('owner');
      await page.getByLabel('Password').fill('wrong password!');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'wrong login or password' }).waitFor();
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/automations$/);
      await page.getByRole('heading', { level: 1, name: 'Automations' }).waitFor();
      await page.getByText('Signed in as @owner').waitFor();
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === 'taskspace_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/sign-in$/);
      // The old cookie no longer authenticates anything.
      const me = await fetch(`${server.url}/api/v1/me`, { headers: { cookie: `taskspace_session=${session!.value}` } });
      expect(me.status).toBe(401);
    });
    await context.close();
  });

  test('usable at 390 px wide', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await withScreenshot(page, 'sign-in-390', async () => {
      await page.goto(`${server.url}/sign-in`);
      const box = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    });
    await context.close();
  });
});
