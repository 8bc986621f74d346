import type { Page } from 'playwright-core';
import { addUser, client, startServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The page's console errors and uncaught exceptions, collected from now on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** The accessible name (aria-label) of the focused element. */
const focusedLabel = async (page: Page) =>
  (await page.evaluate('document.activeElement?.getAttribute("aria-label") ?? null')) as string | null;

/** The outline's chips edited in place, in a real Chromium against the real service (docs "Web app", "Outline"). */
run('web app: outline chips edited in place', () => {
  const suite = serverAndBrowser(() => startServer());

  test('assignees, dates and field values change through their chips; a Viewer sees the chips without editors', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    addUser(server, 'nina', { workspaceId: server.workspaceId, role: 'Collaborator' });
    const viewerToken = addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' });
    const projectId = await newProject(server, 'Groceries');
    const [milk, bread] = await addTasks(server, projectId, ['Buy milk', 'Bake bread']);
    const milkPath = `/api/v1/projects/${projectId}/tasks/${milk!.id}`;
    const breadPath = `/api/v1/projects/${projectId}/tasks/${bread!.id}`;
    const stage = (
      await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'select', options: ['todo', 'doing', 'done'] })
    ).body.item;
    const points = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Points', type: 'number' })).body.item;
    expect((await api.put(`${milkPath}/fields/${stage.id}`, { value: 'todo' })).status).toBe(200);
    expect((await api.put(`${milkPath}/fields/${points.id}`, { value: 3 })).status).toBe(200);
    expect((await api.put(`${milkPath}/date`, { end: { date: '2026-12-24', timezone: 'UTC' } })).status).toBe(200);

    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await withScreenshot(page, 'outline-chips', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      const row = (text: string) =>
        page.locator('[role=treeitem]').filter({ has: page.locator(`input[aria-label="Task"][value="${text}"]`) });
      const milkRow = row('Buy milk');
      const breadRow = row('Bake bread');

      // Assignees: the "Assign" chip shows on hover; its popover lists the workspace's members.
      await milkRow.hover();
      await milkRow.getByRole('button', { name: 'Assign “Buy milk”' }).click();
      const assignees = page.getByRole('dialog', { name: 'Assignees of “Buy milk”' });
      await assignees.getByRole('checkbox', { name: /@nina/ }).check();
      await waitFor(
        async () => (await api.get(`${milkPath}/assignees`)).body.items?.map((a: { handle: string }) => a.handle).join() === 'nina',
        'nina assigned',
      );
      const assigneeChip = milkRow.getByRole('button', { name: 'Assignees of “Buy milk”: @nina' });
      await assigneeChip.waitFor();
      // The popover stays open for more toggles; axe finds nothing serious with it open.
      await assignees.getByRole('checkbox', { name: /@nina/ }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // Escape closes it and gives the focus back to the chip.
      await page.keyboard.press('Escape');
      await assignees.waitFor({ state: 'hidden' });
      expect(await focusedLabel(page)).toBe('Assignees of “Buy milk”: @nina');
      // A click outside closes it too.
      await assigneeChip.click();
      await assignees.getByRole('checkbox', { name: /@nina/ }).waitFor();
      await page.getByRole('heading', { level: 1, name: /Groceries/ }).click();
      await assignees.waitFor({ state: 'hidden' });

      // The date, by keyboard: Tab from the first task reaches its chips, Enter opens the date's popover.
      await milkRow.getByRole('textbox', { name: 'Task' }).focus();
      await page.keyboard.press('Tab');
      expect(await focusedLabel(page)).toBe('Assignees of “Buy milk”: @nina');
      await page.keyboard.press('Tab');
      expect(await focusedLabel(page)).toMatch(/^Date of “Buy milk”: (Dec 24|24 Dec)/);
      await page.keyboard.press('Enter');
      const date = page.getByRole('dialog', { name: 'Date of “Buy milk”' });
      await waitFor(async () => (await date.getByLabel('Due date').inputValue()) === '2026-12-24', 'the stored date in the form');
      // The focus moved into the popover, on its first control.
      expect(await focusedLabel(page)).toBeNull();
      expect(await date.getByLabel('Start date').evaluate((e) => e.matches(':focus'))).toBe(true);
      await date.getByLabel('Due date').fill('2027-01-15');
      await date.getByLabel('Due time').fill('09:30');
      await date.getByRole('button', { name: 'Save dates' }).click();
      await date.waitFor({ state: 'hidden' });
      expect((await api.get(`${milkPath}/date`)).body.item).toEqual({
        start: null,
        end: { date: '2027-01-15', time: '09:30', timezone: 'UTC' },
      });
      await milkRow.getByRole('button', { name: /^Date of “Buy milk”: (Jan 15, 2027|15 Jan 2027) 09:30$/ }).waitFor();
      expect(await focusedLabel(page)).toMatch(/^Date of “Buy milk”/);

      // A task without a date offers "Add date" on hover.
      await breadRow.hover();
      await breadRow.getByRole('button', { name: 'Add date to “Bake bread”' }).click();
      const breadDate = page.getByRole('dialog', { name: 'Date of “Bake bread”' });
      await breadDate.getByLabel('Due date').fill('2027-02-01');
      await breadDate.getByRole('button', { name: 'Save dates' }).click();
      await breadDate.waitFor({ state: 'hidden' });
      expect((await api.get(`${breadPath}/date`)).body.item.end.date).toBe('2027-02-01');
      await breadRow.getByRole('button', { name: /^Date of “Bake bread”: / }).waitFor();

      // Field values: a choice saves and closes; a number saves with Enter.
      await milkRow.getByRole('button', { name: 'Stage: todo, of “Buy milk”' }).click();
      const stageEditor = page.getByRole('dialog', { name: 'Stage of “Buy milk”' });
      await stageEditor.getByLabel('Stage').selectOption('doing');
      await stageEditor.waitFor({ state: 'hidden' });
      expect((await api.get(`${milkPath}/fields/${stage.id}`)).body.item.value).toBe('doing');
      await milkRow.getByRole('button', { name: 'Stage: doing, of “Buy milk”' }).waitFor();
      await milkRow.getByRole('button', { name: 'Points: 3, of “Buy milk”' }).click();
      const pointsEditor = page.getByRole('dialog', { name: 'Points of “Buy milk”' });
      await pointsEditor.getByLabel('Points').fill('5');
      await pointsEditor.getByLabel('Points').press('Enter');
      await pointsEditor.waitFor({ state: 'hidden' });
      expect((await api.get(`${milkPath}/fields/${points.id}`)).body.item.value).toBe(5);
      await milkRow.getByRole('button', { name: 'Points: 5, of “Buy milk”' }).waitFor();

      // A field without a value, from the row: "Add field" lists the fields "Bake bread" has no value for, then that field's editor.
      await breadRow.hover();
      await breadRow.getByRole('button', { name: 'Add field to “Bake bread”' }).click();
      const addField = page.getByRole('dialog', { name: 'Add a field to “Bake bread”' });
      await addField.getByRole('button', { name: 'Points' }).waitFor();
      expect(await addField.getByRole('button').allTextContents()).toEqual(['Stage', 'Points']);
      expect(await seriousViolations(page)).toEqual([]);
      await addField.getByRole('button', { name: 'Points' }).click();
      expect(await addField.getByLabel('Points').evaluate((e) => e.matches(':focus'))).toBe(true);
      await page.keyboard.type('8');
      await page.keyboard.press('Enter');
      await addField.waitFor({ state: 'hidden' });
      expect((await api.get(`${breadPath}/fields/${points.id}`)).body.item.value).toBe(8);
      await breadRow.getByRole('button', { name: 'Points: 8, of “Bake bread”' }).waitFor();
      // Only Stage is left to add; a choice saves and closes.
      await breadRow.hover();
      await breadRow.getByRole('button', { name: 'Add field to “Bake bread”' }).click();
      await addField.getByRole('button', { name: 'Stage' }).waitFor();
      expect(await addField.getByRole('button').allTextContents()).toEqual(['Stage']);
      await addField.getByRole('button', { name: 'Stage' }).click();
      await addField.getByLabel('Stage').selectOption('done');
      await addField.waitFor({ state: 'hidden' });
      expect((await api.get(`${breadPath}/fields/${stage.id}`)).body.item.value).toBe('done');
      await breadRow.getByRole('button', { name: 'Stage: done, of “Bake bread”' }).waitFor();
      // Every field has a value now: no "Add field" chip, not even a hidden one.
      expect(await breadRow.locator('button[aria-label="Add field to “Bake bread”"]').count()).toBe(0);

      // Removing the date: the chip goes, "Add date" comes back.
      await milkRow.getByRole('button', { name: /^Date of “Buy milk”/ }).click();
      await date.getByRole('button', { name: 'Remove dates' }).click();
      await date.waitFor({ state: 'hidden' });
      expect((await api.get(`${milkPath}/date`)).status).toBe(404);
      await milkRow.getByRole('button', { name: /^Date of “Buy milk”/ }).waitFor({ state: 'detached' });
      await milkRow.hover();
      await milkRow.getByRole('button', { name: 'Add date to “Buy milk”' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
    await context.close();

    // At 390 px the popover stays inside the screen.
    const phone = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 390, height: 844 },
    });
    phone.setDefaultTimeout(10000);
    const phonePage = await phone.newPage();
    const phoneErrors = consoleErrors(phonePage);
    await withScreenshot(phonePage, 'outline-chips-390', async () => {
      await phonePage.goto(`${server.url}/projects/${projectId}`);
      await phonePage.getByRole('button', { name: /^Date of “Bake bread”/ }).click();
      const dialog = phonePage.getByRole('dialog', { name: 'Date of “Bake bread”' });
      await dialog.getByRole('button', { name: 'Save dates' }).waitFor();
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await phonePage.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(await seriousViolations(phonePage)).toEqual([]);
      expect(phoneErrors).toEqual([]);
    });
    await phone.close();

    // A Viewer sees the chips but no editor opens (nor "Add field", though no task has a value for Owner).
    expect((await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Owner', type: 'text' })).body.item.name).toBe('Owner');
    const viewer = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${viewerToken}` } });
    viewer.setDefaultTimeout(10000);
    const viewerPage = await viewer.newPage();
    const viewerErrors = consoleErrors(viewerPage);
    await withScreenshot(viewerPage, 'outline-chips-viewer', async () => {
      await viewerPage.goto(`${server.url}/projects/${projectId}`);
      const tree = viewerPage.getByRole('tree', { name: 'Tasks' });
      await tree.getByText('@nina').waitFor();
      await tree.getByText('Stage: doing').waitFor();
      await tree.getByText('@nina').click();
      await tree.getByText('Stage: doing').click();
      await tree.getByRole('treeitem').first().hover();
      expect(await tree.getByRole('button', { name: /of “Buy milk”|of “Bake bread”|^Assign |^Add date |^Add field / }).count()).toBe(0);
      expect(await viewerPage.getByRole('dialog').count()).toBe(0);
      expect(viewerErrors).toEqual([]);
    });
    await viewer.close();
    // Two sign-ins and some thirty edits in the browser: longer than the default 30 s on a busy machine.
  }, 90_000);
});
