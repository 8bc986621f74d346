import { startServer } from '../helpers/server';
import { addTasks, allTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Moving tasks in the outline by dragging and with Alt+↑/↓, in a real Chromium; the service's order is checked. */
run('web app: moving tasks in the outline', () => {
  const suite = serverAndBrowser(() => startServer());

  test('dragging a task before another, and Alt+↓ / Alt+↑ among siblings, move it (with its subtree) where the service stores it', async () => {
    const { server, browser } = suite;
    const projectId = await newProject(server, 'Order');
    await addTasks(server, projectId, ['A', 'B', 'C']);
    await addTasks(server, projectId, [
      { content: 'C child', taskId: (await allTasks(server, projectId))[2]!.id, placement: 'afterbegin' },
    ]);
    const order = async () => (await allTasks(server, projectId)).map((t) => `${t.parentId ? '  ' : ''}${t.text}`);
    expect(await order()).toEqual(['A', 'B', 'C', '  C child']);

    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'outline-move', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      // What the page shows, top to bottom (the next key acts on it, so wait for it before pressing one).
      const shown = () => page.locator('input[aria-label="Task"]').evaluateAll((inputs) => inputs.map((i: any) => i.value).join('|'));
      const row = (text: string) =>
        page.locator('[role=treeitem]').filter({ has: page.locator(`input[aria-label="Task"][value="${text}"]`) });
      await row('C').waitFor();
      // Drop C (with its child) on the upper half of A.
      const target = await row('A').boundingBox();
      await row('C')
        .locator('.drag-handle')
        .dragTo(row('A'), { targetPosition: { x: 40, y: Math.max(2, target!.height / 4) } });
      await waitFor(async () => (await order()).join('|') === 'C|  C child|A|B', 'C moved before A');
      await waitFor(async () => (await shown()) === 'C|C child|A|B', 'the page showing C first');

      // Alt+↓ on C: after its next sibling (A); Alt+↑ on B: before its previous sibling (now C).
      await page.locator('input[aria-label="Task"][value="C"]').focus();
      await page.keyboard.press('Alt+ArrowDown');
      await waitFor(async () => (await order()).join('|') === 'A|C|  C child|B', 'C moved below A');
      await waitFor(async () => (await shown()) === 'A|C|C child|B', 'the page showing C below A');
      await page.locator('input[aria-label="Task"][value="B"]').focus();
      await page.keyboard.press('Alt+ArrowUp');
      await waitFor(async () => (await order()).join('|') === 'A|B|C|  C child', 'B moved above C');
    });
    await context.close();
  });
});
