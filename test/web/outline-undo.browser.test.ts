import type { Page } from 'playwright-core';
import { startServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot, openPage } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** What the page shows, top to bottom: "text" per row, indented two spaces a level, "[x]" when completed. */
function shown(page: Page) {
  return page.locator('[role=treeitem]').evaluateAll((rows) =>
    rows
      .map((r) => {
        const input: any = r.querySelector('input[aria-label="Task"]');
        if (!input) return null;
        const box: any = r.querySelector('input[type=checkbox]');
        return {
          y: r.getBoundingClientRect().top,
          text: `${'  '.repeat(Number(r.getAttribute('aria-level')) - 1)}${box.checked ? '[x] ' : ''}${input.value}`,
        };
      })
      .filter((r): r is { y: number; text: string } => r !== null)
      .sort((a, b) => a.y - b.y)
      .map((r) => r.text)
      .join('|'),
  );
}

/** Undo and redo of every outline edit, multi-select and Ctrl/Cmd+Enter, in a real Chromium against the real service. */
run('web app: outline undo, completion and multi-select', () => {
  const suite = serverAndBrowser(() => startServer());

  test('each edit is undone with Ctrl+Z and redone with Shift+Ctrl+Z; a delete offers Undo in a toast; several tasks complete and delete at once', async () => {
    const { server, browser } = suite;
    const projectId = await newProject(server, 'Undo');
    const [a] = await addTasks(server, projectId, ['A', 'B', 'C']);
    await addTasks(server, projectId, [{ content: 'A child', taskId: a!.id, placement: 'afterbegin' }]);
    const stored = async () =>
      (await allTasks(server, projectId)).map((t) => `${t.parentId ? '  ' : ''}${t.completed ? '[x] ' : ''}${t.text}`).join('|');
    const { context, page, errors } = await openPage(browser, server.token);
    const task = (text: string) => page.locator(`input[aria-label="Task"][value="${text}"]`);
    const both = async (want: string, what: string) => {
      let last = '';
      await waitFor(
        async () => (last = await stored()) === want,
        () => `${what} (stored: ${last})`,
      );
      await waitFor(
        async () => (last = await shown(page)) === want,
        () => `${what} (shown: ${last})`,
      );
    };
    await withScreenshot(page, 'outline-undo', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      await task('B').waitFor();

      // Rename, then undo and redo it.
      await task('B').fill('B renamed');
      await page.keyboard.press('Tab'); // leaving the line saves it (and Tab indents B under A)
      await both('A|  A child|  B renamed|C', 'B renamed and indented');
      await task('B renamed').focus();
      await page.keyboard.press('Control+z');
      await both('A|  A child|B renamed|C', 'the indent undone');
      await task('B renamed').focus();
      await page.keyboard.press('Control+z');
      await both('A|  A child|B|C', 'the rename undone');
      await task('B').focus();
      await page.keyboard.press('Control+Shift+z');
      await both('A|  A child|B renamed|C', 'the rename redone');

      // Ctrl+Enter completes; Ctrl+Z reopens.
      await task('C').focus();
      await page.keyboard.press('Control+Enter');
      await both('A|  A child|B renamed|[x] C', 'C completed');
      await task('C').focus();
      await page.keyboard.press('Control+z');
      await both('A|  A child|B renamed|C', 'C reopened by undo');

      // A new task, undone and redone.
      await task('C').focus();
      await page.keyboard.press('Enter');
      await page.locator('input[aria-label="New task"]').fill('D');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await both('A|  A child|B renamed|C|D', 'D added');
      await task('D').focus();
      await page.keyboard.press('Control+z');
      await both('A|  A child|B renamed|C', 'D taken back');
      await task('C').focus();
      await page.keyboard.press('Control+y');
      await both('A|  A child|B renamed|C|D', 'D made again');

      // Delete A (with its child) by emptying it; the toast's Undo brings both back, in place.
      await task('A').fill('');
      await page.keyboard.press('Backspace');
      await both('B renamed|C|D', 'A and its child deleted');
      const toast = page.locator('.toast', { hasText: 'Delete “A”' });
      await toast.getByRole('button', { name: 'Undo' }).click();
      await both('A|  A child|B renamed|C|D', 'A and its child back');

      // Shift+↓ selects B renamed and C; Ctrl+Enter completes both; Ctrl+Shift+Backspace deletes both; Ctrl+Z restores them.
      await task('B renamed').click();
      await page.keyboard.press('Shift+ArrowDown');
      await page.getByRole('toolbar', { name: 'Selected tasks' }).getByText('2 tasks selected').waitFor();
      await page.keyboard.press('Control+Enter');
      await both('A|  A child|[x] B renamed|[x] C|D', 'both completed');
      await task('C').click();
      await page.getByRole('toolbar', { name: 'Selected tasks' }).waitFor({ state: 'detached' });
      await page.keyboard.down('Shift');
      await task('B renamed').click();
      await page.keyboard.up('Shift');
      await page.getByText('2 tasks selected').waitFor();
      await page.keyboard.press('Control+Shift+Backspace');
      await both('A|  A child|D', 'both deleted');
      await task('D').focus();
      await page.keyboard.press('Control+z');
      await both('A|  A child|[x] B renamed|[x] C|D', 'both back, still completed');

      // Shift+click selects a range; the toolbar's Delete and Undo work the same way.
      await task('A child').click();
      await page.keyboard.down('Shift');
      await task('D').click();
      await page.keyboard.up('Shift');
      await page.getByRole('toolbar', { name: 'Selected tasks' }).getByRole('button', { name: 'Delete' }).click();
      await both('A', 'four tasks deleted from the toolbar');
      await page.locator('.toast', { hasText: 'Delete 4 tasks' }).getByRole('button', { name: 'Undo' }).click();
      await both('A|  A child|[x] B renamed|[x] C|D', 'all four back');

      // Ctrl+Z pressed while an edit's request is still on the way takes back that edit, not the one before.
      await task('D').focus();
      await page.keyboard.press('Control+Enter');
      await page.keyboard.press('Control+z');
      await page.locator('.toast', { hasText: 'Undone: Complete “D”' }).waitFor();
      await both('A|  A child|[x] B renamed|[x] C|D', 'D completed and at once reopened');
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
