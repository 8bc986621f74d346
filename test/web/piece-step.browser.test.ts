import { client } from '../helpers/server';
import { automationServer, receiver } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { BuilderPage, testStepOn } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * A piece step built in the flow view's side panel with its connection made inline (docs/web-app.md
 * "Connections"): the WordPress "Create Post" action is picked, "New connection" opens the
 * piece's connection form in a dialog (its custom-auth fields: username, password, the site's
 * URL, pointed at a fake WordPress on 127.0.0.1), the new connection is picked, the fields are
 * filled (the categories from a dynamic dropdown the piece computes with that connection), the
 * automation is saved, and the step's test posts to the fake site with the connection's
 * credentials. The password is never on the page after it is saved; the console stays clean.
 */
run('web app: a piece step with a connection made inline', () => {
  const suite = serverAndBrowser(() => automationServer());
  const PASSWORD = 'inline-app-pass-4711';
  let site: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    site = await receiver((r) => {
      if (r.url === '/') return { status: 200, body: '<html>blog</html>' };
      if (r.method === 'GET' && r.url.startsWith('/wp-json/wp/v2/categories'))
        return {
          status: 200,
          headers: { 'x-wp-totalpages': '1' },
          body: [
            { id: 3, name: 'News' },
            { id: 5, name: 'Releases' },
          ],
        };
      if (r.method === 'GET' && r.url.startsWith('/wp-json/')) return { status: 200, headers: { 'x-wp-totalpages': '1' }, body: [] };
      if (r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'))
        return { status: 201, body: { id: 9, title: JSON.parse(r.body).title } };
      return { status: 404, body: {} };
    });
  });
  afterAll(() => site.close());

  test('pick the piece, make a connection inline, fill its fields, save, test the step', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'piece-step-inline-connection', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Blog post');
        await b.chooseTrigger('Webhook');
        await page.getByRole('button', { name: 'Add a step to Steps', exact: true }).first().click();
        const picker = page.getByRole('dialog');
        const wordpress = picker.locator('details', { has: page.locator('summary', { hasText: /^WordPress/ }) });
        await wordpress.locator('summary').click();
        await wordpress.getByRole('button', { name: /^Create Post/ }).click();
        const panel = page.locator('#step-panel:focus');
        await panel.waitFor();
        await panel.getByRole('textbox', { name: /^Step id of / }).fill('post');
        const step = b.card('post');

        // No connection yet: make one from the step.
        await step.getByRole('button', { name: 'New connection', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'New WordPress connection' });
        await dialog.getByLabel('Connection name').fill('Team blog');
        await dialog.getByLabel('Username', { exact: true }).fill('ann');
        await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await dialog.getByLabel('Website URL', { exact: true }).fill(site.url);
        await dialog.getByRole('button', { name: 'Save connection' }).click();
        await dialog.waitFor({ state: 'detached' });
        const connections = (await api.get(`/api/v1/workspaces/${server.workspaceId}/connections?piece=wordpress`)).body.items;
        expect(connections).toEqual([expect.objectContaining({ name: 'Team blog', authType: 'CUSTOM_AUTH' })]);
        const connectionId = connections[0].id;
        // The new connection is the step's.
        const select = step.getByLabel('Connection', { exact: true });
        await page.waitForFunction(([el, id]) => (el as unknown as { value: string }).value === id, [
          await select.elementHandle(),
          connectionId,
        ] as const);

        await b.fill(step, 'Title', 'Hello from the builder');
        await b.fill(step, 'Content', 'Body');
        // A dynamic dropdown: the piece lists the site's categories with the new connection.
        const categories = step.getByLabel('Categories', { exact: true });
        await categories.locator('option', { hasText: 'Releases' }).waitFor({ state: 'attached' });
        await categories.selectOption([{ label: 'Releases' }]);
        const answer = page.waitForResponse(
          (r) => /\/api\/v1\/automations$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
        );
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        const saved = (await (await answer).json()).item;
        expect(saved.actions).toEqual([
          expect.objectContaining({
            id: 'post',
            type: 'wordpress.create_post',
            connectionId,
            props: expect.objectContaining({ title: 'Hello from the builder', content: 'Body', categories: [5] }),
          }),
        ]);
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const result = await testStepOn(b, b.card('post'), 'post', { confirm: true });
        await result.getByText(/201/).first().waitFor();
        const posted = site.received.find((r) => r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'));
        expect(JSON.parse(posted!.body)).toMatchObject({ title: 'Hello from the builder', categories: [5] });
        expect(posted!.headers.authorization).toBe(`Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`);
        expect(await page.content()).not.toContain(PASSWORD);
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
