import type { Page } from 'playwright-core';
import { client } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { automationServer } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { BuilderPage } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** The focused element's id, and whether it is inside the window (the refused field brought into view). */
async function focusedInView(page: Page): Promise<{ id: string; inView: boolean }> {
  return page.evaluate(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's DOM (the tests compile without the DOM library)
    const w = globalThis as any;
    const el = w.document.activeElement;
    const r = el?.getBoundingClientRect();
    return { id: String(el?.id ?? ''), inView: Boolean(r && r.top >= 0 && r.bottom <= w.innerHeight && r.height > 0) };
  });
}

/** Presses Tab (or Shift+Tab) until the focused element's name (aria-label, label or text) is `name`; fails after 80 presses. */
async function tabTo(page: Page, name: string | RegExp, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press(key);
    const current = await page.evaluate(() => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's DOM (the tests compile without the DOM library)
      const el = (globalThis as any).document.activeElement as {
        getAttribute(n: string): string | null;
        labels?: { textContent: string | null }[];
        textContent: string | null;
      } | null;
      return (el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? '').trim();
    });
    if (typeof name === 'string' ? current === name : name.test(current)) return;
  }
  throw new Error(`never reached ${String(name)} with Tab`);
}

/**
 * The automation builder's mistakes and keyboard use, in a real Chromium against the real server:
 * each kind of mistake shows at its field (missing field, bad cron, unknown member, unknown
 * variable), drafts survive navigation, deleting has Undo, and the keyboard alone builds an
 * automation.
 */
