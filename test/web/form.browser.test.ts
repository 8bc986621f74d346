import { call, client } from '../helpers/server';
import { automationServer, settledRuns } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The hosted page of a form trigger, filled in by a real Chromium without an account. */
run('hosted form page', () => {
  const suite = serverAndBrowser(() => automationServer());

  test('a visitor is told what to fix, fills the form by its labels, and the run gets the values', async () => {
    const created = await call(suite.server.url, 'POST', '/api/v1/automations', {
      token: suite.server.token,
      body: {
        workspaceId: suite.server.workspaceId,
        name: 'Bug report',
        trigger: {
          type: 'form',
          title: 'Report a bug',
          fields: [
            { name: 'summary', label: 'Summary', type: 'text', required: true },
            { name: 'severity', label: 'Severity', type: 'choice', options: ['low', 'high'], required: true },
            { name: 'seenOn', label: 'Seen on', type: 'date' },
            { name: 'contact', label: 'You may contact me', type: 'checkbox' },
          ],
          thankYou: 'Thanks for the report!',
        },
        actions: [],
      },
    });
    expect(created.status).toBe(200);
    const automation = created.body.item;
    const context = await suite.browser.newContext();
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'hosted-form', async () => {
      await page.goto(automation.webhook.formUrl);
      await page.getByRole('heading', { name: 'Report a bug' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // The browser's own required-field check is bypassed to see the service's answer.
      await page.getByLabel('Summary').fill('Crash on save');
      await page.getByLabel('Severity').evaluate((el) => el.removeAttribute('required'));
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Severity: is required').waitFor();
      expect(await page.getByLabel('Summary').inputValue()).toBe('Crash on save');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Severity').selectOption('high');
      await page.getByLabel('Seen on').fill('2026-11-20');
      await page.getByLabel('You may contact me').check();
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Thanks for the report!').waitFor();
    });
    const [runRecord] = await settledRuns(client(suite.server, suite.server.token), automation.id);
    expect(runRecord.trigger.variables).toEqual({ summary: 'Crash on save', severity: 'high', seenOn: '2026-11-20', contact: true });
    await context.close();
  });
});
