import type { Browser } from 'playwright-core';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver } from '../automations/helpers';
import { signInCookie } from '../oauth/helpers';
import { browserAvailable, launch, seriousViolations } from './browser';

const run = browserAvailable() ? describe : describe.skip;
const PASSWORD = 'owner password 1';

/**
 * A piece trigger the service refused to register, seen on the automation's page in a real
 * Chromium (docs/web-app.md "Automations"): a fake WooCommerce shop answers 401 to the webhook
 * registration, and the page says the trigger is not registered, with the shop's answer; once the
 * shop takes it (disable, enable) the alert is gone. The console stays clean.
 */
run('web app: a piece trigger that is not registered', () => {
  let server: TestServer;
  let browser: Browser;
  let shop: Awaited<ReturnType<typeof receiver>>;
  let refuse = true;
  beforeAll(async () => {
    server = await automationServer({ TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD });
    browser = await launch();
    shop = await receiver((r) => {
      if (r.method === 'POST' && r.url === '/wp-json/wc/v3/webhooks')
        return refuse
          ? { status: 401, body: { code: 'woocommerce_rest_cannot_create', message: 'Sorry, you are not allowed to create resources.' } }
          : { status: 201, body: { id: 9, status: 'active' } };
      return { status: 200, body: {} };
    });
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await server?.close();
  });

  test('the automation page shows why, and nothing once it is registered', async () => {
    const api = client(server, server.token);
    const conn = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'woocommerce',
      name: 'Shop',
      auth: { type: 'CUSTOM_AUTH', props: { baseUrl: shop.url, consumerKey: 'ck_test', consumerSecret: 'cs_secret_1234' } },
    });
    expect(conn.status).toBe(200);
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'New orders',
      trigger: { type: 'woocommerce.$woocommerce_trigger_order_created', connectionId: conn.body.item.id },
      actions: [{ id: 'note', type: 'set', values: { order: '{{ trigger.id }}' } }],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10000);
    const [name, value] = (await signInCookie(server, 'owner', PASSWORD)).split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(`${server.url}/automations/${automation.id}`);
      const alert = page.getByRole('alert').filter({ hasText: 'The trigger is not registered with its service' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('401');
      expect(await page.content()).not.toContain('cs_secret_1234');
      expect(await seriousViolations(page)).toEqual([]);

      refuse = false;
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).click();
      await alert.waitFor({ state: 'detached' });
      await page.getByText('Enabled', { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
