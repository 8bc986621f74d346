import { client } from '../helpers/server';
import { automationServer, createAutomation, receiver } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { builderSession } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * A piece trigger's sample loaded from its service in the builder (docs/web-app.md "Test run"):
 * on a WooCommerce "Order Created" automation, **Load sample from WooCommerce** asks a fake shop on
 * 127.0.0.1 for its recent orders with the trigger's connection; the newest becomes the test
 * payload, the data picker's trigger sample, and the trigger of **Run test**.
 */
run('web app: a piece trigger sample from its service', () => {
  const suite = serverAndBrowser(() => automationServer());
  let shop: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    shop = await receiver((r) => {
      if (r.method === 'GET' && r.url.startsWith('/wp-json/wc/v3/orders'))
        return {
          status: 200,
          body: [
            { id: 31, number: '31', status: 'processing', billing: { first_name: 'Ada' } },
            { id: 30, number: '30', status: 'completed', billing: { first_name: 'Bo' } },
          ],
        };
      return { status: 404, body: { code: 'rest_no_route' } };
    });
  });
  afterAll(() => shop.close());

  test('load the sample, see it as the payload, run the test with it', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const connection = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'woocommerce',
      name: 'Shop',
      auth: { type: 'CUSTOM_AUTH', props: { baseUrl: shop.url, consumerKey: 'ck_web', consumerSecret: 'cs_web_secret_99' } },
    });
    expect(connection.status).toBe(200);
    const automation = await createAutomation(
      api,
      server.workspaceId,
      {
        name: 'Orders',
        trigger: { type: 'woocommerce.$woocommerce_trigger_order_created', connectionId: connection.body.item.id },
        actions: [{ id: 'who', type: 'set', values: { name: '{{ trigger.billing.first_name }}', order: '{{ trigger.number }}' } }],
      },
      { enabled: false },
    );
    const { context, page, b } = await builderSession(browser, server.token);
    try {
      await withScreenshot(page, 'piece-trigger-sample', async () => {
        await page.goto(`${server.url}/automations/${automation.id}/edit`);
        const payload = page.getByRole('textbox', { name: 'Sample trigger payload (JSON)' });
        await payload.waitFor();
        expect(await payload.textContent()).not.toContain('Ada');
        await page.getByRole('button', { name: 'Load sample from WooCommerce' }).click();
        await page.getByRole('status').filter({ hasText: 'The sample is the newest of 2 items from WooCommerce.' }).waitFor();
        expect(await payload.textContent()).toContain('"first_name": "Ada"');
        expect(shop.received.map((r) => [r.method, r.url])).toEqual([['GET', '/wp-json/wc/v3/orders?per_page=10']]);

        await page.getByRole('button', { name: 'Run test' }).click();
        const result = page.getByLabel('Test run result');
        await result.waitFor({ timeout: 30_000 });
        expect(JSON.parse((await result.getByLabel('Output of who').textContent()) ?? 'null')).toEqual({ name: 'Ada', order: '31' });
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
