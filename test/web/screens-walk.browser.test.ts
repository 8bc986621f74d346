import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { client, startServer, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Where the screenshots shown in docs/web-app.md are kept (a few key screens, both widths). */
const DOCS_SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');
/**
 * The screens whose pictures docs/web-app.md shows. They are written only when
 * `TASKSPACE_UPDATE_SCREENSHOTS=1` is set (docs/development.md), so a test run leaves the tree clean.
 */
const DOCUMENTED = new Set(
  process.env.TASKSPACE_UPDATE_SCREENSHOTS === '1' ? ['home', 'project', 'automations', 'runs', 'members', 'not-found', 'setup-page'] : [],
);

/**
 * Every screen of the web app walked in a real Chromium at a desktop (1280 px) and a phone (390 px)
 * width, like a person opening each page: no console error, no serious or critical axe violation,
 * and at 390 px nothing wider than the screen. Screenshots of the key screens go to docs/screenshots.
 */
run('walking every screen at 1280 and 390 px', () => {
  let server: TestServer;
  let browser: Browser;
  let webDir: string;
  /**
   * Each screen, the heading that says it is shown, the second-level heading it must show as well
   * (an empty list's empty state), and the console lines it may log (an unknown object's 404).
   */
  const screens: { name: string; path: string; heading: RegExp; shows?: RegExp; expected?: RegExp }[] = [];
  beforeAll(async () => {
    // A private copy of the built app: a rebuild of web/dist while this long walk runs (another
    // process running build.mjs) would otherwise remove the hashed files this server's index names.
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-web-'));
    fs.cpSync(path.resolve(__dirname, '../../web/dist'), webDir, { recursive: true });
    server = await startServer({ env: { TASKSPACE_WEB_DIR: webDir } });
    browser = await launch();
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Launch plan');
    await addTasks(server, projectId, ['Write the announcement', 'Record the demo', 'Ship it']);
    const automation = (
      await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Welcome new tasks',
        trigger: { type: 'task.added' },
        actions: [],
      })
    ).body.item;
    screens.push(
      { name: 'home', path: '/', heading: /Welcome/ },
      { name: 'project', path: `/projects/${projectId}`, heading: /Launch plan/ },
      { name: 'new-project', path: `/folders/${server.workspaceId}/new-project`, heading: /New project/i },
      { name: 'automations', path: '/automations', heading: /Automations/ },
      { name: 'automation', path: `/automations/${automation.id}`, heading: /Welcome new tasks/ },
      { name: 'builder', path: '/automations/new', heading: /automation/i },
      { name: 'runs', path: '/runs', heading: /Runs/, shows: /^No runs yet$/ },
      { name: 'approvals', path: '/approvals', heading: /Approvals/, shows: /^Nothing waits for a decision$/ },
      { name: 'agents', path: '/agents', heading: /Agents/, shows: /^No agents in this folder yet$/ },
      { name: 'media', path: '/media', heading: /Media/ },
      { name: 'webhooks', path: '/settings/webhooks', heading: /Webhooks/ },
      { name: 'members', path: '/settings/members', heading: /Members/ },
      { name: 'account', path: '/settings/account', heading: /My account/ },
      { name: 'oauth-apps', path: '/settings/oauth-apps', heading: /OAuth apps/ },
      { name: 'secrets', path: '/settings/secrets', heading: /Secrets/ },
      { name: 'connections', path: '/settings/connections', heading: /Connections/ },
      { name: 'workspace-settings', path: '/settings/workspace', heading: /^Workspace$/ },
      { name: 'new-workspace', path: '/workspaces/new', heading: /New workspace/ },
      { name: 'profile', path: '/profile', heading: /Profile/ },
      { name: 'not-found', path: '/no-such-screen', heading: /Page not found/ },
      // Chromium logs the API's 404 for the unknown project itself: the one expected console line.
      {
        name: 'unknown-project',
        path: '/projects/00000000-0000-4000-8000-000000000000',
        heading: /Project not found/,
        expected: /status of 404 .*\/api\/v1\/projects\/0{8}-/,
      },
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  /** Opens `url` in a fresh page of `width` px and returns it with the console errors it logs. */
  async function open(width: number, url: string, auth = true): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({
      viewport: { width, height: width < 600 ? 844 : 900 },
      ...(auth ? { extraHTTPHeaders: { authorization: `Bearer ${server.token}` } } : {}),
    });
    context.setDefaultTimeout(15000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + url);
    return { page, errors, close: () => context.close() };
  }

  /** What is wrong with the settled screen (empty when nothing is); saves the screenshot of documented screens. */
  async function problems(page: Page, errors: string[], name: string, width: number, expected?: RegExp): Promise<string[]> {
    await page.waitForFunction(() => !(globalThis as any).document.body.innerText.includes('Loading…'));
    const found = (await seriousViolations(page)).map((v) => `axe: ${v}`);
    if (width < 600) {
      const scrollWidth = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
      if (scrollWidth > width) found.push(`${scrollWidth} px wide at ${width} px`);
    }
    if (DOCUMENTED.has(name)) {
      fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `${name}-${width}.png`), type: 'png' });
    }
    const unexpected = errors.filter((e) => !expected?.test(e));
    return [...found, ...unexpected.map((e) => `console: ${e}`)].map((p) => `${name}: ${p}`);
  }

  for (const width of [1280, 390]) {
    test(`every app screen at ${width} px`, async () => {
      const found: string[] = [];
      for (const screen of screens) {
        const { page, errors, close } = await open(width, screen.path);
        await withScreenshot(page, `walk-${screen.name}-${width}`, async () => {
          const shown = await page
            .getByRole('heading', { level: 1, name: screen.heading })
            .first()
            .waitFor()
            .then(() => true)
            .catch(() => false);
          if (shown && screen.shows) await page.getByRole('heading', { level: 2, name: screen.shows }).waitFor();
          if (shown) found.push(...(await problems(page, errors, screen.name, width, screen.expected)));
          else found.push(`${screen.name}: no heading ${screen.heading} (${errors.join('; ')})`);
        });
        await close();
      }
      expect(found).toEqual([]);
    }, 300_000);

    test(`the navigation at ${width} px: a drawer behind the menu button on phones`, async () => {
      const { page, errors, close } = await open(width, '/');
      await withScreenshot(page, `walk-navigation-${width}`, async () => {
        const nav = page.getByRole('navigation', { name: 'Main' });
        if (width < 600) {
          expect(await nav.isVisible()).toBe(false);
          // Content starts at the top, under the bar with the menu button.
          const top = await page
            .getByRole('heading', { level: 1 })
            .first()
            .evaluate((h) => h.getBoundingClientRect().top);
          expect(top).toBeLessThan(160);
          await page.getByRole('button', { name: 'Open navigation' }).click();
          await nav.waitFor();
          await nav.getByRole('link', { name: 'Automations' }).click();
          await page.getByRole('heading', { level: 1, name: /Automations/ }).waitFor();
          await nav.waitFor({ state: 'hidden' });
        } else {
          await nav.getByRole('link', { name: 'Automations' }).click();
          await page.getByRole('heading', { level: 1, name: /Automations/ }).waitFor();
          expect(await nav.getByRole('link', { name: 'Automations' }).getAttribute('aria-current')).toBe('page');
        }
        // Tap targets: every link and button in view is at least 24 px high.
        const small = await page.evaluate(() =>
          [...(globalThis as any).document.querySelectorAll('main a, main button, nav a, nav button, header button')]
            .filter((el: any) => el.offsetParent !== null)
            .map(
              (el: any) => [el.textContent?.trim() || el.getAttribute('aria-label'), el.getBoundingClientRect().height as number] as const,
            )
            .filter(([, h]) => h > 0 && h < 24),
        );
        expect(small).toEqual([]);
        expect(errors).toEqual([]);
      });
      await close();
    });

    test(`a server-rendered page shares the look at ${width} px`, async () => {
      const { page, errors, close } = await open(width, '/setup?token=not-a-real-link', false);
      await withScreenshot(page, `walk-setup-${width}`, async () => {
        await page.getByRole('heading', { level: 1, name: 'Setup link' }).waitFor();
        const sheet = await page.evaluate(() =>
          [...(globalThis as any).document.styleSheets].map((s: any) => (s.href as string | null) ?? 'inline'),
        );
        expect(sheet).toEqual([expect.stringMatching(/\/assets\/pages-[\w-]+\.css$/)]);
        // The design tokens apply: the card has the app's radius and the body the surface colour.
        expect(
          await page.locator('main.page-main').evaluate((m: any) => (globalThis as any).getComputedStyle(m).borderRadius as string),
        ).not.toBe('0px');
        if (DOCUMENTED.has('setup-page')) await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, `setup-page-${width}.png`) });
        if (width < 600)
          expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(width);
        // The 4xx of the bad link itself is the only console line Chromium logs here.
        expect(errors.filter((e) => !e.includes('status of 4'))).toEqual([]);
      });
      await close();
    });
  }
});
