import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * The web app's screens in a real Chromium against the real server. These contexts authenticate
 * with the bearer token header (every request the page makes carries it), which the API accepts
 * exactly like the session cookie; signing in with a password is tested in sign-in.browser.test.ts.
 */
run('web app screens', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    server = await startServer({
      env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_INBOUND_RATE_PER_MINUTE: '100000', TASKSPACE_WEBHOOKS_POLL_MS: '100' },
    });
    browser = await launch();
  });
  beforeEach(async () => {
    context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (name: string, body: () => Promise<void>) => withScreenshot(page, name, body);

  test('the outline is edited with the keyboard: add, indent, outdent, complete', async () => {
    const projectId = await newProject(server, 'Keyboard');
    await shot('outline-keyboard', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      await page.getByRole('heading', { name: 'Keyboard' }).waitFor();
      await page.getByRole('button', { name: 'Add task' }).click();
      await page.getByLabel('New task').fill('Plan');
      await page.keyboard.press('Enter');
      await page.getByLabel('New task').fill('Draft');
      await page.keyboard.press('Enter');
      await page.getByLabel('New task').fill('Review');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await waitFor(async () => (await allTasks(server, projectId)).length === 3, 'three tasks');
      // Escape leaves the new-task line and returns to the last task.
      const task = (text: string) => page.locator(`input[aria-label="Task"][value="${text}"]`);
      await waitFor(() => task('Review').evaluate((el: any) => el === el.ownerDocument.activeElement), 'Review focused');
      // Indent "Draft" under "Plan", then "Review" too, then outdent "Review" again.
      const level = (text: string, n: number) =>
        page
          .locator(`[role=treeitem][aria-level="${n}"]`)
          .filter({ has: task(text) })
          .waitFor();
      await task('Draft').focus();
      await page.keyboard.press('Tab');
      await waitFor(
        async () =>
          (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: server.token })).body.items[1].parentId !==
          undefined,
        'Draft indented',
      );
      await level('Draft', 2);
      await task('Review').focus();
      await page.keyboard.press('Tab');
      await waitFor(
        async () =>
          (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: server.token })).body.items[2].parentId !==
          undefined,
        'Review indented',
      );
      await level('Review', 2);
      await task('Review').focus();
      await page.keyboard.press('Shift+Tab');
      await waitFor(
        async () =>
          (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: server.token })).body.items[2].parentId ===
          undefined,
        'Review outdented',
      );
      await page.getByRole('checkbox', { name: 'Completed: Draft' }).check();
      const items = await waitFor(async () => {
        const list = (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: server.token })).body.items;
        return list[1].completed && list;
      }, 'Draft completed');
      expect(items.map((t: any) => [t.text, t.parentId === undefined ? 0 : 1, t.completed])).toEqual([
        ['Plan', 0, false],
        ['Draft', 1, true],
        ['Review', 0, false],
      ]);
      await level('Review', 1);
      await level('Draft', 2);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test('renaming inline keeps the one-line, 2,000-character rule of the service', async () => {
    const projectId = await newProject(server, 'Rename');
    await call(server.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
      token: server.token,
      body: { tasks: [{ contentType: 'text/plain', content: 'Old name' }] },
    });
    await shot('outline-rename', async () => {
      await page.goto(`${server.url}/projects/${projectId}`);
      const input = page.locator('input[aria-label="Task"][value="Old name"]');
      await input.fill('New name');
      await page.keyboard.press('Enter');
      await waitFor(async () => (await allTasks(server, projectId))[0]?.text === 'New name', 'renamed');
      await page.getByText(/one line of up to 2,000 characters/).waitFor();
    });
  });

  test('a Viewer sees the outline without edit controls, and the service refuses the writes anyway', async () => {
    const viewerToken = addUser(server, 'vic', { workspaceId: server.workspaceId, role: 'Viewer' });
    const projectId = await newProject(server, 'Read only');
    await call(server.url, 'POST', `/api/v1/projects/${projectId}/tasks/`, {
      token: server.token,
      body: { tasks: [{ contentType: 'text/plain', content: 'Look only' }] },
    });
    const viewer = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${viewerToken}` } });
    const viewerPage = await viewer.newPage();
    await withScreenshot(viewerPage, 'viewer-outline', async () => {
      await viewerPage.goto(`${server.url}/projects/${projectId}`);
      await viewerPage.locator('input[aria-label="Task"][value="Look only"]').waitFor();
      expect(await viewerPage.locator('input[aria-label="Task"][value="Look only"]').getAttribute('readonly')).not.toBeNull();
      expect(await viewerPage.getByRole('checkbox', { name: 'Completed: Look only' }).isDisabled()).toBe(true);
      expect(await viewerPage.getByRole('button', { name: 'Add task' }).count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: 'Project actions' }).count()).toBe(0);
    });
    const taskId = (await allTasks(server, projectId))[0]!.id;
    expect((await call(server.url, 'POST', `/api/v1/projects/${projectId}/tasks/${taskId}/complete`, { token: viewerToken })).status).toBe(
      403,
    );
    await viewer.close();
  });

  test('a project is created from markdown and lands in the outline', async () => {
    await shot('new-project-markdown', async () => {
      await page.goto(`${server.url}/folders/${server.workspaceId}/new-project`);
      await page.getByLabel('Markdown (headings and lists become tasks)').check();
      await page
        .getByRole('textbox', { name: 'Markdown', exact: true })
        .fill('# From markdown\n\n- First\n  - Nested\n- [x] Done already\n');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('heading', { name: 'From markdown' }).waitFor();
      await page.locator('input[aria-label="Task"][value="Nested"]').waitFor();
      expect(await page.getByRole('checkbox', { name: 'Completed: Done already' }).isChecked()).toBe(true);
    });
  });

  test('an approval waiting in a run is decided from the inbox; the run timeline shows it finish', async () => {
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Approvals');
    const created = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Needs a yes',
      trigger: { type: 'webhook' },
      actions: [
        { id: 'ok', type: 'approval', message: 'Create {{ trigger.title }}?' },
        { id: 'make', type: 'task.create', projectId, text: '{{ trigger.title }} ({{ steps.ok.comment | default: "no comment" }})' },
      ],
    });
    expect(created.status).toBe(200);
    const automation = created.body.item;
    await call(server.url, 'POST', new URL(automation.webhook.url).pathname, { body: { title: 'Ship the web app' } });
    await shot('approvals-inbox', async () => {
      await page.goto(`${server.url}/approvals`);
      const card = page.getByRole('listitem').filter({ hasText: 'Create Ship the web app?' });
      await card.waitFor({ timeout: 15000 });
      await page.getByRole('link', { name: /Approvals\s*1/ }).waitFor();
      await card.getByLabel('Comment (optional)').fill('looks good');
      await card.getByRole('button', { name: 'Approve' }).click();
      await waitFor(async () => (await allTasks(server, projectId)).length === 1, 'the task made after approval');
      expect((await allTasks(server, projectId))[0]!.text).toBe('Ship the web app (looks good)');
      const [runItem] = (await api.get(`/api/v1/automations/${automation.id}/runs`)).body.items;
      await page.goto(`${server.url}/automations/${automation.id}/runs/${runItem.id}`);
      await page.getByRole('heading', { name: /Run .* completed/ }).waitFor();
      await page.getByRole('list', { name: 'Steps' }).getByText('make').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test('the automations list switches an automation off; the builder saves a definition typed in its JSON view', async () => {
    const api = client(server, server.token);
    const created = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Switch me',
      trigger: { type: 'task.added' },
      actions: [],
    });
    const id = created.body.item.id;
    await shot('automations-builder', async () => {
      await page.goto(`${server.url}/automations`);
      await page.getByRole('switch', { name: 'Switch me enabled' }).uncheck();
      await waitFor(async () => (await api.get(`/api/v1/automations/${id}`)).body.item.enabled === false, 'disabled');
      await page.goto(`${server.url}/automations/${id}/edit`);
      // Errors at the field are builder-mistakes.browser.test.ts's; here the JSON view (CodeMirror,
      // typed into as a person types) saves, and the form view shows the same draft.
      await page.getByRole('tab', { name: 'JSON' }).click();
      const json = page.getByRole('textbox', { name: 'Definition (JSON)' });
      await json.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.insertText(
        JSON.stringify({
          name: 'Switched',
          trigger: { type: 'schedule', everyMinutes: 60 },
          actions: [{ id: 'calc', type: 'set', values: { n: 1 } }],
        }),
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await waitFor(async () => (await api.get(`/api/v1/automations/${id}`)).body.item.name === 'Switched', 'saved');
      await page.getByRole('tab', { name: 'Form' }).click();
      await page.getByRole('button', { name: /^Step calc: / }).waitFor();
    });
  });

  test('a webhook registration shows its secret once', async () => {
    await shot('webhooks', async () => {
      await page.goto(`${server.url}/settings/webhooks`);
      await page.getByLabel('Target URL').fill('http://127.0.0.1:9/hook');
      await page.getByRole('button', { name: 'Register' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Signing secret' });
      await status.waitFor();
      expect(await status.textContent()).toMatch(/whsec_[A-Za-z0-9_-]{43}/);
      await page.getByRole('link', { name: 'http://127.0.0.1:9/hook' }).waitFor();
      await page.reload();
      await page.getByRole('link', { name: 'http://127.0.0.1:9/hook' }).waitFor();
      expect(await page.getByText('whsec_').count()).toBe(0);

      // A legacy subscription made through the API is listed, and unsubscribed from here.
      const legacy = await call(server.url, 'POST', '/api/v2/subscribeWebhook', {
        token: server.token,
        body: { targetUrl: 'http://127.0.0.1:9/legacy', triggerType: 'task.due' },
      });
      expect(legacy.status).toBe(200);
      await page.reload();
      await page.getByRole('heading', { name: 'Legacy subscriptions (deprecated)' }).waitFor();
      await page.getByRole('button', { name: 'Unsubscribe http://127.0.0.1:9/legacy from task.due' }).click();
      await page.getByRole('heading', { name: 'Legacy subscriptions (deprecated)' }).waitFor({ state: 'detached' });
      expect((await call(server.url, 'GET', '/api/v2/subscriptions', { token: server.token })).body.items).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  test('media: upload with progress, list, delete', async () => {
    await shot('media', async () => {
      await page.goto(`${server.url}/media`);
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello media') });
      await page.getByRole('cell', { name: 'notes.txt', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/^\/api\/v1\/medias\/.+\/content$/);
      await page.getByRole('button', { name: 'Delete notes.txt' }).click();
      await page.getByText('No media yet.').waitFor();
    });
  });
});
