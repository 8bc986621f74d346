import type { Browser } from 'playwright-core';
import { call, runCli, runCliWithInput, startServer, type TestServer } from '../helpers/server';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The invitation link an Owner sends, opened in a real Chromium against the real server. */
run('web app: invitations', () => {
  let server: TestServer;
  let browser: Browser;
  let workspaceName: string;
  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    workspaceName = (await call(server.url, 'GET', '/api/v1/workspaces', { token: server.token })).body.items[0].name;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function invite(body: Record<string, string>): Promise<string> {
    const res = await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/invitations`, { token: server.token, body });
    expect(res.status).toBe(200);
    return res.body.item.url as string;
  }

  async function roleOf(handle: string): Promise<string | undefined> {
    const members = (await call(server.url, 'GET', `/api/v1/workspaces/${server.workspaceId}/members`, { token: server.token })).body.items;
    return members.find((m: { handle: string }) => m.handle === handle)?.role;
  }

  test('a new person creates an account from the link, is signed in and sees the workspace; the link then stops working', async () => {
    const url = await invite({ email: 'dana@example.org', role: 'Collaborator' });
    expect(url.startsWith(`${server.url}/invite?token=`)).toBe(true);
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'invite-new-account', async () => {
      await page.goto(url);
      await page.getByRole('heading', { name: `Join ${workspaceName}` }).waitFor();
      await page.getByText('You are invited as Collaborator (dana@example.org).').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Handle').fill('dana');
      await page.getByLabel('Display name (optional)').fill('Dana Scully');
      // A handle already taken is refused by the service and shown at the form.
      await page.getByLabel('Handle').fill('owner');
      await page.getByLabel(/^Password/).fill('a long enough password');
      await page.getByRole('button', { name: 'Create account and join' }).click();
      await page.getByRole('alert').filter({ hasText: /taken/ }).waitFor();
      await page.getByLabel('Handle').fill('dana');
      await page.getByLabel(/^Password/).fill('a long enough password');
      await page.getByRole('button', { name: 'Create account and join' }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByText('Signed in as @dana').waitFor();
      await page.getByRole('region', { name: `Workspace ${workspaceName}` }).waitFor();
    });
    expect(await roleOf('dana')).toBe('Collaborator');
    await withScreenshot(page, 'invite-used', async () => {
      await page.goto(url);
      await page.getByRole('alert').filter({ hasText: 'this invitation has already been used' }).waitFor();
    });
    await context.close();
  });

  test('someone with an account signs in from the link and joins with it', async () => {
    expect(runCli(server.dataDir, 'user', 'create', 'bea').code).toBe(0);
    expect(runCliWithInput(server.dataDir, 'bea has a long password', 'user', 'set-password', 'bea').code).toBe(0);
    const url = await invite({ handle: 'bea', role: 'Viewer' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'invite-existing-account', async () => {
      await page.goto(url);
      await page.getByText('You are invited as Viewer (@bea).').waitFor();
      await page.getByRole('link', { name: 'Sign in to join with it' }).click();
      await page.getByLabel('Handle or email').fill('bea');
      await page.getByLabel('Password').fill('bea has a long password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Join as @bea' }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByRole('region', { name: `Workspace ${workspaceName}` }).waitFor();
    });
    expect(await roleOf('bea')).toBe('Viewer');
    await context.close();
  });

  test('a wrong or missing token says so instead of showing a form', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await withScreenshot(page, 'invite-invalid', async () => {
      await page.goto(`${server.url}/invite?token=not-a-real-token`);
      await page.getByRole('alert').filter({ hasText: 'this invitation is not valid' }).waitFor();
      expect(await page.getByRole('button', { name: 'Create account and join' }).count()).toBe(0);
      await page.goto(`${server.url}/invite`);
      await page.getByRole('alert').filter({ hasText: 'This invitation link is incomplete.' }).waitFor();
    });
    await context.close();
  });
});
