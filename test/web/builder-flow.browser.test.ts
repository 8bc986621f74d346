import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { client } from '../helpers/server';
import { automationServer } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { BuilderPage, privateWebDir } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** Where the flow view's screenshots shown in docs/web-app.md go, only with `TASKSPACE_UPDATE_SCREENSHOTS=1` (docs/development.md). */
const DOCS_SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');
const UPDATE_SCREENSHOTS = process.env.TASKSPACE_UPDATE_SCREENSHOTS === '1';

/** The cards of the flow in the order the arrow keys go through them (lanes in reading order). */
const ORDER = ['trigger', 'route', 'pause', 'rest', 'fan', 'p1', 'p2', 'call', 'oops'];

/** The `data-card` of the focused element (the flow's cards carry their path), or null. */
async function focusedCard(page: Page): Promise<string | null> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's DOM (the tests compile without the DOM library)
  return page.evaluate(() => ((globalThis as any).document.activeElement?.getAttribute('data-card') as string | null) ?? null);
}

/** The focused element's id, and whether it is inside the window (the refused field brought into view). */
async function focusedInView(page: Page): Promise<{ id: string; inView: boolean }> {
  return page.evaluate(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's DOM
    const w = globalThis as any;
    const el = w.document.activeElement;
    const r = el?.getBoundingClientRect();
    return { id: String(el?.id ?? ''), inView: Boolean(r && r.top >= 0 && r.bottom <= w.innerHeight && r.height > 0) };
  });
}

/**
 * The builder's flow view in a real Chromium against the real server, on a desktop and on a phone:
 * a branch, parallel branches and an error path built in the flow, lanes folded and unfolded, every
 * step opened in the side panel (a bottom sheet on the phone) by mouse and by keyboard, a refused
 * save brought into view, and the saved definition read back over the API.
 */
