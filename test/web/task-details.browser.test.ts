import { addUser, client, startServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, openPage, serverAndBrowser, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** A task's details beside the outline, in a real Chromium: every part written through the API and read back. */
run('web app: task details', () => {
  const suite = serverAndBrowser(() => startServer());

  test('assignees, due date with its time zone, note, custom fields and a comment; a Viewer reads them without controls', async () => {
    const api = client(suite.server, suite.server.token);
    const projectId = await newProject(suite.server, 'Launch');
    const [task] = await addTasks(suite.server, projectId, ['Ship it']);
    const stage = (
      await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Stage', type: 'select', options: ['todo', 'doing', 'done'] })
    ).body.item;
    const points = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Points', type: 'number' })).body.item;
    const base = `/api/v1/projects/${projectId}/tasks/${task!.id}`;

    const context = await suite.browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${suite.server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'task-details', async () => {
      await page.goto(`${suite.server.url}/projects/${projectId}`);
      await page.getByRole('button', { name: 'Details: Ship it' }).click();
      const details = page.getByRole('complementary', { name: 'Ship it' });
      await details.waitFor();
      expect(new URL(page.url()).searchParams.get('task')).toBe(task!.id);

      await details.getByRole('checkbox', { name: /@owner/ }).check();
      await waitFor(async () => (await api.get(`${base}/assignees`)).body.items?.[0]?.handle === 'owner', 'owner assigned');

      await details.getByLabel('Due date').fill('2026-12-24');
      await details.getByLabel('Due time').fill('17:30');
      // The time zone is picked by typing part of its name.
      await details.getByRole('combobox', { name: 'Time zone' }).fill('paris');
      await details.getByRole('option', { name: 'Europe/Paris' }).click();
      expect(await details.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Europe/Paris');
      await details.getByRole('button', { name: 'Save dates' }).click();
      await details.getByRole('status').filter({ hasText: 'Dates saved.' }).waitFor();
      expect((await api.get(`${base}/date`)).body.item).toEqual({
        start: null,
        end: { date: '2026-12-24', time: '17:30', timezone: 'Europe/Paris' },
      });

      // A note is one line (spec 4.1): a pasted line break becomes a space, Enter saves.
      await details.getByLabel('Format').selectOption('markdown');
      await details.getByLabel(/^Note/).fill('**Remember** the release notes <img src=x>\nand the blog post');
      await details.getByLabel(/^Note/).press('Enter');
      await waitFor(async () => (await api.get(`${base}/note`)).body.item?.type === 'markdown', 'note saved');
      expect((await api.get(`${base}/note`)).body.item.value).toBe('**Remember** the release notes <img src=x> and the blog post');
      // A markdown note is previewed through the sanitizing renderer: emphasis yes, raw HTML never.
      await details.getByRole('button', { name: 'Preview' }).click();
      const preview = details.getByLabel('Note preview');
      await preview.getByText('and the blog post').waitFor();
      await preview.locator('strong', { hasText: 'Remember' }).waitFor();
      expect(await preview.locator('img').count()).toBe(0);

      await details.getByLabel('Stage').selectOption('doing');
      await waitFor(async () => (await api.get(`${base}/fields/${stage.id}`)).body.item?.value === 'doing', 'stage saved');
      await details.getByLabel('Points').fill('5');
      await details.getByLabel('Points').press('Enter');
      await waitFor(async () => (await api.get(`${base}/fields/${points.id}`)).body.item?.value === 5, 'points saved');

      await details.getByLabel('New comment').fill('Looks good <b>to me</b>');
      await details.getByRole('button', { name: 'Add comment' }).click();
      await details.getByRole('listitem').filter({ hasText: 'Looks good <b>to me</b>' }).waitFor();
      await waitFor(async () => (await details.getByLabel('New comment').inputValue()) === '', 'the comment box emptied');
      expect((await api.get(`${base}/comments`)).body.items.map((c: any) => c.text)).toEqual(['Looks good <b>to me</b>']);
      expect(await seriousViolations(page)).toEqual([]);

      await details.getByRole('button', { name: 'Close details' }).click();
      await details.waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('task')).toBeNull();
    });
    await context.close();

    const viewerToken = addUser(suite.server, 'vera', { workspaceId: suite.server.workspaceId, role: 'Viewer' });
    const viewer = await suite.browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${viewerToken}` } });
    viewer.setDefaultTimeout(10000);
    const viewerPage = await viewer.newPage();
    await withScreenshot(viewerPage, 'task-details-viewer', async () => {
      await viewerPage.goto(`${suite.server.url}/projects/${projectId}?task=${task!.id}`);
      const details = viewerPage.getByRole('complementary', { name: 'Ship it' });
      await details.getByText('Looks good <b>to me</b>').waitFor();
      await waitFor(() => details.getByRole('checkbox', { name: /@owner/ }).isChecked(), 'the assignee shown');
      expect(await details.getByRole('checkbox', { name: /@owner/ }).isDisabled()).toBe(true);
      expect(await details.getByLabel('Stage').inputValue()).toBe('doing');
      expect(await details.getByRole('button', { name: /Save|Add comment|Remove/ }).count()).toBe(0);
      expect(await details.getByLabel('New comment').count()).toBe(0);
    });
    await viewer.close();

    // At 390 px wide the details stack under the outline and nothing overflows sideways.
    const phone = await suite.browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${suite.server.token}` },
      viewport: { width: 390, height: 844 },
    });
    phone.setDefaultTimeout(10000);
    const phonePage = await phone.newPage();
    await withScreenshot(phonePage, 'task-details-390', async () => {
      await phonePage.goto(`${suite.server.url}/projects/${projectId}?task=${task!.id}`);
      await phonePage.getByRole('complementary', { name: 'Ship it' }).getByRole('button', { name: 'Save dates' }).waitFor();
      expect(await phonePage.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(await seriousViolations(phonePage)).toEqual([]);
    });
    await phone.close();
  });
  test("a task's details opened by their link read the date and the note only of a task that has them, with no 404 in the console", async () => {
    const api = client(suite.server, suite.server.token);
    const projectId = await newProject(suite.server, 'Linked');
    const [bare, dated] = await addTasks(suite.server, projectId, ['Nothing yet', 'Has a date and a note']);
    const base = `/api/v1/projects/${projectId}/tasks/${dated!.id}`;
    expect((await api.put(`${base}/date`, { end: { date: '2026-12-24', timezone: 'Europe/Berlin' } })).status).toBe(200);
    expect((await api.put(`${base}/note`, { type: 'text', value: 'Bring the slides' })).status).toBe(200);

    const { context, page, errors } = await openPage(suite.browser, suite.server.token);
    const asked: string[] = [];
    page.on('request', (r) => /\/(date|note)$/.test(new URL(r.url()).pathname) && asked.push(new URL(r.url()).pathname));
    await withScreenshot(page, 'task-details-link', async () => {
      // Straight to the link of a task without a date or a note: the panel asks for neither.
      await page.goto(`${suite.server.url}/projects/${projectId}?task=${bare!.id}`);
      const details = page.getByRole('complementary', { name: 'Nothing yet' });
      await details.getByLabel('Due date').waitFor();
      await page.locator('input[aria-label="Task"][value="Has a date and a note"]').waitFor();
      expect(await details.getByLabel('Due date').inputValue()).toBe('');
      // The task with both: they are read and shown.
      await page.goto(`${suite.server.url}/projects/${projectId}?task=${dated!.id}`);
      const full = page.getByRole('complementary', { name: 'Has a date and a note' });
      await waitFor(async () => (await full.getByLabel('Due date').inputValue()) === '2026-12-24', 'the due date shown');
      await waitFor(async () => (await full.getByLabel(/^Note/).inputValue()) === 'Bring the slides', 'the note shown');
    });
    expect(asked.sort()).toEqual([`${base}/date`, `${base}/note`]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
