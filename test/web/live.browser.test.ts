import { call, startServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Live updates in a real Chromium: what one browser (or a script) changes, another shows without a reload. */
run('web app: live updates', () => {
  const suite = serverAndBrowser(() => startServer());

  test('a task added and renamed in one browser appears in a second one within a second or two', async () => {
    const projectId = await newProject(suite.server, 'Shared plan');
    const open = async () => {
      const context = await suite.browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${suite.server.token}` } });
      context.setDefaultTimeout(5000);
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/projects/${projectId}`);
      await page.getByRole('heading', { name: 'Shared plan' }).waitFor();
      return { context, page };
    };
    const a = await open();
    const b = await open();
    const task = (page: typeof a.page, text: string) => page.locator(`input[aria-label="Task"][value="${text}"]`);
    await withScreenshot(b.page, 'live-outline', async () => {
      await a.page.getByRole('button', { name: 'Add task' }).click();
      await a.page.getByLabel('New task').fill('Written in A');
      await a.page.keyboard.press('Enter');
      await task(b.page, 'Written in A').waitFor();

      await task(a.page, 'Written in A').fill('Renamed in A');
      await a.page.keyboard.press('Enter');
      await task(b.page, 'Renamed in A').waitFor();

      // A change made through the API by a script shows in both.
      await call(suite.server.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
        token: suite.server.token,
        body: { tasks: [{ contentType: 'text/plain', content: 'From a script' }] },
      });
      await task(a.page, 'From a script').waitFor();
      await task(b.page, 'From a script').waitFor();
    });
    await a.context.close();
    await b.context.close();
  });
});
