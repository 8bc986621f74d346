import { client } from '../helpers/server';
import { automationServer, receiver } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from '../web/browser';
import { BuilderPage, testStepOn } from '../web/builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * A piece step through the builder's form view (docs/integrations.md, docs/web-app.md): the
 * WordPress actions are folded in the kind picker until searched, the connection is picked from
 * the workspace's WordPress connections, the properties are filled as fields (the categories from
 * a dynamic dropdown the piece computes with the connection), the automation is
 * saved with `connectionId` and `props`, and the step's test posts to the fake site.
 */
run('pieces: a piece step built in the builder', () => {
  const suite = serverAndBrowser(() => automationServer());
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
      // Tags and media: none yet.
      if (r.method === 'GET' && r.url.startsWith('/wp-json/')) return { status: 200, headers: { 'x-wp-totalpages': '1' }, body: [] };
      if (r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'))
        return { status: 201, body: { id: 9, title: JSON.parse(r.body).title } };
      return { status: 404, body: {} };
    });
  });
  afterAll(() => site.close());

  test('pick the piece, its connection, fill its fields, save, test the step', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const made = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'wordpress',
      name: 'Team blog',
      auth: { type: 'CUSTOM_AUTH', props: { username: 'ann', password: 'app-pass-5678', website_url: site.url } },
    });
    const connectionId = made.body.item.id;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'pieces-builder', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Blog post');
        await b.chooseTrigger('Webhook');
        await page.getByRole('button', { name: 'Add a step to Steps', exact: true }).first().click();
        const dialog = page.getByRole('dialog');
        // Folded: the piece's actions show once its group is opened.
        const wordpress = dialog.locator('details', { has: page.locator('summary', { hasText: /^WordPress/ }) });
        await wordpress.locator('summary').click();
        await wordpress.getByRole('button', { name: /^Create Post/ }).click();
        // The new step opens in the side panel, focused.
        const panel = page.locator('#step-panel:focus');
        await panel.waitFor();
        await panel.getByRole('textbox', { name: /^Step id of / }).fill('post');
        const step = b.card('post');
        await b.choose(step, 'Connection', 'Team blog');
        await b.fill(step, 'Title', 'Hello from the builder');
        await b.fill(step, 'Content', 'Body');
        // A dynamic dropdown: the piece lists the site's categories through the server.
        const categories = step.getByLabel('Categories', { exact: true });
        await categories.locator('option', { hasText: 'Releases' }).waitFor({ state: 'attached' });
        await categories.selectOption([{ label: 'News' }, { label: 'Releases' }]);
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
            props: expect.objectContaining({ title: 'Hello from the builder', content: 'Body' }),
          }),
        ]);
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const result = await testStepOn(b, await b.open('post'), 'post', { confirm: true });
        await result.getByText(/201/).first().waitFor();
        const posted = site.received.find((r) => r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/posts'));
        expect(JSON.parse(posted!.body)).toMatchObject({ title: 'Hello from the builder', categories: [3, 5] });
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