run('web app: the builder flow view, its lanes and its side panel', () => {
  let web: ReturnType<typeof privateWebDir> | undefined;
  const suite = serverAndBrowser(() => {
    web = privateWebDir();
    return automationServer({ TASKSPACE_WEB_DIR: web.dir });
  });
  afterAll(() => web?.remove());

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test(`at ${width} px: builds a branch, parallel branches and an error path, folds lanes, opens each step by mouse and keyboard, saves`, async () => {
      const { server, browser } = suite;
      const context = await browser.newContext({
        extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
        viewport: { width, height },
      });
      context.setDefaultTimeout(10000);
      const page = await context.newPage();
      const b = new BuilderPage(page);
      try {
        await withScreenshot(page, `builder-flow-${width}`, async () => {
          await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
          await page.getByLabel('Name', { exact: true }).fill(`Flow at ${width}`);
          await b.chooseTrigger('Webhook');

          // A branch with a step in each lane.
          let c = await b.add('Add a step to Steps', 'If / else', 'route');
          await c.getByRole('button', { name: 'Add a condition' }).click();
          await c.getByLabel('Condition 1.1: value', { exact: true }).fill('{{ trigger.body }}');
          await c.getByLabel('Condition 1.1: operator').selectOption('equals');
          await c.getByLabel('Condition 1.1: compared with', { exact: true }).fill('go');
          c = await b.add('Add a step to Then of route', 'Wait', 'pause');
          await b.fill(c, 'Minutes', '5');
          c = await b.add('Add a step to Else of route', 'Wait', 'rest');
          await b.fill(c, 'Seconds', '3');
          // Parallel branches, one step each.
          await b.add('Add a step after route', 'Run in parallel', 'fan');
          c = await b.add('Add a step to branch1 of fan', 'Wait', 'p1');
          await b.fill(c, 'Seconds', '1');
          c = await b.add('Add a step to branch2 of fan', 'Wait', 'p2');
          await b.fill(c, 'Seconds', '2');
          // A request with an error path.
          c = await b.add('Add a step after fan', 'Send an HTTP request', 'call');
          await b.fill(c, 'URL', 'https://example.com/hook');
          await c.getByText('Settings: name, retries, timeout, errors').click();
          await c.getByLabel('When this step fails').selectOption('then');
          c = await b.add('Add a step to On error of call', 'Wait', 'oops');
          await b.fill(c, 'Seconds', '4');

          // The side panel: beside the flow on a desktop, a sheet at the bottom on a phone.
          const panel = (await c.boundingBox())!;
          const flow = (await page.getByRole('group', { name: 'Flow' }).boundingBox())!;
          if (width > 700) expect(panel.x).toBeGreaterThanOrEqual(flow.x + flow.width);
          else expect(Math.round(panel.y + panel.height)).toBe(height);

          // Lanes fold and unfold; a folded lane says how many steps it holds (on a phone, the sheet closed first).
          await b.toFlow();
          const then = page.getByRole('button', { name: /^Then of route/ });
          await then.click();
          expect(await then.getAttribute('aria-expanded')).toBe('false');
          await b.step('pause').waitFor({ state: 'detached' });
          expect(await then.textContent()).toContain('1 step');
          await then.click();
          await b.step('pause').waitFor();
          const branch1 = page.getByRole('button', { name: /^branch1 of fan/ });
          await branch1.click();
          await b.step('p1').waitFor({ state: 'detached' });
          // → on a step with a folded lane unfolds it and goes to its first step.
          await b.step('fan').focus();
          await page.keyboard.press('ArrowRight');
          await page.locator('[data-card="actions.1.branches.branch1.0"]:focus').waitFor();
          expect(await branch1.getAttribute('aria-expanded')).toBe('true');
          // ← goes back to the step holding the lane.
          await page.keyboard.press('ArrowLeft');
          await page.locator('[data-card="actions.1"]:focus').waitFor();

          // Each step opened by mouse: its form in the panel.
          for (const id of ORDER.slice(1)) {
            await b.open(id);
            await b
              .card(id)
              .getByRole('textbox', { name: `Step id of ${id}` })
              .waitFor();
            expect(await b.step(id).getAttribute('aria-expanded')).toBe('true');
          }
          // And by keyboard: ↓ through every card in reading order, Enter opens, Escape closes and the card has the focus again.
          await page.keyboard.press('Escape');
          await b.card('oops').waitFor({ state: 'detached' });
          // The closed panel gives its card the focus back (after the sheet is gone on a phone): wait for that before moving it.
          await page.locator('[data-card]:focus').waitFor();
          await b.triggerCard().focus();
          await page.locator('[data-card="trigger"]:focus').waitFor();
          for (const [i, id] of ORDER.entries()) {
            if (i > 0) await page.keyboard.press('ArrowDown');
            const key = await focusedCard(page);
            expect(key === 'trigger' ? 'trigger' : await page.locator(`[data-card="${key}"]`).textContent()).toContain(
              id === 'trigger' ? 'trigger' : `Step ${id}:`,
            );
            await page.keyboard.press('Enter');
            const opened = id === 'trigger' ? b.trigger() : b.card(id);
            await page.locator('#step-panel:focus').waitFor();
            await opened.waitFor();
            await page.keyboard.press('Escape');
            await opened.waitFor({ state: 'detached' });
            await page.locator(`[data-card="${key}"]:focus`).waitFor();
          }

          // A save the service would refuse: the step is selected, its panel opened, the field focused and in view.
          c = await b.open('call');
          await b.fill(c, 'URL', 'https://example.com/{{ steps.nowhere.id }}');
          await c.locator('#f-actions-2-url-error').waitFor();
          // Saved with the panel closed: Save opens the step's panel again.
          await page.keyboard.press('Escape');
          await b.card('call').waitFor({ state: 'detached' });
          await page.mouse.wheel(0, -3000);
          await page.getByRole('button', { name: 'Save', exact: true }).click();
          await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'f-actions-2-url');
          expect(await focusedInView(page)).toEqual({ id: 'f-actions-2-url', inView: true });
          expect(page.url()).toMatch(/\/automations\/new/);
          await b.fill(b.card('call'), 'URL', 'https://example.com/hook');
          await b.card('call').locator('#f-actions-2-url-error').waitFor({ state: 'detached' });

          if (UPDATE_SCREENSHOTS) {
            await b.open('p1');
            fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
            await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `builder-flow-${width}.png`), type: 'png' });
          }
          expect(await seriousViolations(page)).toEqual([]);

          await b.toFlow();
          const answer = page.waitForResponse(
            (r) => /\/api\/v1\/automations$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
          );
          await page.getByRole('button', { name: 'Save', exact: true }).click();
          expect((await answer).status()).toBe(200);
          await page.waitForURL(/\/automations\/[^/]+\/edit$/);
          const id = page.url().split('/').at(-2)!;
          const saved = (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
          expect(saved.trigger).toEqual({ type: 'webhook' });
          expect(saved.actions).toEqual([
            {
              id: 'route',
              type: 'branch',
              conditions: { anyOf: [{ allOf: [{ left: '{{ trigger.body }}', operator: 'equals', right: 'go' }] }] },
              then: [{ id: 'pause', type: 'delay', minutes: 5 }],
              else: [{ id: 'rest', type: 'delay', seconds: 3 }],
            },
            {
              id: 'fan',
              type: 'parallel',
              branches: { branch1: [{ id: 'p1', type: 'delay', seconds: 1 }], branch2: [{ id: 'p2', type: 'delay', seconds: 2 }] },
            },
            {
              id: 'call',
              type: 'http.request',
              method: 'GET',
              url: 'https://example.com/hook',
              onError: { then: [{ id: 'oops', type: 'delay', seconds: 4 }] },
            },
          ]);
          expect(b.errors).toEqual([]);
        });
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
