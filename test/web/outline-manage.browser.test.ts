import type { Locator } from 'playwright-core';
import { client, startServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot, openPage, projectMenu } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Custom fields and templates managed in the app, in a real Chromium against the real service. */
run('web app: custom fields and templates', () => {
  const suite = serverAndBrowser(() => startServer());

  test('a Collaborator defines, renames, reorders and deletes fields; renames and moves the project, makes and renames a folder; saves a template and makes a project from it', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Sprint');
    await addTasks(server, projectId, ['Write the brief']);
    const fieldNames = async () =>
      (await api.get(`/api/v1/projects/${projectId}/fields`)).body.items.map((f: { name: string }) => f.name).join('|');

    const { context, page, errors } = await openPage(browser, server.token);
    await withScreenshot(page, 'outline-manage', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      // The task panel has a Fields section even before any field exists.
      await page.getByRole('button', { name: 'Details: Write the brief' }).click();
      const details = page.getByRole('complementary', { name: 'Write the brief' });
      await details.getByRole('group', { name: 'Fields' }).getByText('no custom fields yet').waitFor();

      await projectMenu(page, 'Custom fields');
      const manager = page.getByRole('region', { name: 'Custom fields' });
      await manager.getByLabel('Field name').fill('Stage');
      await manager.getByLabel('Type').selectOption('select');
      await manager.getByLabel('Options (comma-separated)').fill('todo, doing, done');
      await manager.getByRole('button', { name: 'Define field' }).click();
      await waitFor(async () => (await fieldNames()) === 'Stage', 'Stage defined');
      await manager.getByLabel('Field name').fill('Points');
      await manager.getByLabel('Type').selectOption('number');
      await manager.getByRole('button', { name: 'Define field' }).click();
      await waitFor(async () => (await fieldNames()) === 'Stage|Points', 'Points defined');
      // The task panel offers the new fields at once.
      await details.getByLabel('Stage').selectOption('doing');

      await manager.getByLabel('Name of field Stage').fill('Status');
      await manager.getByLabel('Name of field Stage').press('Enter');
      await waitFor(async () => (await fieldNames()) === 'Status|Points', 'Stage renamed');
      await manager.getByRole('button', { name: 'Move Points up' }).click();
      await waitFor(async () => (await fieldNames()) === 'Points|Status', 'Points moved up');
      await manager.getByRole('button', { name: 'Delete field Points' }).click();
      await manager.getByRole('button', { name: 'Delete Points' }).click();
      await waitFor(async () => (await fieldNames()) === 'Status', 'Points deleted');
      await manager.getByLabel('Name of field Points').waitFor({ state: 'detached' });

      // Rename the project, move it to a new folder, rename that folder.
      await projectMenu(page, 'Rename or move');
      const place = page.getByRole('region', { name: 'Name and folder' });
      await place.getByLabel('Project name').fill('Sprint plan');
      await place.getByRole('button', { name: 'Rename', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Sprint plan' }).waitFor();
      await place.getByLabel('New folder').fill('Team');
      await place.getByRole('button', { name: 'Create and move here' }).click();
      const folderId = await waitFor(async () => {
        const now = (await api.get(`/api/v1/projects/${projectId}`)).body.item.folderId;
        return now !== server.workspaceId && now;
      }, 'the project moved to Team');
      await place.getByLabel('Rename folder “Team”').fill('Core team');
      await place.getByRole('button', { name: 'Rename folder' }).click();
      await waitFor(
        async () =>
          (await api.get(`/api/v1/workspaces/${server.workspaceId}/folders`)).body.items.some(
            (f: { id: string; name: string }) => f.id === folderId && f.name === 'Core team',
          ),
        'the folder renamed',
      );

      // Save as template; the New project screen lists it and makes a project from it.
      await projectMenu(page, 'Save as template');
      await page.getByRole('status').filter({ hasText: 'as a template' }).waitFor();
      await page.goto(`${server.url}/folders/${folderId}/new-project`);
      await page.getByLabel('A template').check();
      await page.getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Sprint plan' });
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL(/\/projects\//);
      await page.locator('input[aria-label="Task"][value="Write the brief"]').waitFor();
    });
    expect(errors).toEqual([]);
    await context.close();
  });
  test('the Project actions menu works from the keyboard; sharing, completing and deleting go through it, the delete after a confirming dialog', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Offsite');
    const shareLink = async () => (await api.get(`/api/v1/projects/${projectId}/shareLink`)).body.item ?? null;
    /** Waits until `locator` has the keyboard focus. */
    const focused = (locator: Locator) => waitFor(() => locator.evaluate((el) => el === el.ownerDocument.activeElement), 'focus moved');

    const { context, page, errors } = await openPage(browser, server.token);
    await withScreenshot(page, 'project-menu', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      const button = page.getByRole('button', { name: 'Project actions' });
      const menu = page.getByRole('menu', { name: 'Project actions' });
      // ↓ opens the menu on its first entry, ↑ wraps to the last, Escape closes it and gives the focus back.
      await button.focus();
      await page.keyboard.press('ArrowDown');
      await focused(menu.getByRole('menuitem', { name: 'Rename or move' }));
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowUp');
      await focused(menu.getByRole('menuitem', { name: 'Delete project' }));
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await focused(menu.getByRole('menuitem', { name: 'Custom fields' }));
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      await focused(button);
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      // Enter on an entry chooses it: the field manager opens.
      await page.keyboard.press('Enter');
      await focused(menu.getByRole('menuitem', { name: 'Rename or move' }));
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: 'Custom fields' }).waitFor();
      // A click elsewhere closes the menu without choosing anything.
      await button.click();
      await menu.waitFor();
      await page.getByRole('heading', { level: 1, name: 'Offsite' }).click();
      await menu.waitFor({ state: 'detached' });

      // Sharing: the read-only link appears under the header; revoking takes it away.
      await projectMenu(page, 'Share link');
      const link = await waitFor(shareLink, 'a share link made');
      await page.getByRole('link', { name: link.viewUrl }).waitFor();
      await projectMenu(page, 'Revoke share link');
      await waitFor(async () => (await shareLink()) === null, 'the share link revoked');
      await page.getByRole('link', { name: link.viewUrl }).waitFor({ state: 'detached' });

      // A completed project cannot be shared (the entry says why); Restore makes it editable again.
      await projectMenu(page, 'Complete project');
      await page.getByText('This project is completed: restore it to edit.').waitFor();
      await button.click();
      const share = menu.getByRole('menuitem', { name: 'Share link' });
      expect(await share.isDisabled()).toBe(true);
      expect(await share.getAttribute('title')).toContain('restore it first');
      await page.keyboard.press('Escape');
      await projectMenu(page, 'Restore');
      await page.getByText('This project is completed: restore it to edit.').waitFor({ state: 'detached' });
      expect((await api.get(`/api/v1/projects/${projectId}`)).body.item.completed).toBe(false);

      // Delete asks first: Escape keeps the project; confirming deletes it and goes home.
      await projectMenu(page, 'Delete project');
      const dialog = page.getByRole('dialog', { name: 'Delete “Offsite”?' });
      await dialog.getByText('This cannot be undone.').waitFor();
      await focused(dialog.getByRole('button', { name: 'Cancel' }));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await api.get(`/api/v1/projects/${projectId}`)).status).toBe(200);
      await projectMenu(page, 'Delete project');
      await dialog.getByRole('button', { name: 'Delete project' }).click();
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect((await api.get(`/api/v1/projects/${projectId}`)).status).toBe(404);
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
