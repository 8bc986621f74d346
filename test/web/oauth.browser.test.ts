import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { call, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** A third-party app's callback: records each request's query and answers a small page. */
async function callbackServer(): Promise<{ url: string; queries: URLSearchParams[]; close(): Promise<void> }> {
  const queries: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Browsers also ask for /favicon.ico; only the callback path counts.
    if (url.pathname === '/callback') queries.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Callback</title><h1>Back in the app</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, queries, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Registering an app, the consent page and revoking access, in a real Chromium against the real server. */
run('web app: OAuth apps and the consent page', () => {
  const PASSWORD = 'owner password 123';
  let server: TestServer;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    browser = await launch();
    callback = await callbackServer();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await callback?.close();
  });

  async function signIn(page: Page, next: string): Promise<void> {
    await page.getByLabel('Handle or email').fill('owner');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (next) await page.waitForURL((url) => url.pathname + url.search === next);
  }

  test('an Owner registers an app; a person signs in, allows it, and later revokes its access', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'oauth-apps', async () => {
      await page.goto(`${server.url}/sign-in?next=${encodeURIComponent('/settings/oauth-apps')}`);
      await signIn(page, '/settings/oauth-apps');
      await page.getByRole('heading', { name: 'OAuth apps' }).waitFor();
      await page.getByLabel('Name (shown on the consent page)').fill('Planner');
      await page.getByLabel('Redirect URIs, one per line (matched exactly)').fill(callback.url);
      await page.getByRole('button', { name: 'Register app' }).click();
      const status = page.getByRole('status');
      const clientId = (await status.locator('code').first().textContent())!;
      const clientSecret = (await status.locator('code').nth(1).textContent())!;
      expect(clientSecret).toMatch(/^tss_/);
      await page.getByRole('cell', { name: callback.url }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // A fresh browser without a session: sign in first, then the consent page, then back to the app.
      const visitor = await browser.newContext();
      visitor.setDefaultTimeout(10000);
      const tab = await visitor.newPage();
      const authorizeUrl = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback.url, scope: 'read write', state: 'browser-state' })}`;
      await tab.goto(server.url + authorizeUrl);
      await tab.waitForURL((url) => url.pathname === '/sign-in');
      await tab.getByLabel('Handle or email').fill('owner');
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Allow Planner?' }).waitFor();
      await tab.getByText('Create, change and delete them on your behalf').waitFor();
      await tab.getByRole('button', { name: 'Allow' }).click();
      await tab.getByRole('heading', { name: 'Back in the app' }).waitFor();
      const query = callback.queries.at(-1)!;
      expect(query.get('state')).toBe('browser-state');
      await visitor.close();

      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code: query.get('code')!,
        redirect_uri: callback.url,
        client_id: clientId,
        client_secret: clientSecret,
      });
      const tokens = await call(server.url, 'POST', '/oauth/token', {
        rawBody: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(tokens.status).toBe(200);
      expect((await call(server.url, 'GET', '/api/v1/me', { token: tokens.body.access_token })).status).toBe(200);

      await page.goto(`${server.url}/settings/account`);
      await page.getByRole('heading', { name: 'Authorized apps' }).waitFor();
      await page.getByRole('button', { name: 'Revoke access of Planner' }).click();
      await page.getByText('You have not authorized any app.').waitFor();
      await waitFor(
        async () => (await call(server.url, 'GET', '/api/v1/me', { token: tokens.body.access_token })).status === 401,
        'the app token stops working',
      );
    });
    await context.close();
  });
});
