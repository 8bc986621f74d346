import type { Browser, Page } from 'playwright-core';
import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, receiver, runWithStatus, waitFor } from '../automations/helpers';
import { browserAvailable, launch, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The page's console errors and uncaught exceptions, collected from now on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

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

  test('a step that names @nina: the Owner reads who decides and gets no buttons; @nina decides and the run goes on', async () => {
    const api = client(server, server.token);
    const ninaToken = addUser(server, 'nina', { workspaceId: server.workspaceId, role: 'Participant' });
    const a = await createAutomation(api, server.workspaceId, {
      name: 'Release gate',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ask', type: 'approval', message: 'Release version {{ trigger.v }}?', approvers: ['nina'] }],
    });
    const started = (await api.post(`/api/v1/automations/${a.id}/test`, { payload: { v: '3.0' } })).body.item;
    await runWithStatus(api, a.id, started.id, 'waiting');
    const delivery = await waitFor(
      () => hooks.received.find((d) => JSON.parse(d.body).payload.runId === started.id),
      'the approval request naming @nina',
    );
    const link: string = JSON.parse(delivery.body).payload.decisionLink;

    /** A page signed in with `token` (a bearer header, as the API's own clients), and its console errors. */
    const open = async (token: string) => {
      const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      context.setDefaultTimeout(10000);
      const page = await context.newPage();
      return { context, page, errors: consoleErrors(page) };
    };

    const owner = await open(server.token);
    await withScreenshot(owner.page, 'decision-link-not-an-approver', async () => {
      await owner.page.goto(link);
      await owner.page.getByRole('heading', { name: 'Release version 3.0?' }).waitFor();
      await owner.page.getByText('Only @nina can decide this approval.').waitFor();
      await owner.page.getByText(/approvers: @nina/).waitFor();
      expect(await owner.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      expect(await owner.page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
      expect(await owner.page.getByLabel('Comment (optional)').count()).toBe(0);
      expect(await seriousViolations(owner.page)).toEqual([]);
      await owner.page.waitForLoadState('networkidle');
      expect(owner.errors).toEqual([]);
    });
    await owner.context.close();
    // Reading the link as someone who may not decide leaves it usable and the run waiting.
    expect((await api.get(`/api/v1/automations/${a.id}/runs/${started.id}`)).body.item.status).toBe('waiting');

    const nina = await open(ninaToken);
    await withScreenshot(nina.page, 'decision-link-named-approver', async () => {
      await nina.page.goto(link);
      await nina.page.getByRole('heading', { name: 'Release version 3.0?' }).waitFor();
      expect(await nina.page.getByText('Only @nina can decide this approval.').count()).toBe(0);
      await nina.page.getByLabel('Comment (optional)').fill('ship it');
      await nina.page.getByRole('button', { name: 'Approve' }).click();
      await nina.page.getByText('Recorded: the run is now completed.').waitFor();
      await nina.page.waitForLoadState('networkidle');
      expect(nina.errors).toEqual([]);
    });
    await nina.context.close();
    const decided = await runWithStatus(api, a.id, started.id, 'completed');
    expect(decided.steps[0].output).toMatchObject({ decision: 'approved', comment: 'ship it', decidedBy: 'nina' });
  });
});
