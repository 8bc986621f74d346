import fs from 'node:fs';
import path from 'node:path';
import { client, startServer, tempDataDir } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV } from '../automations/helpers';
import { waitFor } from '../helpers/wait';
import { browserAvailable, chooseFromMenu, seriousViolations, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * The automation lifecycle as a person goes through it in Chromium (docs/web-app.md
 * "Automations"): a template from the gallery, the builder, export, import of that file,
 * duplicate, enable and delete with its confirmation, with no console error.
 */
run('web app: automation lifecycle', () => {
  const suite = serverAndBrowser(() => startServer({ env: AUTOMATION_ENV }));

  test('template → builder → export → import → duplicate → enable → delete', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Launch plan');
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` }, acceptDownloads: true });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'error' || m.text().startsWith('CSP violation')) && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    const list = async () =>
      (await api.get(`/api/v1/automations?workspaceId=${server.workspaceId}`)).body.items as {
        id: string;
        name: string;
        enabled: boolean;
        trigger: Record<string, unknown>;
        actions: Record<string, unknown>[];
      }[];
    const idInUrl = () => /\/automations\/([^/?]+)/.exec(new URL(page.url()).pathname)![1]!;

    await withScreenshot(page, 'automation-lifecycle', async () => {
      // No automation yet: the list says what automations are for and offers the templates.
      await page.goto(`${server.url}/automations`);
      const section = page.getByRole('region', { name: 'Automations of My workspace' });
      await section.getByRole('heading', { level: 3, name: 'No automations yet' }).waitFor();
      // The gallery: pick "Form to task", choose the project, create.
      await section.getByRole('button', { name: 'Browse templates' }).click();
      const gallery = page.getByRole('region', { name: 'Templates' });
      await gallery.getByRole('button', { name: 'Use template Form to task' }).click();
      const setup = page.getByRole('form', { name: 'Set up Form to task' });
      await expect(setup.getByRole('button', { name: 'Create automation' }).isDisabled()).resolves.toBe(true);
      await setup.getByLabel('Add tasks to').selectOption({ label: 'Launch plan' });
      expect(await seriousViolations(page)).toEqual([]);
      await setup.getByRole('button', { name: 'Create automation' }).click();
      await page.waitForURL(/\/automations\/[^/]+\/edit$/);
      await page.getByRole('heading', { name: 'Edit Request form' }).waitFor();
      const createdId = idInUrl();
      const [created] = await list();
      expect(created).toMatchObject({ id: createdId, name: 'Request form', enabled: false, trigger: { type: 'form' } });
      expect(created!.actions[0]).toMatchObject({ type: 'task.create', projectId });

      // Its page: Export downloads the document. The list names its trigger by the kind's title.
      await page.goto(`${server.url}/automations`);
      await section
        .getByRole('row', { name: /Request form/ })
        .getByText('Form submitted · v1')
        .waitFor();
      expect(await section.getByRole('heading', { name: 'No automations yet' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Request form', exact: true }).click();
      await page.getByRole('heading', { name: 'Request form', exact: true }).waitFor();
      const downloading = page.waitForEvent('download');
      await chooseFromMenu(page, 'Automation actions', 'Export');
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('request-form.automation.json');
      const file = path.join(tempDataDir(), download.suggestedFilename());
      await download.saveAs(file);
      const document = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(document).toMatchObject({ taskspaceAutomation: 1, definition: { name: 'Request form', trigger: { type: 'form' } } });
      expect(JSON.stringify(document)).not.toContain(createdId);

      // Import that file from the list: a second automation opens.
      await page.goto(`${server.url}/automations`);
      await page.getByLabel('Import an automation file').setInputFiles(file);
      await page.waitForURL((url) => /^\/automations\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(createdId));
      await page.getByRole('heading', { name: 'Request form', exact: true }).waitFor();
      const importedId = idInUrl();
      await waitFor(async () => (await list()).length === 2, 'the imported automation');
      expect((await list()).find((a) => a.id === importedId)).toMatchObject({
        name: 'Request form',
        enabled: false,
        trigger: created!.trigger,
        actions: created!.actions,
      });

      // Duplicate it: the copy opens, disabled.
      await chooseFromMenu(page, 'Automation actions', 'Duplicate');
      await page.getByRole('heading', { name: 'Request form (copy)' }).waitFor();
      const copyId = idInUrl();
      expect(copyId).not.toBe(importedId);
      expect(await seriousViolations(page)).toEqual([]);

      // Enable the copy, then delete it (with the confirmation).
      await page.getByRole('button', { name: 'Enable', exact: true }).click();
      await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
      expect((await list()).find((a) => a.id === copyId)?.enabled).toBe(true);
      await chooseFromMenu(page, 'Automation actions', 'Delete automation');
      const confirm = page.getByRole('dialog', { name: 'Delete “Request form (copy)”?' });
      await confirm.waitFor();
      expect((await list()).some((a) => a.id === copyId)).toBe(true);
      await confirm.getByRole('button', { name: 'Delete automation' }).click();
      await page.waitForURL(`${server.url}/automations`);
      await page.getByRole('link', { name: 'Request form' }).first().waitFor();
      expect((await list()).map((a) => a.id).sort()).toEqual([createdId, importedId].sort());
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test('on a phone (390 px) the list with its gallery and an automation page fit the screen', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const a = (
      await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'A rather long automation name for a phone',
        trigger: { type: 'task.added' },
        actions: [],
      })
    ).body.item;
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const width = () =>
      page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      );
    await withScreenshot(page, 'automation-lifecycle-390', async () => {
      await page.goto(`${server.url}/automations?templates=${server.workspaceId}`);
      await page.getByRole('button', { name: 'Use template Daily digest' }).waitFor();
      expect(await width()).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: 'Use template Daily digest' }).click();
      await page.getByRole('form', { name: 'Set up Daily digest' }).waitFor();
      expect(await width()).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${server.url}/automations/${a.id}`);
      await page.getByRole('button', { name: 'Automation actions' }).click();
      await page.getByRole('menuitem', { name: 'Duplicate', exact: true }).waitFor();
      expect(await width()).toBeLessThanOrEqual(390);
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