run('web app: the automation builder shows mistakes at the field and works from the keyboard', () => {
  const suite = serverAndBrowser(() => automationServer());

  test('missing field, bad cron, unknown member and unknown variable show at their fields; drafts and undo', async () => {
    const { server, browser } = suite;
    await newProject(server, 'Ops');
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    const saveButton = page.getByRole('button', { name: 'Save', exact: true });
    try {
      await withScreenshot(page, 'builder-mistakes', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Mistakes');
        // Bad cron: said at the field, with no next times; Save disabled with the reason.
        await b.chooseTrigger('On a schedule');
        await b.fill(b.trigger(), 'Cron expression', '61 * * * *');
        await b
          .trigger()
          .getByText(/^Not a valid cron expression/)
          .first()
          .waitFor();
        expect(await saveButton.isDisabled()).toBe(true);
        expect(await page.locator('#save-reason').textContent()).toMatch(/Not a valid cron expression.*\(trigger\)/);
        await b.fill(b.trigger(), 'Cron expression', '0 9 * * *');
        await b.trigger().getByText('At 09:00').waitFor();

        // Missing field: Save says which, and the field says it once the card is edited.
        const make = await b.add('Add a step to Steps', 'Create a task', 'make');
        expect(await saveButton.isDisabled()).toBe(true);
        expect(await page.locator('#save-reason').textContent()).toContain('Project is required (step make)');
        await b.fill(make, 'Text', 'Hello {{ trigger.nope }}');
        await make.getByText('Project is required').waitFor();
        expect(await make.getByLabel('Project', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        await b.choose(make, 'Project', 'Ops');
        await make.getByText('Project is required').waitFor({ state: 'detached' });

        // Unknown variable: the service's save-time check, asked as the author types and shown at the
        // Text field (the path not repeated); Save brings the field into view and focuses it.
        const textError = make.locator('#f-actions-0-text-error');
        await textError.waitFor();
        await page.locator('#automation-name').focus();
        await page.mouse.wheel(0, -2000);
        await saveButton.click();
        await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'f-actions-0-text');
        expect(await focusedInView(page)).toEqual({ id: 'f-actions-0-text', inView: true });
        expect(await textError.textContent()).toContain('trigger.nope');
        expect(await textError.textContent()).not.toContain('actions[0]');
        // The flow's card counts it.
        expect(await b.step('make').textContent()).toContain(', 1 problem');
        // The Save bar lists it as a link to the field.
        const listed = page.getByRole('navigation', { name: '1 problem' });
        expect(await listed.getByRole('button').textContent()).toMatch(/trigger\.nope.*\(step make\)/);
        expect(page.url()).toMatch(/\/automations\/new/);
        await b.fill(make, 'Text', 'Hello {{ trigger.scheduledAt }}');
        await textError.waitFor({ state: 'detached' });

        // Unknown member: an approver typed by hand, refused when saving, shown at that approver.
        const ok = await b.add('Add a step after make', 'Ask for approval', 'ok');
        await ok.getByRole('button', { name: 'Add handle' }).click();
        await ok.getByLabel('Handle 1', { exact: true }).selectOption({ label: 'Another value or template…' });
        await ok.getByLabel('Handle (value or template)').fill('nobody');
        const memberError = ok.locator('#f-actions-1-approvers-0-error');
        await memberError.waitFor();
        // A problem inside a list field names its step; its link opens that step's panel (another
        // step shows there now) and focuses the field.
        const memberLink = page.getByRole('navigation', { name: '1 problem' }).getByRole('button');
        expect(await memberLink.textContent()).toMatch(/nobody.*\(step ok\)$/);
        await b.open('make');
        await page.locator('#automation-name').focus();
        await memberLink.click();
        await b.card('ok').waitFor();
        await page.waitForFunction(() =>
          String((globalThis as any).document.activeElement?.id ?? '').startsWith('f-actions-1-approvers-0'),
        );
        expect((await focusedInView(page)).inView).toBe(true);
        await saveButton.click();
        expect(page.url()).toMatch(/\/automations\/new/);
        expect(await memberError.textContent()).toMatch(/nobody/);
        expect(await memberError.textContent()).not.toContain('approvers[0]');
        // Said once: at the field, not again above the form.
        expect(await page.getByText((await memberError.textContent())!, { exact: true }).count()).toBe(1);

        // Drafts survive navigation; Undo brings a deleted step back.
        await page.getByRole('link', { name: 'Automations', exact: true }).click();
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByText(/Unsaved changes from .* were restored/).waitFor();
        // Delete on the flow's card, then Undo; then the panel's Delete.
        await b.step('ok').focus();
        await page.keyboard.press('Delete');
        await b.step('ok').waitFor({ state: 'detached' });
        // The focus goes to the card before it.
        await page.locator('[data-card="actions.0"]:focus').waitFor();
        await page.getByRole('status', { name: 'Notifications' }).getByRole('button', { name: 'Undo' }).click();
        await b.step('ok').waitFor();
        await (await b.open('ok')).getByRole('button', { name: 'Delete step ok' }).click();
        await b.step('ok').waitFor({ state: 'detached' });
        await b.card('ok').waitFor({ state: 'detached' });
        await saveButton.click();
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const id = page.url().split('/').at(-2)!;
        const saved = (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
        expect(saved.trigger).toEqual({ type: 'schedule', cron: '0 9 * * *' });
        expect(saved.actions).toEqual([
          { id: 'make', type: 'task.create', projectId: expect.any(String), text: 'Hello {{ trigger.scheduledAt }}' },
        ]);
        // The saved automation has no draft left.
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await b.trigger().getByRole('button', { name: 'Choose a trigger' }).waitFor();
        expect(await page.getByText(/were restored/).count()).toBe(0);
        // The refused saves were known before they were made: no failing request, a clean console.
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);

  test('the keyboard alone builds, reorders and saves a three-step automation', async () => {
    const { server, browser } = suite;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'builder-keyboard', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await b.trigger().waitFor();
        await tabTo(page, 'Name');
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type('From the keyboard');
        // The trigger's card opens its panel (Enter), where the trigger is chosen; Escape goes back to the card.
        await tabTo(page, /Trigger: /);
        await page.keyboard.press('Enter');
        await tabTo(page, 'Choose a trigger');
        await page.keyboard.press('Enter');
        await page.keyboard.type('webhook');
        await page.keyboard.press('Enter');
        await page.locator('#step-panel:focus').waitFor();
        await page.keyboard.press('Escape');
        await page.locator('[data-card="trigger"]:focus').waitFor();
        // Three steps, each from the "+" after the last one; a new step opens in the panel, focused.
        await tabTo(page, 'Add a step to Steps');
        await page.keyboard.press('Enter');
        await page.keyboard.type('Wait for an event');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Event name');
        await page.keyboard.type('go');
        await page.keyboard.press('Escape');
        await page.locator('[data-card="actions.0"]:focus').waitFor();
        await tabTo(page, 'Add a step after event1');
        await page.keyboard.press('Enter');
        await page.keyboard.type('Create a project');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Name');
        await page.keyboard.type('From keys');
        await page.keyboard.press('Escape');
        await tabTo(page, 'Add a step after projectCreate1');
        await page.keyboard.press('Enter');
        await page.keyboard.type('Wait');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Minutes');
        await page.keyboard.type('5');
        await page.keyboard.press('Escape');
        await page.locator('[data-card="actions.2"]:focus').waitFor();
        expect(await page.locator('#step-panel').count()).toBe(0);
        // Alt+↑ on the focused card moves it up (twice: to the top); ↓/↑ move through the cards.
        await page.keyboard.press('Alt+ArrowUp');
        await page.locator('[data-card="actions.1"]:focus').waitFor();
        await page.keyboard.press('Alt+ArrowUp');
        await page.locator('[data-card="actions.0"]:focus').waitFor();
        await page.keyboard.press('ArrowDown');
        await page.locator('[data-card="actions.1"]:focus').waitFor();
        await page.keyboard.press('ArrowUp');
        await page.keyboard.press('ArrowUp');
        await page.locator('[data-card="trigger"]:focus').waitFor();
        await page.keyboard.press('End');
        await page.locator('[data-card="actions.2"]:focus').waitFor();
        // Enter opens the step in the panel; Escape closes it and the focus is back on its card.
        await page.keyboard.press('Enter');
        await b.card('projectCreate1').waitFor();
        await page.keyboard.press('Escape');
        await page.locator('[data-card="actions.2"]:focus').waitFor();
        await tabTo(page, 'Save', 'Shift+Tab');
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const id = page.url().split('/').at(-2)!;
        const saved = (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
        expect(saved.name).toBe('From the keyboard');
        expect(saved.trigger).toEqual({ type: 'webhook' });
        expect(saved.actions).toEqual([
          { id: 'delay1', type: 'delay', minutes: 5 },
          { id: 'event1', type: 'wait.event', event: 'go' },
          { id: 'projectCreate1', type: 'project.create', name: 'From keys' },
        ]);
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);

  test('the JSON view edits the same draft as the form', async () => {
    const { server, browser } = suite;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'builder-json', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await b.chooseTrigger('Webhook');
        const wait = await b.add('Add a step to Steps', 'Wait', 'pause');
        await b.fill(wait, 'Minutes', '2');
        await page.getByRole('tab', { name: 'JSON' }).click();
        const editor = page.getByRole('textbox', { name: 'Definition (JSON)' });
        expect(await editor.textContent()).toContain('"minutes": 2');
        await b.code(
          editor,
          '{"name": "Via JSON", "trigger": {"type": "webhook"}, "actions": [{"id": "w", "type": "delay", "minutes": 3}]',
        );
        expect(await page.locator('#save-reason').textContent()).toBe('The JSON does not parse');
        await b.code(
          editor,
          '{"name": "Via JSON", "trigger": {"type": "webhook"}, "actions": [{"id": "w", "type": "delay", "minutes": 3}]}',
        );
        await page.locator('#save-reason').waitFor({ state: 'detached' });
        await page.getByRole('tab', { name: 'Form' }).click();
        expect(await (await b.open('w')).getByLabel('Minutes', { exact: true }).inputValue()).toBe('3');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const id = page.url().split('/').at(-2)!;
        const saved = (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
        expect([saved.name, saved.actions]).toEqual(['Via JSON', [{ id: 'w', type: 'delay', minutes: 3 }]]);
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
