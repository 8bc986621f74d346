import type { Browser, Page } from 'playwright-core';
import { addUser, call, runCliWithInput, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * New workspace, Settings → Workspace, the Profile and the role descriptions, in a real Chromium
 * against the real server, driven like a person: a Participant of the first workspace signs in
 * with a password, makes a workspace of their own, renames it, switches between the two, changes
 * their display name and password, signs in again with the new password and invites someone.
 */
run('web app: workspaces and the profile', () => {
  const OLD_PASSWORD = 'pia old password 1';
  const NEW_PASSWORD = 'pia brand new password 2';
  let server: TestServer;
  let browser: Browser;
  let piaToken: string;
  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    piaToken = addUser(server, 'pia', {
      workspaceId: server.workspaceId,
      role: 'Participant',
    });
    const set = runCliWithInput(server.dataDir, OLD_PASSWORD, 'user', 'set-password', 'pia');
    if (set.code !== 0) throw new Error(set.err);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const workspacesOfPia = async () =>
    (await call(server.url, 'GET', '/api/v1/workspaces', { token: piaToken })).body.items as { id: string; name: string; role: string }[];

  async function signIn(page: Page, password: string): Promise<void> {
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Handle or email').fill('pia');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as @pia').waitFor();
  }

  test('create, rename and switch workspaces; change the display name and the password; role descriptions when inviting', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(15000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`));
    page.on('pageerror', (e) => errors.push(String(e)));
    const nav = page.getByRole('navigation', { name: 'Main' });
    const switcher = nav.getByRole('combobox', {
      name: 'Workspace',
      exact: true,
    });
    await withScreenshot(page, 'profile-workspaces', async () => {
      await signIn(page, OLD_PASSWORD);

      // New workspace, from the sidebar.
      await nav.getByRole('link', { name: 'New workspace' }).click();
      await page.getByRole('heading', { level: 1, name: 'New workspace' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Workspace name').fill('  Pia lab ');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      await page.getByRole('status').filter({ hasText: 'Workspace “Pia lab” created; you are its Owner.' }).waitFor();
      await page.getByRole('heading', { level: 1, name: /Welcome/ }).waitFor();
      const created = (await workspacesOfPia()).find((w) => w.name === 'Pia lab');
      expect(created).toMatchObject({ role: 'Owner' });
      // The sidebar switched to it.
      await waitFor(async () => (await switcher.inputValue()) === created!.id, 'the switcher shows the new workspace');

      // Rename it in Settings → Workspace.
      await nav.getByRole('link', { name: 'Workspace', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
      await page.getByText('Owner', { exact: true }).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Workspace name').fill('Pia research lab');
      await page.getByRole('button', { name: 'Rename workspace' }).click();
      await page.getByRole('status').filter({ hasText: 'Workspace renamed to “Pia research lab”.' }).waitFor();
      await waitFor(async () => (await workspacesOfPia()).some((w) => w.id === created!.id && w.name === 'Pia research lab'), 'renamed');
      await switcher.locator('option', { hasText: 'Pia research lab' }).waitFor({ state: 'attached' });

      // Switch to the first workspace, where Pia is a Participant: renaming is shown as not hers to do.
      await switcher.selectOption({ label: 'My workspace' });
      await page.getByText('Renaming the workspace needs the Owner role; you are a Participant.').waitFor();
      expect(await page.getByLabel('Workspace name').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Rename workspace' }).count()).toBe(0);
      await switcher.selectOption({ label: 'Pia research lab' });
      await waitFor(async () => (await page.getByLabel('Workspace name').inputValue()) === 'Pia research lab', 'back in her own workspace');
      expect(await page.getByLabel('Workspace name').isEnabled()).toBe(true);

      // The profile, from the user menu.
      await nav.getByRole('link', { name: /Signed in as @pia/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const list = page.getByRole('list', { name: 'Your workspaces' });
      await list.getByText('Pia research lab').waitFor();
      await list.getByText('My workspace').waitFor();
      await list.getByText(/^Everything a Viewer can, plus editing tasks/).waitFor();
      await list.getByText(/^Everything a Collaborator can, plus renaming the workspace/).waitFor();

      await page.getByLabel('Display name').fill('Pia Park');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('status').filter({ hasText: 'Your display name is now “Pia Park”.' }).waitFor();
      await waitFor(
        async () => (await call(server.url, 'GET', '/api/v1/me', { token: piaToken })).body.item.displayName === 'Pia Park',
        'display name saved',
      );
      await page.getByRole('main').getByText('Pia Park', { exact: true }).waitFor();

      await page.getByLabel('Current password').fill(OLD_PASSWORD);
      await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed; your other sessions are signed out.').waitFor();

      // Sign out and back in with the new password; the old one no longer works.
      await nav.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/sign-in$/);
      expect(
        (
          await call(server.url, 'POST', '/api/v1/auth/sign-in', {
            body: { login: 'pia', password: OLD_PASSWORD },
          })
        ).status,
      ).toBe(401);
      await signIn(page, NEW_PASSWORD);
      await page.getByRole('heading', { level: 1, name: 'Welcome, Pia Park' }).waitFor();

      // Inviting into her own workspace: each role says what it may do.
      await nav.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
      await page.getByRole('main').getByLabel('Workspace').selectOption({ label: 'Pia research lab' });
      const rolePicker = page.getByLabel('Role for the invitation');
      await rolePicker.selectOption('Viewer');
      await page.getByText('Viewer: Reads everything in the workspace; changes nothing.').waitFor();
      await rolePicker.selectOption('Collaborator');
      await page.getByText(/^Collaborator: Everything a Participant can, plus projects, folders/).waitFor();
      expect(await page.getByLabel('Role for the invitation').getAttribute('aria-describedby')).toBe('invite-role-help');
      await page.getByText('What each role may do').click();
      const guide = page.locator('.role-guide dt');
      expect(await guide.allTextContents()).toEqual(['Owner', 'Collaborator', 'Participant', 'Viewer']);
      await page.getByLabel('Email or @handle').fill('quinn@example.org');
      await page.getByRole('button', { name: 'Create invitation link' }).click();
      await page.getByRole('status').locator('code').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
    await context.close();
  }, 120_000);
});
