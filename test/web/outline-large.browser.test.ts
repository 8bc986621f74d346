import { call, startServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** A project larger than one page of tasks (500): shown after its first page, then whole, and whole again after a change. */
run('web app: a large outline', () => {
  const suite = serverAndBrowser(() => startServer());

  test('1,200 tasks: the first page shows, the rest follows, and a live change keeps the whole list', async () => {
    const { server, browser } = suite;
    const projectId = await newProject(server, 'Big');
    for (let made = 0; made < 1200; made += 100) {
      const tasks = Array.from({ length: 100 }, (_, i) => ({ contentType: 'text/plain', content: `Task ${made + i + 1}` }));
      expect(
        (await call(server.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, { token: server.token, body: { tasks } })).status,
      ).toBe(200);
    }
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'outline-large', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      await page.locator('input[aria-label="Task"][value="Task 1"]').waitFor();
      const bottom = async (text: string) => {
        await page.locator('.outline-scroll').evaluate((el: any) => (el.scrollTop = el.scrollHeight));
        return page.locator(`input[aria-label="Task"][value="${text}"]`).isVisible();
      };
      await waitFor(() => bottom('Task 1200'), 'the last task at the bottom');
      // A change from elsewhere refetches the list; it stays whole (never cut back to the first page).
      await call(server.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
        token: server.token,
        body: { tasks: [{ contentType: 'text/plain', content: 'Task 1201' }] },
      });
      await waitFor(() => bottom('Task 1201'), 'the new last task');
      expect(await page.locator('.outline-scroll').evaluate((el: any) => el.scrollHeight)).toBeGreaterThan(1201 * 30);
    });
    await context.close();
  });
});
