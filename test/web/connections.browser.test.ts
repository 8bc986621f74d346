import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { call, client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, receiver, waitFor } from '../automations/helpers';
import { registerClient, signInCookie } from '../oauth/helpers';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;
const PROBE = path.join(__dirname, '..', 'pieces', 'fixtures', 'oauth-probe');
const PASSWORD = 'owner password 1';

/**
 * Settings → Connections in a real Chromium (docs/web-app.md "Connections"): an Owner makes a
 * WordPress connection with its form (pointed at a fake site), tests, renames and deletes it, and
 * never sees its password again; registers a provider app and makes an OAuth2 connection with
 * "Connect": the consent opens in a popup at a second Taskspace instance (signed in and allowed
 * as a person would), the popup closes and the connection is listed; "Reconnect" consents again
 * in a popup and the same connection gets new tokens. The console stays clean.
 */
run('web app: Settings → Connections', () => {
  let provider: TestServer;
  let server: TestServer;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    provider = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    const dataDir = tempDataDir();
    expect(runCli(dataDir, 'pieces', 'add', PROBE).code).toBe(0);
    server = await startServer({ dataDir, env: { ...AUTOMATION_ENV, TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    browser = await launch();
    site = await receiver((r) => {
      if (r.url === '/') return { status: 200, body: '<html>blog</html>' };
      if (r.url.startsWith('/wp-json/wp/v2/users/me')) return { status: 200, body: { id: 1, name: 'Ann' } };
      if (r.url.startsWith('/wp-json')) return { status: 200, body: { name: 'Blog', namespaces: ['wp/v2'] } };
      return { status: 404, body: {} };
    });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    await provider?.close();
  });

  /** A page signed in at the server with a session cookie (the provider, on another host name, has its own). */
  async function signedIn(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10000);
    const [name, value] = (await signInCookie(server, 'owner', PASSWORD)).split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    context.on('page', (p) => p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()}`)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    return { page, errors, close: () => context.close() };
  }

  test('make, test, rename and delete a connection; its password is never shown', async () => {
    const { page, errors, close } = await signedIn();
    const secret = 'settings-app-pass-9911';
    try {
      await withScreenshot(page, 'settings-connections', async () => {
        await page.goto(`${server.url}/settings/connections`);
        await page.getByRole('heading', { name: 'Connections', exact: true }).waitFor();
        await page.getByText('No connections yet.').waitFor();
        await page.getByLabel('Piece').first().selectOption({ label: 'WordPress' });
        const form = page.getByRole('form', { name: 'New WordPress connection' });
        await form.getByLabel('Connection name').fill('Blog');
        await form.getByLabel('Username', { exact: true }).fill('ann');
        await form.getByLabel('Password', { exact: true }).fill(secret);
        await form.getByLabel('Website URL', { exact: true }).fill(site.url);
        await form.getByRole('button', { name: 'Save connection' }).click();
        await page.getByRole('status').filter({ hasText: 'Connection Blog made.' }).waitFor();
        await page.getByRole('cell', { name: 'Blog', exact: true }).waitFor();
        expect(await page.content()).not.toContain(secret);

        await page.getByRole('button', { name: 'Test Blog' }).click();
        await page.getByRole('status').filter({ hasText: 'Works' }).waitFor();
        expect(site.received.some((r) => r.headers.authorization === `Basic ${Buffer.from(`ann:${secret}`).toString('base64')}`)).toBe(
          true,
        );

        await page.getByRole('button', { name: 'Rename Blog' }).click();
        await page.getByLabel('New name of Blog').fill('Team blog');
        await page.getByRole('button', { name: 'Save name' }).click();
        await page.getByRole('cell', { name: 'Team blog', exact: true }).waitFor();

        await page.getByRole('button', { name: 'Delete the connection Team blog' }).click();
        await page.getByRole('button', { name: 'Delete Team blog' }).click();
        await page.getByText('No connections yet.').waitFor();
        expect(
          (await call(server.url, 'GET', `/api/v1/workspaces/${server.workspaceId}/connections`, { token: server.token })).body.items,
        ).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });
    } finally {
      await close();
    }
  }, 120_000);

  test('an OAuth2 connection: register the app, Connect, consent in the popup at the provider', async () => {
    // The provider on another host name than the server, so that each keeps its own session cookie.
    const providerUrl = provider.url.replace('127.0.0.1', 'localhost');
    const app = await registerClient(provider, {
      type: 'confidential',
      name: 'Taskspace automations',
      redirectUris: [`${server.url}/api/v1/connections/oauth2/callback`],
    });
    const { page, errors, close } = await signedIn();
    try {
      await withScreenshot(page, 'settings-connections-oauth2', async () => {
        await page.goto(`${server.url}/settings/connections`);
        const apps = page.getByRole('form', { name: 'Register a provider app' });
        await apps.getByLabel('Piece').selectOption({ label: 'OAuth probe' });
        await apps.getByLabel('Client id').fill(app.id);
        await apps.getByLabel('Client secret (never shown again)').fill(app.clientSecret!);
        await apps.getByRole('button', { name: 'Save app' }).click();
        await page.getByRole('cell', { name: app.id }).waitFor();
        expect(await page.content()).not.toContain(app.clientSecret!);

        await page.getByLabel('Piece').first().selectOption({ label: 'OAuth probe' });
        const form = page.getByRole('form', { name: 'New OAuth probe connection' });
        await form.getByLabel('Connection name').fill('Other instance');
        await form.getByLabel('Instance URL', { exact: true }).fill(providerUrl);
        const [popup] = await Promise.all([page.waitForEvent('popup'), form.getByRole('button', { name: 'Connect' }).click()]);
        // The person signs in at the provider and allows the app there.
        await popup.waitForURL((url) => url.pathname === '/sign-in');
        await popup.getByLabel('Handle or email').fill('owner');
        await popup.getByLabel('Password').fill(PASSWORD);
        await popup.getByRole('button', { name: 'Sign in' }).click();
        await popup.getByRole('button', { name: 'Allow' }).click();
        // The callback page closes the popup once the server has the tokens.
        await popup.waitForEvent('close');
        await page.getByRole('cell', { name: 'Other instance', exact: true }).waitFor();
        await page.getByRole('cell', { name: 'OAuth2', exact: true }).waitFor();
        const listed = (await client(server, server.token).get(`/api/v1/workspaces/${server.workspaceId}/connections`)).body.items;
        const made = listed.filter((c: { authType: string }) => c.authType === 'OAUTH2');
        expect(made).toEqual([expect.objectContaining({ name: 'Other instance', piece: 'taskspace-oauth-probe' })]);

        // Reconnect: a new consent in the popup replaces the tokens in place. The provider remembers
        // the grant, so its consent page is skipped and the popup closes on its own.
        const [again] = await Promise.all([
          page.waitForEvent('popup'),
          page.getByRole('button', { name: 'Reconnect Other instance' }).click(),
        ]);
        await page.getByRole('status').filter({ hasText: 'Reconnected' }).waitFor();
        await waitFor(async () => again.isClosed(), 'the reconnect popup to close');
        const after = (await client(server, server.token).get(`/api/v1/workspaces/${server.workspaceId}/connections`)).body.items;
        expect(after.filter((c: { authType: string }) => c.authType === 'OAUTH2')).toEqual([
          expect.objectContaining({ id: made[0].id, name: 'Other instance', updatedAt: expect.any(String) }),
        ]);
        expect(after.find((c: { id: string }) => c.id === made[0].id).updatedAt).not.toBe(made[0].updatedAt);
        expect(await seriousViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });
    } finally {
      await close();
    }
  }, 120_000);
});
