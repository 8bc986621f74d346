import type { Page } from 'playwright-core';
import { client, startServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import path from 'node:path';
import { browserAvailable, SCREENSHOTS, serverAndBrowser, seriousViolations, withScreenshot, openPage } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The task texts the outline shows, top to bottom, "|"-joined, two spaces of indent a level. */
function shown(page: Page) {
  return page.locator('[role=treeitem]').evaluateAll((rows) =>
    rows
      .map((r) => {
        const input: any = r.querySelector('input[aria-label="Task"]');
        return input
          ? {
              y: r.getBoundingClientRect().top,
              text: `${'  '.repeat(Number(r.getAttribute('aria-level')) - 1)}${input.value}`,
            }
          : null;
      })
      .filter((r): r is { y: number; text: string } => r !== null)
      .sort((a, b) => a.y - b.y)
      .map((r) => r.text)
      .join('|'),
  );
}

/**
 * The deleted-tasks view and the time-zone picker, in a real Chromium against the real service: a
 * person deletes a task in the outline, opens Deleted tasks, restores it and sees it back in its
 * place with its subtask and note; then picks a due date's time zone by typing part of its name.
 * No console error on the way (a task without a date or note is not asked for one).
 */
run('web app: deleted tasks and the time-zone picker', () => {
  const suite = serverAndBrowser(() => startServer());

  test('delete in the outline, restore from Deleted tasks, pick a time zone by typing', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Trash');
    const [, b] = await addTasks(server, projectId, ['Alpha', 'Bravo', 'Charlie']);
    await addTasks(server, projectId, [{ content: 'Bravo child', taskId: b!.id, placement: 'beforeend' }]);
    expect(
      (
        await api.put(`/api/v1/projects/${projectId}/tasks/${b!.id}/note`, {
          type: 'text',
          value: 'Bring the slides',
        })
      ).status,
    ).toBe(200);
    const stored = async () => (await allTasks(server, projectId)).map((t) => `${t.parentId ? '  ' : ''}${t.text}`).join('|');

    const { context, page, errors } = await openPage(browser, server.token);
    const task = (text: string) => page.locator(`input[aria-label="Task"][value="${text}"]`);

    await withScreenshot(page, 'outline-trash', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      await task('Bravo').waitFor();

      // Delete Bravo (with its child) from the keyboard.
      await task('Bravo').focus();
      await page.keyboard.press('Control+Shift+Backspace');
      await waitFor(async () => (await stored()) === 'Alpha|Charlie', 'Bravo deleted (stored)');
      await waitFor(async () => (await shown(page)) === 'Alpha|Charlie', 'Bravo gone from the outline');

      // Deleted tasks lists it, with who and when, and restores it.
      await page.getByRole('button', { name: 'Deleted tasks' }).click();
      const panel = page.getByRole('complementary', { name: 'Deleted tasks' });
      const entry = panel.getByRole('listitem').filter({ hasText: 'Bravo' });
      await entry.waitFor();
      expect(await entry.textContent()).toMatch(/Deleted .+ by @owner · with 1 subtask/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'outline-trash-list.png') });
      await entry.getByRole('button', { name: 'Restore “Bravo”' }).click();
      await waitFor(async () => (await stored()) === 'Alpha|Bravo|  Bravo child|Charlie', 'Bravo restored (stored)');
      await waitFor(async () => (await shown(page)) === 'Alpha|Bravo|  Bravo child|Charlie', 'Bravo back in its place in the outline');
      await panel.getByRole('heading', { name: 'No deleted tasks' }).waitFor();
      await page.locator('.toast', { hasText: 'Restored “Bravo”' }).waitFor();
      // The restore took the delete toast's place: its Undo no longer applies.
      expect(await page.locator('.toast', { hasText: 'Delete “Bravo”' }).count()).toBe(0);
      await panel.getByRole('button', { name: 'Close' }).click();
      await panel.waitFor({ state: 'detached' });

      // The restored task kept its id and its note.
      await page.getByRole('button', { name: 'Details: Bravo', exact: true }).click();
      const details = page.getByRole('complementary', { name: 'Bravo' });
      await waitFor(async () => (await details.getByLabel(/^Note/).inputValue()) === 'Bring the slides', 'the note restored');

      // Pick the time zone by typing part of its name, then the keyboard.
      await details.getByLabel('Due date').fill('2027-03-01');
      const zone = details.getByRole('combobox', { name: 'Time zone' });
      await zone.click();
      await zone.fill('auckl');
      expect(await zone.getAttribute('aria-expanded')).toBe('true');
      const options = details.getByRole('listbox').getByRole('option');
      await waitFor(
        async () => (await options.allTextContents()).join('|') === 'Pacific/Auckland',
        'the list narrowed to Pacific/Auckland',
      );
      await zone.press('ArrowDown');
      await zone.press('Enter');
      expect(await zone.inputValue()).toBe('Pacific/Auckland');
      expect(await zone.getAttribute('aria-expanded')).toBe('false');
      // Several words narrow too: "new york".
      await zone.fill('new york');
      await details.getByRole('option', { name: 'America/New York' }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'outline-trash-time-zone.png') });
      await zone.press('Escape');
      expect(await zone.inputValue()).toBe('Pacific/Auckland');
      await details.getByRole('button', { name: 'Save dates' }).click();
      await waitFor(
        async () => (await api.get(`/api/v1/projects/${projectId}/tasks/${b!.id}/date`)).body.item?.end?.timezone === 'Pacific/Auckland',
        'the date saved in Pacific/Auckland',
      );
      expect((await api.get(`/api/v1/projects/${projectId}/tasks/${b!.id}/date`)).body.item).toEqual({
        start: null,
        end: { date: '2027-03-01', timezone: 'Pacific/Auckland' },
      });
      expect(await seriousViolations(page)).toEqual([]);

      // The toast's Undo of a delete restores from the deleted tasks too: same id, date and subtask.
      await task('Bravo').focus();
      await page.keyboard.press('Control+Shift+Backspace');
      await waitFor(async () => (await stored()) === 'Alpha|Charlie', 'Bravo deleted again');
      await page.locator('.toast', { hasText: 'Delete “Bravo”' }).getByRole('button', { name: 'Undo' }).click();
      await waitFor(async () => (await shown(page)) === 'Alpha|Bravo|  Bravo child|Charlie', 'Bravo back by Undo');
      expect((await allTasks(server, projectId))[1]!.id).toBe(b!.id);
      expect((await api.get(`/api/v1/projects/${projectId}/tasks/${b!.id}/date`)).body.item.end.timezone).toBe('Pacific/Auckland');
      expect((await api.get(`/api/v1/projects/${projectId}/trash`)).body.items).toEqual([]);
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
