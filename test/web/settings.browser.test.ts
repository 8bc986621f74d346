import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUser, call, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Settings → Members and My account in a real Chromium against the real server. */
run('web app: members and account settings', () => {
  const PASSWORD = 'owner password 123';
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const members = async () =>
    (await call(server.url, 'GET', `/api/v1/workspaces/${server.workspaceId}/members`, { token: server.token })).body.items as {
      handle: string;
      role: string;
    }[];
  const roleOf = async (handle: string) => (await members()).find((m) => m.handle === handle)?.role;

  async function withPage(context: BrowserContext, name: string, body: (page: Page) => Promise<void>): Promise<void> {
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    try {
      await withScreenshot(page, name, () => body(page));
    } finally {
      await context.close();
    }
  }

  test('an Owner invites, withdraws, changes a role and removes a member', async () => {
    addUser(server, 'max', { workspaceId: server.workspaceId, role: 'Collaborator' });
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    await withPage(context, 'settings-members', async (page) => {
      await page.goto(`${server.url}/settings/members`);
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      await page.getByLabel('Role of @max').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Email or @handle').fill('nina@example.org');
      await page.getByLabel('Role for the invitation').selectOption('Viewer');
      await page.getByRole('button', { name: 'Create invitation link' }).click();
      const link = await page.getByRole('status').locator('code').textContent();
      expect(link).toMatch(new RegExp(`^${server.url}/invite\\?token=`));
      await page.getByRole('button', { name: 'Withdraw the invitation of nina@example.org' }).click();
      await page.getByText('No pending invitations.').waitFor();
      const preview = await call(server.url, 'POST', '/api/v1/auth/invitations/preview', {
        body: { token: new URL(link!).searchParams.get('token') },
      });
      expect(preview.body.error.details.reason).toBe('invalid_link');

      // With a second Owner, the first may change their role or leave; alone again, not.
      const ownRole = page.getByLabel('Role of @owner');
      const removeOwner = page.getByRole('button', { name: 'Remove @owner' });
      expect(await ownRole.isDisabled()).toBe(true);
      await page.getByLabel('Role of @max').selectOption('Owner');
      await waitFor(async () => (await roleOf('max')) === 'Owner', 'max is an Owner');
      await waitFor(async () => (await ownRole.isEnabled()) && (await removeOwner.isEnabled()), "the owner's controls enabled");
      await page.getByLabel('Role of @max').selectOption('Viewer');
      await waitFor(async () => (await roleOf('max')) === 'Viewer', 'max is a Viewer');
      await page.getByRole('button', { name: 'Remove @max' }).click();
      await page.getByRole('button', { name: 'Confirm removing @max' }).click();
      await waitFor(async () => (await roleOf('max')) === undefined, 'max removed');
      await page.getByLabel('Role of @max').waitFor({ state: 'detached' });

      // The last Owner cannot demote or remove themselves: both controls are disabled, saying why.
      await waitFor(async () => (await ownRole.isDisabled()) && (await removeOwner.isDisabled()), "the last owner's controls disabled");
      for (const control of [ownRole, removeOwner]) {
        const reason = await control.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${reason}"]`).textContent()).toContain('at least one Owner');
      }
      expect(await roleOf('owner')).toBe('Owner');
    });
  });

  test('a Viewer sees who belongs, without role controls or invitations', async () => {
    const viewerToken = addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' });
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${viewerToken}` } });
    await withPage(context, 'settings-members-viewer', async (page) => {
      await page.goto(`${server.url}/settings/members`);
      await page.getByRole('cell', { name: /@vera/ }).waitFor();
      await page.getByRole('cell', { name: /@owner/ }).waitFor();
      expect(await page.getByRole('combobox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Create invitation link' }).count()).toBe(0);
    });
  });

  test('my account: a token is shown once and works until revoked; sessions; the password changes', async () => {
    const context = await browser.newContext();
    await withPage(context, 'settings-account', async (page) => {
      await page.goto(`${server.url}/sign-in?next=%2Fsettings%2Faccount`);
      await page.getByLabel('Handle or email').fill('owner');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'My account' }).waitFor();
      await page.getByRole('cell', { name: /\(this browser\)/ }).waitFor();
      // Plan and rate tier, read-only.
      const plan = page.getByRole('definition').first();
      expect(await plan.textContent()).toBe((await call(server.url, 'GET', '/api/v1/me', { token: server.token })).body.item.plan);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Name', { exact: true }).fill('n8n laptop');
      await page.getByLabel('Scope').selectOption('read');
      await page.getByRole('button', { name: 'Create token' }).click();
      const token = (await page.getByRole('status').locator('code').textContent())!;
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
      // Read scope: writes are refused.
      expect(
        (await call(server.url, 'POST', `/api/v1/workspaces/${server.workspaceId}/folders`, { token, body: { name: 'Nope' } })).status,
      ).toBe(403);
      await page.getByRole('button', { name: 'Revoke token n8n laptop' }).click();
      await waitFor(async () => (await call(server.url, 'GET', '/api/v1/me', { token })).status === 401, 'token revoked');

      const passwordForm = page.getByRole('form', { name: 'Password' });
      await passwordForm.getByLabel('Current password').fill('not my password');
      await passwordForm.getByLabel(/^New password/).fill('a brand new password');
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      await passwordForm.getByRole('alert').filter({ hasText: 'the current password is wrong' }).waitFor();
      await passwordForm.getByLabel('Current password').fill(PASSWORD);
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed; your other sessions are signed out.').waitFor();
    });
    const signIn = await call(server.url, 'POST', '/api/v1/auth/sign-in', { body: { login: 'owner', password: 'a brand new password' } });
    expect(signIn.status).toBe(200);
  });
});
