import { call, client } from '../helpers/server';
import { automationServer, receiver, waitFor } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * The whole way a self-hoster takes on the first day, in one real Chromium with a real session
 * cookie (no token in the browser): the setup link, signing in, a project from markdown edited with
 * the keyboard, an automation built in the builder, a call to its inbound URL, the approval decided
 * from the inbox while the run's timeline and the outline update live in other tabs.
 */
run('web app: the first-day journey', () => {
  const suite = serverAndBrowser(() => automationServer());
  const PASSWORD = 'a long first password';

  test('setup link → sign in → project from markdown → keyboard edits → builder → inbound call → approval → the run finishes live', async () => {
    const { server, browser } = suite;
    const rx = await receiver(() => ({ status: 200, body: { accepted: true } }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    try {
      await withScreenshot(page, 'journey', async () => {
        // 1. The setup link printed at first start sets the owner's password; then sign in.
        await page.goto(`${server.url}/setup?token=${server.built.bootstrap!.setupToken!}`);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Set password' }).click();
        await page.getByText('Your password is set').waitFor();
        await page.goto(`${server.url}/`);
        await page.waitForURL(/\/sign-in/);
        await page.getByLabel('Handle or email').fill('owner');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('Signed in as @owner').waitFor();

        // 2. A project from markdown, edited with the keyboard: add, indent, complete, move.
        await page.getByRole('link', { name: 'New project' }).first().click();
        await page.getByLabel('Markdown (headings and lists become tasks)').check();
        await page.getByRole('textbox', { name: 'Markdown', exact: true }).fill('# Calls\n\n- Prepare the list\n- Review');
        await page.getByRole('button', { name: 'Create project' }).click();
        await page.getByRole('heading', { name: 'Calls' }).waitFor();
        const projectId = page.url().split('/').pop()!;
        const task = (text: string) => page.locator(`input[aria-label="Task"][value="${text}"]`);
        const tasks = async () =>
          (await call(server.url, 'GET', `/api/v1/projects/${projectId}/tasks`, { token: server.token })).body.items as any[];
        await task('Prepare the list').click();
        await page.keyboard.press('Enter');
        await page.getByLabel('New task').fill('Find numbers');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Escape');
        await waitFor(async () => (await tasks()).some((t) => t.text === 'Find numbers'), 'the new task');
        await task('Find numbers').focus();
        await page.keyboard.press('Tab');
        await waitFor(async () => (await tasks()).find((t) => t.text === 'Find numbers')?.parentId !== undefined, 'indented');
        await page.getByRole('checkbox', { name: 'Completed: Find numbers' }).check();
        await waitFor(async () => (await tasks()).find((t) => t.text === 'Find numbers')?.completed === true, 'completed');
        await task('Review').focus();
        await page.keyboard.press('Alt+ArrowUp');
        await waitFor(
          async () => (await tasks()).map((t) => t.text).join('|') === 'Review|Prepare the list|Find numbers',
          'Review moved up',
        );

        // 3. An automation built in the builder (its JSON view): inbound webhook → task from a body
        //    field → HTTP Request to a loopback receiver → approval → update the task.
        await page.getByRole('link', { name: 'Automations', exact: true }).click();
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByRole('tab', { name: 'JSON' }).click();
        await page.getByLabel('Definition (JSON)').fill(
          JSON.stringify({
            name: 'Call back',
            trigger: { type: 'webhook' },
            actions: [
              { id: 'make', type: 'task.create', projectId, text: 'Call {{ trigger.name }}' },
              {
                id: 'notify',
                type: 'http.request',
                method: 'POST',
                url: `${rx.url}/notify`,
                body: { type: 'json', value: { task: '{{ steps.make.id }}' } },
              },
              { id: 'ok', type: 'approval', message: 'Call {{ trigger.name }} back?' },
              { id: 'done', type: 'task.update', projectId, taskId: '{{ steps.make.id }}', text: 'Called {{ trigger.name }}' },
            ],
          }),
        );
        await page.getByRole('button', { name: 'Save' }).click();
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const automationId = page.url().split('/').at(-2)!;
        const automation = (await client(server, server.token).get(`/api/v1/automations/${automationId}`)).body.item;
        // The builder shows the inbound URL the save made.
        expect(await page.getByRole('status', { name: 'Inbound URL' }).textContent()).toContain(automation.webhook.url);

        // 4. Another system calls the inbound URL; the run waits for the approval.
        expect((await call(server.url, 'POST', new URL(automation.webhook.url).pathname, { body: { name: 'Ann' } })).status).toBe(200);
        const runId = await waitFor(async () => {
          const [r] = (await call(server.url, 'GET', `/api/v1/automations/${automationId}/runs`, { token: server.token })).body.items;
          return r?.status === 'waiting' && r.id;
        }, 'the run waiting for approval');

        // 5. The run's timeline and the outline are open in other tabs; approving in the inbox updates both live.
        const timeline = await context.newPage();
        await timeline.goto(`${server.url}/automations/${automationId}/runs/${runId}`);
        await timeline.getByRole('heading', { name: /Run .* waiting/ }).waitFor();
        const outline = await context.newPage();
        await outline.goto(`${server.url}/projects/${projectId}`);
        await outline.locator('input[aria-label="Task"][value="Call Ann"]').waitFor();

        await page.goto(`${server.url}/approvals`);
        const card = page.getByRole('listitem').filter({ hasText: 'Call Ann back?' });
        await card.getByRole('button', { name: 'Approve' }).click();
        await timeline.getByRole('heading', { name: /Run .* completed/ }).waitFor();
        await timeline.getByRole('list', { name: 'Steps' }).getByText('done').waitFor();
        await outline.locator('input[aria-label="Task"][value="Called Ann"]').waitFor();
        expect(rx.received.filter((r) => r.url === '/notify')).toHaveLength(1);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
      await rx.close();
    }
  });
});
