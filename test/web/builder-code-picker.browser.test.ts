import { client } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { automationServer } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';
import { BuilderPage } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * The data picker in the code and JSON editors (docs "Web app", "Data picker"), in a real Chromium
 * against the real server: an HTTP step's JSON body gets a variable through the picker's button,
 * a code step's input through `{{` completion, and the saved definition holds both.
 */
run('web app: the data picker reaches the JSON and code editors', () => {
  const suite = serverAndBrowser(() => automationServer());

  test('a variable goes into an HTTP JSON body by the picker and into a code input by {{ completion', async () => {
    const { server, browser } = suite;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'builder-code-picker', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.locator('#automation-name').fill('Pickers');
        await b.chooseTrigger('Webhook');

        // The HTTP step's JSON body: outside a string the picker inserts a whole "{{ … }}" string.
        const call = await b.add('Add a step to Steps', 'Send an HTTP request', 'call');
        await call.getByLabel('Method', { exact: true }).selectOption('POST');
        await b.fill(call, 'URL', 'https://example.com/hook');
        await call.getByLabel('Body: kind').selectOption({ label: 'JSON' });
        const body = call.getByRole('textbox', { name: 'JSON', exact: true });
        await b.code(body, '{"event": ');
        await call.getByRole('button', { name: 'Insert data into JSON', exact: true }).click();
        const picker = call.getByRole('dialog', { name: 'Insert data into JSON' });
        await picker.getByRole('searchbox', { name: 'Search data' }).fill('trigger.body');
        await picker
          .getByRole('button', { name: /^trigger\.body/ })
          .first()
          .click();
        await picker.waitFor({ state: 'detached' });
        await page.keyboard.insertText('}');
        expect(await body.textContent()).toBe('{"event": "{{ trigger.body }}"}');

        // The code step's input: typing {{ offers the variables; choosing one inserts the whole tag.
        const calc = await b.add('Add a step after call', 'Run code', 'calc');
        await b.code(calc.getByRole('textbox', { name: 'Code', exact: true }), 'return input.status;');
        const input = calc.getByRole('textbox', { name: 'Input', exact: true });
        await input.focus();
        await page.keyboard.type('{"status": "{{ steps.ca');
        const option = page.getByRole('option', { name: /steps\.call\.status/ });
        await option.click();
        const wanted = '{"status": "{{ steps.call.status }}"}';
        let seen: string | null = null;
        await waitFor(
          async () => (seen = await input.textContent()) === wanted,
          () => `the input to read ${wanted} (it reads ${seen})`,
        );

        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const id = page.url().split('/').at(-2)!;
        const saved = (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
        expect(saved.actions[0].body).toEqual({ type: 'json', value: { event: '{{ trigger.body }}' } });
        expect(saved.actions[1].input).toEqual({ status: '{{ steps.call.status }}' });
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
