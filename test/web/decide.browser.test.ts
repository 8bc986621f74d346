import type { Browser } from 'playwright-core';
import { client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver, runWithStatus, waitFor } from '../automations/helpers';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** A decision link from an `approval.requested` event, opened in a real Chromium. */
run('web app: decision links', () => {
  const PASSWORD = 'owner decides 123';
  let server: TestServer;
  let browser: Browser;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await startServer({ env: { ...AUTOMATION_ENV, TASKSPACE_BOOTSTRAP_PASSWORD: PASSWORD } });
    browser = await launch();
    hooks = await receiver();
  });
  afterAll(async () => {
    await hooks?.close();
    await browser?.close();
    await server?.close();
  });

  test('signed out, the link goes through sign-in and back; the decision is recorded once', async () => {
    const api = client(server, server.token);
    expect((await api.post('/api/v2/webhooks', { targetUrl: `${hooks.url}/ask`, events: ['approval.requested'] })).status).toBe(200);
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Ship it',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ok', type: 'approval', message: 'Ship version {{ trigger.v }}?' }],
    });
    const started = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { v: '2.0' } })).body.item;
    await runWithStatus(api, a.id, started.id, 'waiting');
    const [delivery] = await waitFor(() => hooks.received.length > 0 && hooks.received, 'the approval request');
    const link: string = JSON.parse(delivery!.body).payload.decisionLink;

    const context = await browser.newContext();
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'decision-link', async () => {
      await page.goto(link);
      await page.waitForURL(/\/sign-in\?next=%2Fdecide%3Ftoken%3D/);
      await page.getByLabel('Handle or email').fill('owner');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Ship version 2.0?' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Comment (optional)').fill('go');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Recorded: the run is now completed.').waitFor();
      await page.reload();
      await page.getByRole('alert').filter({ hasText: 'this decision link has already been used' }).waitFor();
    });
    expect((await api.get(`/api/v1/automations/${a.id}/runs/${started.id}`)).body.item.steps[0].output).toMatchObject({
      decision: 'approved',
      comment: 'go',
      decidedBy: 'owner',
    });
    await context.close();
  });
});
