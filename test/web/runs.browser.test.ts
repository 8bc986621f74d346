import type { Browser } from 'playwright-core';
import { client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, runWithStatus } from '../automations/helpers';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The runs list across automations, in a real Chromium against the real server. */
run('web app: runs across automations and versions', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ env: AUTOMATION_ENV });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('every run is listed newest first, filters narrow it, and a run opens its timeline', async () => {
    const api = client(server, server.token);
    const fine = await createAutomation(api, server.workspaceId, {
      name: 'Fine',
      trigger: { type: 'webhook' },
      actions: [{ id: 'calc', type: 'set', values: { x: '1' } }],
    });
    const broken = await createAutomation(api, server.workspaceId, {
      name: 'Broken',
      trigger: { type: 'webhook' },
      actions: [{ id: 'oops', type: 'task.create', projectId: "{{ 'no-such-project' }}", text: 'x' }],
    });
    const ok = (await api.post(`/api/v1/automations/${fine.id}/test`, {})).body.item;
    await runWithStatus(api, fine.id, ok.id, 'completed');
    const bad = (await api.post(`/api/v1/automations/${broken.id}/test`, {})).body.item;
    await runWithStatus(api, broken.id, bad.id, 'failed');

    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'runs-list', async () => {
      await page.goto(`${server.url}/runs`);
      const rows = page.getByRole('row');
      const runLink = (id: string) => page.getByRole('link', { name: id.slice(0, 8) });
      await runLink(bad.id).waitFor();
      await runLink(ok.id).waitFor();
      // Newest first: the failed run is the first data row.
      expect(await rows.nth(1).textContent()).toContain('Broken');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Automation').selectOption({ label: 'Fine' });
      await runLink(bad.id).waitFor({ state: 'detached' });
      await runLink(ok.id).waitFor();
      await page.getByLabel('Automation').selectOption({ label: 'All automations' });
      await page.getByLabel('Status').selectOption('failed');
      await runLink(ok.id).waitFor({ state: 'detached' });
      await runLink(bad.id).click();
      await page.waitForURL(`${server.url}/automations/${broken.id}/runs/${bad.id}`);
      await page.getByRole('heading', { name: /Run .* failed/ }).waitFor();
      // The timeline names the automation it goes back to, the trigger and each step's kind by their titles.
      await page.getByRole('link', { name: '← Broken' }).waitFor();
      await page.getByText(/^Webhook · version 1/).waitFor();
      await page.getByRole('listitem').filter({ hasText: 'oops' }).getByText('Create a task', { exact: true }).waitFor();
      // Replaying from the start warns that succeeded steps run again, and waits for a confirmation.
      await page.getByRole('button', { name: 'Replay from the start' }).click();
      const warning = page.getByRole('alert').filter({ hasText: 'runs every step again' });
      await warning.getByRole('button', { name: 'Replay every step' }).waitFor();
      await warning.getByRole('button', { name: 'Cancel', exact: true }).click();
      await warning.waitFor({ state: 'detached' });
      // The Owner replays it; the new run opens, linked to the one it replays.
      await page.getByRole('button', { name: 'Replay from the failed step' }).click();
      await page.getByRole('link', { name: `run ${bad.id.slice(0, 8)}` }).waitFor();
      expect(page.url()).not.toContain(bad.id);
    });
    const replays = (await api.get(`/api/v1/automations/${broken.id}/runs`)).body.items.filter(
      (r: { replayOf?: string }) => r.replayOf === bad.id,
    );
    expect(replays).toHaveLength(1);
    await context.close();
  });

  test("an automation's page lists its versions and the Owner rolls back to one", async () => {
    const api = client(server, server.token);
    const a = await createAutomation(api, server.workspaceId, { name: 'Old name', trigger: { type: 'webhook' }, actions: [] });
    await api.put(`/api/v1/automations/${a.id}`, { name: 'New name', trigger: { type: 'webhook' }, actions: [] });
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'automation-versions', async () => {
      await page.goto(`${server.url}/automations/${a.id}`);
      await page.getByRole('cell', { name: 'v2 (current)' }).waitFor();
      await page.getByRole('button', { name: 'Restore v1' }).click();
      await page.getByRole('button', { name: 'Restore as v3' }).click();
      await page.getByRole('cell', { name: 'v3 (current)' }).waitFor();
      await page.getByRole('heading', { name: 'Old name' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
    expect((await api.get(`/api/v1/automations/${a.id}`)).body.item).toMatchObject({ name: 'Old name', version: 3 });
    await context.close();
  });

  test('an Owner cancels a waiting run from its timeline', async () => {
    const api = client(server, server.token);
    const waiting = await createAutomation(api, server.workspaceId, {
      name: 'Waits',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', message: 'Go?' }],
    });
    const started = (await api.post(`/api/v1/automations/${waiting.id}/test`, {})).body.item;
    await runWithStatus(api, waiting.id, started.id, 'waiting');
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${server.token}` } });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'run-cancel', async () => {
      await page.goto(`${server.url}/automations/${waiting.id}/runs/${started.id}`);
      await page.getByRole('button', { name: 'Cancel run' }).click();
      await page.getByRole('heading', { name: /Run .* cancelled/ }).waitFor();
      await runWithStatus(api, waiting.id, started.id, 'cancelled');
      expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    });
    await context.close();
  });
});
