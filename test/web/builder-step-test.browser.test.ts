import type { Page } from 'playwright-core';
import { client } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { automationServer, createAutomation } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';
import { BuilderPage, dataEntry, testStepOn } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** Clicks Save and waits for the save's confirmation. */
async function save(page: Page): Promise<void> {
  const answer = page.waitForResponse(
    (r) =>
      /\/api\/v1\/automations(\/[^/]+)?$/.test(new URL(r.url()).pathname) &&
      !new URL(r.url()).pathname.endsWith('/check') &&
      ['POST', 'PUT'].includes(r.request().method()),
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const version = (await (await answer).json()).item.version;
  await page
    .getByRole('status', { name: 'Notifications' })
    .getByText(new RegExp(`^Saved “.*”, version ${version}$`))
    .waitFor();
}

/**
 * Step tests in the builder (docs "Web app", "Step tests") in a real Chromium against the real
 * server: a step tested on its own shows its output on its card, that output is the data picker's
 * sample for later steps, and a run's failed step opens its card in the builder with the run's data.
 */
run('web app: step tests in the automation builder', () => {
  const suite = serverAndBrowser(() => automationServer());
  let projectId: string;
  beforeAll(async () => {
    projectId = await newProject(suite.server, 'Ops');
  });

  async function open() {
    const { server, browser } = suite;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    return { context, page, b: new BuilderPage(page) };
  }

  test('a person tests step 1, inserts a value of its real output into step 2 through the data picker, and tests step 2', async () => {
    const { server } = suite;
    const { context, page, b } = await open();
    try {
      await withScreenshot(page, 'builder-step-test', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Step tests');
        await b.chooseTrigger('Task added');
        let c = await b.add('Add a step to Steps', 'Set values', 'check');
        await c.getByRole('button', { name: 'Add values entry' }).click();
        await c.getByLabel('Values: name of entry 1', { exact: true }).fill('body');
        await b.code(c.getByRole('textbox', { name: 'Values: value of body', exact: true }), '{"ok": "yes {{ trigger.nodeText }}"}');
        // A new automation is saved before its steps are tested.
        expect(await c.getByRole('button', { name: 'Test step check', exact: true }).isDisabled()).toBe(true);
        await save(page);
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const automationId = page.url().split('/').at(-2)!;

        // The trigger sample is shared by the test run and the step tests.
        await b.code(page.getByRole('textbox', { name: 'Sample trigger payload (JSON)' }), '{"nodeText": "Ann"}');
        const first = await testStepOn(b, await b.open('check'), 'check');
        expect(await first.getByLabel('Output of check').textContent()).toContain('"ok": "yes Ann"');
        expect(await first.textContent()).toContain('Succeeded');

        c = await b.add('Add a step after check', 'Create a task', 'make');
        await expectText(c, 'Has side effects');
        await b.choose(c, 'Project', 'Ops');
        await b.fill(c, 'Text', 'Made: ');
        const entry = await dataEntry(c, 'Text', 'steps.check.body.ok');
        // The picker shows the real value of step 1's test.
        expect(await entry.textContent()).toContain('yes Ann');
        await entry.click();
        expect(await c.getByLabel('Text', { exact: true }).first().inputValue()).toBe('Made: {{ steps.check.body.ok }}');
        // The tag is highlighted in the field.
        await c.locator('.template-mirror mark').filter({ hasText: '{{ steps.check.body.ok }}' }).waitFor();
        // The picker also offers Liquid filters: the same value again, in upper case, at the caret.
        const again = await dataEntry(c, 'Text', 'steps.check.body.ok');
        await c
          .getByRole('dialog', { name: 'Insert data into Text' })
          .getByLabel('Insert it')
          .selectOption({ label: 'UPPER CASE (upcase)' });
        await again.click();
        expect(await c.getByLabel('Text', { exact: true }).first().inputValue()).toBe(
          'Made: {{ steps.check.body.ok }}{{ steps.check.body.ok | upcase }}',
        );
        expect(await c.locator('.template-mirror mark').count()).toBe(2);

        // Creating a task is a side effect: the builder asks first.
        const second = await testStepOn(b, c, 'make', { confirm: true });
        expect(await second.getByLabel('Output of make').textContent()).toContain('Made: yes AnnYES ANN');
        expect(await second.textContent()).toContain('Side effects: done for real');

        // Both tests are recorded as test runs of the automation; the task exists.
        const api = client(server, server.token);
        const runs = (await api.get(`/api/v1/automations/${automationId}/runs`)).body.items;
        expect(runs.map((r: any) => r.test)).toEqual([true, true]);
        const tasks = JSON.stringify((await api.get(`/api/v1/projects/${projectId}/tasks`)).body);
        expect(tasks).toContain('Made: yes AnnYES ANN');
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);

  test("a run's failed step opens its card in the builder, highlighted, with that run's data in the data picker", async () => {
    const { server } = suite;
    const api = client(server, server.token);
    const automation = await createAutomation(
      api,
      server.workspaceId,
      {
        name: 'Breaks',
        trigger: { type: 'task.added' },
        actions: [
          { id: 'first', type: 'set', values: { v: 'from-run-{{ trigger.nodeText }}' } },
          { id: 'boom', type: 'code', code: "throw new Error('boom')" },
          { id: 'after', type: 'task.create', projectId, text: 'x' },
        ],
      },
      { enabled: false },
    );
    const failed = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { nodeText: 'R1' } })).body.item;
    expect(failed.status).toBe('failed');
    const { context, page, b } = await open();
    try {
      await withScreenshot(page, 'builder-step-from-run', async () => {
        await page.goto(`${server.url}/automations/${automation.id}/runs/${failed.id}`);
        // Only the failed step links to the builder.
        await page.getByRole('link', { name: 'Open step boom in the builder' }).click();
        expect(await page.getByRole('link', { name: 'Open step first in the builder' }).count()).toBe(0);
        await page.waitForURL(new RegExp(`/automations/${automation.id}/edit\\?step=boom&run=${failed.id}$`));
        const flowCard = b.step('boom').locator('xpath=..');
        await waitFor(async () => (await flowCard.getAttribute('aria-current')) === 'step', 'the card of boom highlighted');
        expect(await flowCard.getAttribute('class')).toContain('highlighted');
        expect(await b.step('first').locator('xpath=..').getAttribute('aria-current')).toBeNull();
        // Its form is open in the side panel.
        await b.card('boom').getByRole('textbox', { name: 'Code' }).waitFor();

        // The data picker of a later step offers that run's outputs, and the trigger sample is the run's.
        const after = await b.open('after');
        const entry = await dataEntry(after, 'Text', 'steps.first.v');
        expect(await entry.textContent()).toContain('from-run-R1');
        expect(await page.getByRole('textbox', { name: 'Sample trigger payload (JSON)' }).textContent()).toContain('"nodeText": "R1"');
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});

/** Waits until `locator` shows `text`. */
async function expectText(locator: ReturnType<BuilderPage['card']>, text: string): Promise<void> {
  await locator.getByText(text).first().waitFor();
}
