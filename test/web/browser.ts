import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';

/** Where Debian's Chromium lives (`apt-get install chromium`); `CHROMIUM_PATH` overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True when the browser suites can run. Without a Chromium they are skipped with a plain notice,
 * except in CI (`CI` set), where a missing Chromium is a failure (.ci/run installs it).
 */
export function browserAvailable(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`no Chromium at ${CHROMIUM}: CI must install it (apt-get install -y chromium)`);
  console.warn(`browser suite skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return false;
}

/** Launches headless Chromium with the flags this machine needs (no sandbox as root, no background networking). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** Folder of failure screenshots (gitignored). */
export const SCREENSHOTS = path.resolve(__dirname, '../../test-results/screenshots');

/**
 * Runs `body` with `page`; on failure saves a full-page screenshot named after `name` into
 * {@link SCREENSHOTS} and rethrows.
 */
export async function withScreenshot(page: Page, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page
      .screenshot({ path: path.join(SCREENSHOTS, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true })
      .catch(() => undefined);
    throw error;
  }
}

/**
 * A fresh context and page signed in with `token` (a bearer header on every request), 1280×900
 * unless `width` is given, 10 s default timeout, and the console errors and page errors it logs
 * (every one counts: a 404 that means "none" must not be requested at all).
 */
export async function openPage(
  browser: Browser,
  token: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` }, viewport: { width, height: 900 } });
  context.setDefaultTimeout(10000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The serious and critical axe-core violations on the page (rule ids with their first target). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's CSP (rightly) refuses injected script tags.
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
    ).axe;
    return axe.run();
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes[0]?.target.join(' ')}`);
}

/**
 * A describe block's real server and Chromium, started before its tests and closed after them.
 * Read `suite.server` and `suite.browser` inside the tests.
 */
export function serverAndBrowser(start: () => Promise<TestServer>): { server: TestServer; browser: Browser } {
  const suite = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    suite.server = await start();
    suite.browser = await launch();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/**
 * Opens the menu behind the button named `menu` (components/ActionMenu.tsx: "Project actions",
 * "Automation actions", "Agent actions") and chooses `item`, the way a person does: a click on the
 * menu button, then on the entry.
 */
export async function chooseFromMenu(page: Page, menu: string, item: string): Promise<void> {
  await page.getByRole('button', { name: menu, exact: true }).click();
  await page.getByRole('menu', { name: menu }).getByRole('menuitem', { name: item, exact: true }).click();
}

/** {@link chooseFromMenu} on a project's "Project actions" menu (web/src/projects/ProjectHeader.tsx). */
export function projectMenu(page: Page, item: string): Promise<void> {
  return chooseFromMenu(page, 'Project actions', item);
}
