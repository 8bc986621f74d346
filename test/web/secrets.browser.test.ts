import type { Browser } from 'playwright-core';
import { call, startServer, type TestServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** Settings → Secrets in a real Chromium against the real server. */
run('web app: secrets', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1' } });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const secrets = async () =>
    (await call(server.url, 'GET', `/api/v1/workspaces/${server.workspaceId}/secrets`, { token: server.token })).body.items as {
      name: string;
    }[];

  test('an Owner sets a secret without ever seeing it again, sees who reads it, and cannot delete it while in use', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'settings-secrets', async () => {
      await page.goto(`${server.url}/settings/secrets`);
      await page.getByRole('heading', { name: 'Secrets', exact: true }).waitFor();
      await page.getByText('No secrets yet.').waitFor();
      await page.getByLabel('Name (an existing name rotates its value)').fill('payments_key');
      await page.getByLabel('Value (never shown again)').fill('sk_live_browser_value');
      await page.getByRole('button', { name: 'Save secret' }).click();
      await page.getByRole('status').filter({ hasText: 'Secret PAYMENTS_KEY saved.' }).waitFor();
      await page.getByRole('cell', { name: 'PAYMENTS_KEY', exact: true }).waitFor();
      expect(await page.content()).not.toContain('sk_live_browser_value');
      expect(await seriousViolations(page)).toEqual([]);

      const created = await call(server.url, 'POST', '/api/v1/automations', {
        token: server.token,
        body: {
          workspaceId: server.workspaceId,
          name: 'Charges',
          trigger: { type: 'webhook' },
          actions: [
            {
              id: 'charge',
              type: 'http.request',
              method: 'POST',
              url: 'http://127.0.0.1:9/charge',
              headers: { Authorization: 'Bearer {{ secrets.PAYMENTS_KEY }}' },
            },
          ],
        },
      });
      expect(created.status).toBe(200);
      await page.reload();
      await page.getByRole('cell', { name: 'Charges', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Delete the secret PAYMENTS_KEY' }).click();
      await page.getByRole('button', { name: 'Delete PAYMENTS_KEY' }).click();
      await page.getByRole('alert').filter({ hasText: 'read by 1 enabled automation(s): Charges' }).waitFor();
      expect((await secrets()).map((s) => s.name)).toEqual(['PAYMENTS_KEY']);

      await call(server.url, 'POST', `/api/v1/automations/${created.body.item.id}/disable`, { token: server.token, body: {} });
      await page.reload();
      await page.getByRole('cell', { name: 'Charges (disabled)', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Delete the secret PAYMENTS_KEY' }).click();
      await page.getByRole('button', { name: 'Delete PAYMENTS_KEY' }).click();
      await page.getByText('No secrets yet.').waitFor();
      await waitFor(async () => (await secrets()).length === 0, 'the secret is gone');
    });
    await context.close();
  });
});
