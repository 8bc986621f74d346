import { client, startServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot, openPage } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Collapse with memory, search and filters, and the Ctrl/Cmd+K palette, in a real Chromium against the real service. */
run('web app: outline collapse, search, filters and the command palette', () => {
  const suite = serverAndBrowser(() => startServer());

  test('a collapsed branch stays collapsed after a reload; search and filters narrow the outline; Ctrl+K goes to a project and runs commands', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Garden');
    const otherId = await newProject(server, 'Kitchen plans');
    const [a, b, c] = await addTasks(server, projectId, ['Apples', 'Beans', 'Carrots']);
    const [a1] = await addTasks(server, projectId, [
      { content: 'Prune the apple tree', taskId: a!.id, placement: 'beforeend' },
      { content: 'Pick apples', taskId: a!.id, placement: 'beforeend' },
    ]);
    await addTasks(server, otherId, ['Buy a kettle']);
    await api.post(`/api/v1/projects/${projectId}/tasks/${c!.id}/complete`);
    await api.put(`/api/v1/projects/${projectId}/tasks/${a1!.id}/assignees`, { handles: ['owner'] });
    await api.put(`/api/v1/projects/${projectId}/tasks/${b!.id}/date`, { end: { date: '2026-05-10', timezone: 'UTC' } });
    const bed = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Bed', type: 'text' })).body.item;
    await api.put(`/api/v1/projects/${projectId}/tasks/${c!.id}/fields/${bed.id}`, { value: 'north' });

    const { context, page, errors } = await openPage(browser, server.token);
    const shown = () =>
      page.locator('input[aria-label="Task"]').evaluateAll((inputs) =>
        inputs
          .map((i: any) => i.value)
          .sort()
          .join('|'),
      );
    const showing = (want: string[], what: string) => waitFor(async () => (await shown()) === [...want].sort().join('|'), what);
    const all = ['Apples', 'Prune the apple tree', 'Pick apples', 'Beans', 'Carrots'];
    await withScreenshot(page, 'outline-search', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      await showing(all, 'the whole outline');

      // Chips: the assignee, the date and a field value on their rows.
      const row = (text: string) =>
        page.locator('[role=treeitem]').filter({ has: page.locator(`input[aria-label="Task"][value="${text}"]`) });
      await row('Prune the apple tree').locator('.chip', { hasText: '@owner' }).waitFor();
      await row('Beans')
        .locator('.chip', { hasText: /May 10|10 May/ })
        .waitFor();
      await row('Carrots').locator('.chip', { hasText: 'Bed: north' }).waitFor();

      // Ctrl+↑ collapses Apples; the memory survives a reload; the chevron expands it again.
      await page.locator('input[aria-label="Task"][value="Apples"]').focus();
      await page.keyboard.press('Control+ArrowUp');
      await showing(['Apples', 'Beans', 'Carrots'], 'Apples collapsed');
      await page.reload();
      await page.locator('input[aria-label="Task"][value="Carrots"]').waitFor();
      await showing(['Apples', 'Beans', 'Carrots'], 'Apples still collapsed after a reload');
      await page.getByRole('button', { name: 'Expand: Apples' }).click();
      await showing(all, 'Apples expanded');

      // Search: matches with their ancestors.
      await page.getByRole('searchbox', { name: 'Search tasks' }).fill('pick');
      await showing(['Apples', 'Pick apples'], 'the search for "pick"');
      await page.getByRole('status').filter({ hasText: '1 matching task' }).waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await showing(all, 'filters cleared');

      // Completion, assignee and due date filters.
      await page.getByRole('combobox', { name: 'Completion' }).selectOption('done');
      await showing(['Carrots'], 'completed tasks');
      await page.getByRole('combobox', { name: 'Completion' }).selectOption('all');
      await page.getByRole('combobox', { name: 'Assignee' }).selectOption('owner');
      await showing(['Apples', 'Prune the apple tree'], "@owner's tasks");
      await page.getByRole('combobox', { name: 'Assignee' }).selectOption('');
      await page.getByLabel('Due from').fill('2026-05-01');
      await page.getByLabel('Due to').fill('2026-05-10');
      await showing(['Beans'], 'tasks due in the range (the end day included)');
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await showing(all, 'filters cleared again');

      // Ctrl+K: a command of the outline, then another project by name.
      await page.locator('input[aria-label="Task"][value="Beans"]').focus();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      await palette.getByRole('combobox', { name: 'Go to or run' }).fill('collapse all');
      await page.keyboard.press('Enter');
      await showing(['Apples', 'Beans', 'Carrots'], 'everything collapsed from the palette');
      await page.keyboard.press('Control+k');
      await palette.getByRole('combobox', { name: 'Go to or run' }).fill('kitchen');
      await palette.getByRole('option', { name: /Kitchen plans/ }).waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/projects/${otherId}`);
      await page.locator('input[aria-label="Task"][value="Buy a kettle"]').waitFor();
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
