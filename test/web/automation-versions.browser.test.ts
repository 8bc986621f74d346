import type { Page } from 'playwright-core';
import { client } from '../helpers/server';
import { automationServer, createAutomation, runWithStatus, waitFor } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { privateWebDir } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** A step that fails at run time (no such project), so a run of the version holding it fails. */
const FAILING = { id: 'file', type: 'task.create', projectId: "{{ 'no-such-project' }}", text: 'x' };

/**
 * An automation's versions and replays in a real Chromium against the real server: the changes
 * between two versions, a confirmed restore that saves the old definition as the newest version,
 * and an Owner's replay of a failed run with the current version.
 */
run('web app: automation versions, diff, restore and replay with the current version', () => {
  let web: ReturnType<typeof privateWebDir> | undefined;
  const suite = serverAndBrowser(() => {
    web = privateWebDir();
    return automationServer({ TASKSPACE_WEB_DIR: web.dir });
  });
  afterAll(() => web?.remove());

  /** A signed-in page at `width` px, and the console errors it logs. */
  async function open(width = 1280): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await suite.browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${suite.server.token}` },
      viewport: { width, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    return { page, errors, close: () => context.close() };
  }

  test('two versions compared show the changed field; a confirmed restore saves the old definition as the newest version', async () => {
    const { server } = suite;
    const api = client(server, server.token);
    const v1 = { name: 'Greeter', trigger: { type: 'webhook' }, actions: [{ id: 'greet', type: 'set', values: { greeting: 'hello' } }] };
    const a = await createAutomation(api, server.workspaceId, v1);
    expect(
      (await api.put(`/api/v1/automations/${a.id}`, { ...v1, actions: [{ id: 'greet', type: 'set', values: { greeting: 'bonjour' } }] }))
        .status,
    ).toBe(200);
    expect(
      (
        await api.put(`/api/v1/automations/${a.id}`, {
          ...v1,
          name: 'Greeter (French)',
          actions: [{ id: 'greet', type: 'set', values: { greeting: 'bonjour' } }],
        })
      ).status,
    ).toBe(200);

    const { page, errors, close } = await open();
    await withScreenshot(page, 'versions-diff-restore', async () => {
      await page.goto(`${server.url}/automations/${a.id}`);
      await page.getByRole('cell', { name: 'v3 (current)' }).waitFor();
      // Compare v1 with v2: the greeting changed, nothing else.
      await page.getByLabel('Older version').selectOption('1');
      await page.getByLabel('Newer version').selectOption('2');
      await page.getByRole('button', { name: 'Show changes' }).click();
      const diff = page.getByRole('figure', { name: 'Changes from v1 to v2' });
      await diff.getByText('1 line added, 1 removed').waitFor();
      const lines = async (tag: string) => (await diff.locator(tag).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
      expect(await lines('del')).toEqual(['- "greeting": "hello"']);
      expect(await lines('ins')).toEqual(['+ "greeting": "bonjour"']);
      // v2 → v3 changed the name only.
      await page.getByLabel('Newer version').selectOption('3');
      await page.getByRole('figure', { name: 'Changes from v1 to v3' }).locator('ins', { hasText: '"name": "Greeter (French)"' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Restore asks first; backing out changes nothing.
      await page.getByRole('button', { name: 'Restore v1' }).click();
      const confirm = page.getByRole('group', { name: 'Restore v1?' });
      await confirm.getByText('v1’s definition becomes v4').waitFor();
      await confirm.getByRole('button', { name: 'Keep current' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect((await api.get(`/api/v1/automations/${a.id}`)).body.item.version).toBe(3);

      await page.getByRole('button', { name: 'Restore v1' }).click();
      await page.getByRole('button', { name: 'Restore as v4' }).click();
      await page.getByRole('status').getByText('v1 restored as v4.').waitFor();
      await page.getByRole('cell', { name: 'v4 (current)' }).waitFor();
      await page.getByRole('heading', { name: 'Greeter', exact: true }).waitFor();
    });
    await close();

    // Over the API: the newest version holds v1's definition.
    const versions = (await api.get(`/api/v1/automations/${a.id}/versions`)).body.items;
    expect(versions[0]).toMatchObject({ version: 4, current: true, message: 'Restored version 1' });
    const restored = (await api.get(`/api/v1/automations/${a.id}/versions/4`)).body.item;
    expect({ name: restored.name, trigger: restored.trigger, actions: restored.actions }).toEqual(v1);
    expect(errors).toEqual([]);
  }, 120_000);

  test('an Owner replays a failed run with the current version and the new run says it used it', async () => {
    const { server } = suite;
    const api = client(server, server.token);
    const a = await createAutomation(api, server.workspaceId, { name: 'Filer', trigger: { type: 'webhook' }, actions: [FAILING] });
    const bad = (await api.post(`/api/v1/automations/${a.id}/test`, {})).body.item;
    await runWithStatus(api, a.id, bad.id, 'failed');
    // The fix comes as version 2, after the run failed on version 1.
    const fixed = { name: 'Filer', trigger: { type: 'webhook' }, actions: [{ id: 'file', type: 'set', values: { filed: true } }] };
    expect((await api.put(`/api/v1/automations/${a.id}`, fixed)).body.item.version).toBe(2);

    const { page, errors, close } = await open();
    await withScreenshot(page, 'replay-current-version', async () => {
      await page.goto(`${server.url}/automations/${a.id}/runs/${bad.id}`);
      await page.getByRole('heading', { name: /Run .* failed/ }).waitFor();
      await page.getByText('version 1 (current is v2)').waitFor();
      const replay = page.getByRole('group', { name: 'Replay', exact: true });
      expect(await replay.getByRole('radio', { name: 'the version it ran (v1)' }).isChecked()).toBe(true);
      await replay.getByRole('radio', { name: 'the current version (v2)' }).check();
      await replay.getByRole('button', { name: 'Replay from the start' }).click();
      // From the start is confirmed after a warning: the steps that succeeded run again.
      await replay.getByRole('alert').getByRole('button', { name: 'Replay every step' }).click();
      // The new run opens, linked to the one it replays, on version 2.
      await page.getByRole('link', { name: `run ${bad.id.slice(0, 8)}` }).waitFor();
      await page.getByText('version 2 (current)').waitFor();
      expect(page.url()).not.toContain(bad.id);
      expect(await seriousViolations(page)).toEqual([]);
    });
    await close();

    const replay = await waitFor(
      async () => (await api.get(`/api/v1/automations/${a.id}/runs`)).body.items.find((r: { replayOf?: string }) => r.replayOf === bad.id),
      'the replay',
    );
    expect(replay.version).toBe(2);
    expect((await runWithStatus(api, a.id, replay.id, 'completed')).version).toBe(2);
    expect(errors).toEqual([]);
  }, 120_000);
});
