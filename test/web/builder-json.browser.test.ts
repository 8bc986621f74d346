import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { client } from '../helpers/server';
import { automationServer, createAutomation, runWithStatus } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { BuilderPage, privateWebDir } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** Where the builder's screenshots shown in docs/web-app.md go, only with `TASKSPACE_UPDATE_SCREENSHOTS=1` (docs/development.md). */
const DOCS_SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');
const UPDATE_SCREENSHOTS = process.env.TASKSPACE_UPDATE_SCREENSHOTS === '1';

/** A small automation with a trigger filter, a branch and a request: enough to show the builder's cards. */
const SAMPLE = {
  name: 'Triage new tasks',
  trigger: { type: 'task.added' },
  actions: [
    { id: 'check', type: 'http.request', method: 'GET', url: 'https://example.com/status' },
    {
      id: 'urgent',
      type: 'branch',
      conditions: { anyOf: [{ allOf: [{ left: '{{ trigger.nodeText }}', operator: 'contains', right: 'urgent' }] }] },
      then: [{ id: 'note', type: 'set', values: { level: 'high' } }],
      else: [],
    },
  ],
};

/** The visible controls of the page narrower or lower than 24 px (WCAG 2.2 target size), as "role name: w×h". */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const out: string[] = [];
    for (const el of doc.querySelectorAll('button, a[href], input, select, summary, [role="tab"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('[hidden]')) continue;
      // Links inside a sentence are exempt (their size is the text's).
      if (el.tagName === 'A' && el.closest('p, li, td') && !el.classList.contains('button')) continue;
      if (el.type === 'checkbox' || el.type === 'radio') {
        const label = el.closest('label');
        if (label && label.getBoundingClientRect().height >= 24) continue;
      }
      const name = el.getAttribute('aria-label') ?? (el.labels?.[0]?.textContent || el.textContent || el.name || el.type || '');
      if (r.width < 24 || r.height < 24)
        out.push(`${el.tagName.toLowerCase()} "${name.trim().slice(0, 40)}": ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  });
}

/** The page's width beyond the viewport, in px (0 when nothing overflows). */
async function overflow(page: Page, width: number): Promise<number> {
  return (await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)) - width;
}

run('web app: the builder JSON view and the automation screens on phones', () => {
  let web: ReturnType<typeof privateWebDir> | undefined;
  const suite = serverAndBrowser(() => {
    web = privateWebDir();
    return automationServer({ TASKSPACE_WEB_DIR: web.dir });
  });
  afterAll(() => web?.remove());

  async function open(width: number): Promise<{ page: Page; b: BuilderPage; close: () => Promise<void> }> {
    const context = await suite.browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${suite.server.token}` },
      viewport: { width, height: width < 600 ? 844 : 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    return { page, b: new BuilderPage(page), close: () => context.close() };
  }

  /** The JSON view's editor, opened from the builder of `automationId`. */
  async function jsonView(page: Page, automationId: string): Promise<Locator> {
    await page.goto(`${suite.server.url}/automations/${automationId}/edit`);
    await page.getByRole('tab', { name: 'JSON' }).click();
    const editor = page.getByRole('textbox', { name: 'Definition (JSON)' });
    await editor.waitFor();
    return editor;
  }

  test('the JSON view underlines an unknown field and a wrong type with their messages, and completes kinds and fields', async () => {
    const { server } = suite;
    const a = await createAutomation(client(server, server.token), server.workspaceId, {
      name: 'Plain',
      trigger: { type: 'webhook' },
      actions: [{ id: 'calc', type: 'set', values: { x: 1 } }],
    });
    const { page, b, close } = await open(1280);
    await withScreenshot(page, 'builder-json-schema', async () => {
      const editor = await jsonView(page, a.id);
      const problems = page.getByRole('list', { name: 'Problems in the JSON' });
      const definition = {
        name: 'Plain',
        trigger: { type: 'webhook' },
        actions: [{ id: 'calc', type: 'set', colour: 'red', values: { x: 1 } }],
        concurrency: 'two',
      };
      const text = JSON.stringify(definition, null, 2);
      const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
      await b.code(editor, text);
      // Each problem is listed with its line and message, and underlined where it is.
      await problems.getByText(`Line ${lineOf('"colour"')}: actions[0].colour: unknown field "colour"`).waitFor();
      await problems.getByText(`Line ${lineOf('"concurrency"')}: concurrency: must be an integer`).waitFor();
      const underlined = page.locator('.cm-lintRange-error');
      await underlined.filter({ hasText: '"colour"' }).waitFor();
      await underlined.filter({ hasText: '"two"' }).hover();
      await page.locator('.cm-tooltip-lint').getByText('concurrency: must be an integer').waitFor();
      expect(await editor.getAttribute('aria-invalid')).toBe('true');

      // Fixed, the problems go away.
      await b.code(
        editor,
        JSON.stringify({ ...definition, actions: [{ id: 'calc', type: 'set', values: { x: 1 } }], concurrency: 2 }, null, 2),
      );
      await problems.getByRole('listitem').first().waitFor({ state: 'detached' });
      await underlined.first().waitFor({ state: 'detached' });

      // Kinds complete with their titles, then the chosen kind's fields.
      await b.code(editor, '{\n  "name": "Plain",\n  "trigger": { "type": "webhook" },\n  "actions": [\n    { "id": "call", "type": ');
      await page.keyboard.type('"http.re');
      const list = page.locator('.cm-tooltip-autocomplete');
      const option = list.getByRole('option', { name: /http\.request/ });
      await option.waitFor();
      expect(await option.textContent()).toMatch(/HTTP/i);
      // Chosen with the pointer: CodeMirror ignores keys pressed within 75 ms of the list opening
      // (its interactionDelay), which a person never does but a test driver may.
      await option.click();
      await list.waitFor({ state: 'detached' });
      await page.keyboard.press('End');
      await page.keyboard.type(', ');
      await page.keyboard.press('Control+Space');
      await list.getByRole('option', { name: /^"?url/ }).waitFor();
      await list.getByRole('option', { name: /^"?method/ }).waitFor();
      await page.keyboard.press('Escape');
      expect(await editor.textContent()).toContain('"type": "http.request"');
      expect(await seriousViolations(page)).toEqual([]);
    });
    await close();
    expect(b.errors).toEqual([]);
  }, 120_000);

  for (const width of [1280, 390]) {
    test(`the builder, an automation's page with its versions and a run at ${width} px: nothing wider than the screen, no small targets`, async () => {
      const { server } = suite;
      const api = client(server, server.token);
      const a = await createAutomation(api, server.workspaceId, SAMPLE);
      await api.put(`/api/v1/automations/${a.id}`, { ...SAMPLE, name: 'Triage new tasks (v2)' });
      const failing = await createAutomation(api, server.workspaceId, {
        name: 'Broken',
        trigger: { type: 'webhook' },
        actions: [{ id: 'oops', type: 'task.create', projectId: "{{ 'no-such-project' }}", text: 'x' }],
      });
      const bad = (await api.post(`/api/v1/automations/${failing.id}/test`, {})).body.item;
      await runWithStatus(api, failing.id, bad.id, 'failed');
      const { page, b, close } = await open(width);
      const found: string[] = [];
      const look = async (name: string) => {
        await page.waitForFunction(() => !(globalThis as any).document.body.innerText.includes('Loading…'));
        const extra = await overflow(page, width);
        if (extra > 0) found.push(`${name}: ${extra} px wider than the screen`);
        found.push(...(await smallTargets(page)).map((t) => `${name}: ${t}`));
        found.push(...(await seriousViolations(page)).map((v) => `${name}: axe ${v}`));
      };
      await withScreenshot(page, `automation-screens-${width}`, async () => {
        await page.goto(`${server.url}/automations/${a.id}/edit`);
        await b.step('urgent').waitFor();
        await look('builder');
        // The flow as the screenshots show it: the request open in the side panel (a sheet on phones).
        await b.open('check');
        await look('builder with a form open');
        if (UPDATE_SCREENSHOTS) {
          fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `builder-${width}.png`), type: 'png' });
        }
        await page.getByRole('tab', { name: 'JSON' }).click();
        await page.getByRole('textbox', { name: 'Definition (JSON)' }).waitFor();
        await look('builder JSON view');

        await page.goto(`${server.url}/automations/${a.id}`);
        await page.getByRole('cell', { name: 'v2 (current)' }).waitFor();
        await page.getByRole('button', { name: 'Show changes' }).click();
        await page.getByRole('figure', { name: 'Changes from v1 to v2' }).locator('ins').first().waitFor();
        await page.getByRole('button', { name: 'Restore v1' }).click();
        await look('automation and versions');

        await page.goto(`${server.url}/automations/${failing.id}/runs/${bad.id}`);
        await page.getByRole('group', { name: 'Replay', exact: true }).waitFor();
        await look('run');
      });
      await close();
      expect(found).toEqual([]);
      expect(b.errors).toEqual([]);
    }, 180_000);
  }
});
