import { FormData, request } from 'undici';
import { client, OWNER_TOKEN } from '../helpers/server';
import { automationServer, receiver } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { builderSession, testStepOn } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * A piece's `FILE` property picked from the workspace's media (docs/web-app.md "Pieces"): the
 * WordPress "Upload Media" step's File field lists the media files of the workspace's folders by
 * name; the one picked is saved as its media id, and the step's test uploads its bytes to a fake
 * WordPress on 127.0.0.1. A media id of another workspace typed into the field is refused by the draft check.
 */
run('web app: a piece FILE property from the media picker', () => {
  const suite = serverAndBrowser(() => automationServer());
  const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 254, 255]);
  let site: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    site = await receiver((r) => {
      if (r.url === '/') return { status: 200, body: '<html>blog</html>' };
      if (r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/media')) return { status: 201, body: { id: 11, media_type: 'image' } };
      if (r.method === 'GET' && r.url.startsWith('/wp-json/')) return { status: 200, headers: { 'x-wp-totalpages': '1' }, body: [] };
      return { status: 404, body: {} };
    });
  });
  afterAll(() => site.close());

  async function upload(folderId: string, name: string): Promise<{ id: string }> {
    const form = new FormData();
    form.append('file', new Blob([BYTES], { type: 'image/png' }), name);
    const res = await request(`${suite.server.url}/api/v1/folders/${folderId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
      body: form,
    });
    expect(res.statusCode).toBe(200);
    return ((await res.body.json()) as { item: { id: string } }).item;
  }

  test('pick a media file for Upload Media, save, test the step: the fake site receives its bytes', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const connection = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'wordpress',
      name: 'Blog',
      auth: { type: 'CUSTOM_AUTH', props: { username: 'ann', password: 'app-pass', website_url: site.url } },
    });
    expect(connection.status).toBe(200);
    const logo = await upload(server.workspaceId, 'logo.png');
    await upload(server.workspaceId, 'other.png');
    const elsewhere = await api.post('/api/v1/workspaces', { name: 'Elsewhere' });
    const foreign = await upload(elsewhere.body.item.id, 'foreign.png');

    const { context, page, b } = await builderSession(browser, server.token);
    try {
      await withScreenshot(page, 'piece-file-media-picker', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Upload logo');
        await b.chooseTrigger('Webhook');
        await page.getByRole('button', { name: 'Add a step to Steps', exact: true }).first().click();
        const picker = page.getByRole('dialog');
        const wordpress = picker.locator('details', { has: page.locator('summary', { hasText: /^WordPress/ }) });
        await wordpress.locator('summary').click();
        await wordpress.getByRole('button', { name: /^Upload Media/ }).click();
        const panel = page.locator('#step-panel:focus');
        await panel.waitFor();
        await panel.getByRole('textbox', { name: /^Step id of / }).fill('up');
        const step = b.card('up');
        await step.getByLabel('Connection', { exact: true }).selectOption({ label: 'Blog' });

        // The workspace's media by name; another workspace's are not offered.
        const file = step.getByLabel('File', { exact: true });
        await file.locator('option', { hasText: 'logo.png' }).waitFor({ state: 'attached' });
        const offered = await file.locator('option').allTextContents();
        expect(offered).toEqual(expect.arrayContaining(['logo.png', 'other.png']));
        expect(offered).not.toContain('foreign.png');
        await file.selectOption({ label: 'logo.png' });

        // Another workspace's media id typed in is refused when saving.
        await file.selectOption({ label: 'Another value or template…' });
        const typed = step.getByLabel('File (value or template)');
        await typed.fill(foreign.id);
        // The service's draft check says so at the field, before any save.
        const fileError = step.locator('#f-actions-0-props-file-error');
        await fileError.waitFor();
        expect(await fileError.textContent()).toContain(`media '${foreign.id}' is not in this workspace`);
        await typed.fill(logo.id);
        await fileError.waitFor({ state: 'detached' });

        const answer = page.waitForResponse(
          (r) => /\/api\/v1\/automations$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
        );
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        const saved = (await (await answer).json()).item;
        expect(saved.actions).toEqual([
          expect.objectContaining({
            id: 'up',
            type: 'wordpress.upload_media',
            connectionId: connection.body.item.id,
            props: expect.objectContaining({ file: logo.id }),
          }),
        ]);
        await page.waitForURL(/\/automations\/[^/]+\/edit$/);
        const result = await testStepOn(b, b.card('up'), 'up', { confirm: true });
        await result
          .getByText(/"id": 11|11/)
          .first()
          .waitFor();
        const sent = site.received.find((r) => r.method === 'POST' && r.url.startsWith('/wp-json/wp/v2/media'));
        expect(sent!.raw.includes(BYTES)).toBe(true);
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 120_000);
});
