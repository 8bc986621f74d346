import { addUser, client } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, receiver } from '../automations/helpers';
import { TEMPLATES } from '../../web/src/automations/templates';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';
import { BuilderPage } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/**
 * Samples that work (docs "Automations", "Samples"; web-app.md "Automation builder"): every
 * gallery template, created through the gallery as a person does, passes its first **Run test**
 * in the builder with the sample the builder offers (the trigger kind's example made the
 * workspace's own, or the template's declared sample) — a run that completes, or, for the
 * approval template, waits at its approval — with a clean console.
 */
run('web app: every gallery template passes its first test run with the offered sample', () => {
  const suite = serverAndBrowser(() => automationServer());

  test('each template, from the gallery to a completed test run', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const rx = await receiver();
    const projectId = await newProject(server, 'Launch plan');
    await addTasks(server, projectId, ['Write the announcement']);
    addUser(server, 'tmpl-ann', { workspaceId: server.workspaceId, role: 'Participant' });
    const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Drafter',
      data: { type: 'agent', data: { commands: [{ id: 'draft', name: 'Draft', prompt: 'Draft: {{ input }}' }] } },
    });
    expect(agent.status).toBe(200);
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    const outcomes: Record<string, string> = {};
    try {
      await withScreenshot(page, 'templates-run', async () => {
        for (const template of TEMPLATES) {
          await page.goto(`${server.url}/automations?templates=${server.workspaceId}`);
          await page.getByRole('button', { name: `Use template ${template.title}` }).click();
          const setup = page.getByRole('form', { name: `Set up ${template.title}` });
          for (const choice of template.choices) {
            const field = setup.getByLabel(choice.label, { exact: true });
            if (choice.kind === 'url') await field.fill(`${rx.url}/${template.id}`);
            else if (choice.kind === 'secret')
              continue; // optional: left empty, as a new install has none
            else {
              await field.locator('option').nth(1).waitFor({ state: 'attached' });
              await field.selectOption({ index: 1 });
            }
          }
          await setup.getByRole('button', { name: 'Create automation' }).click();
          await page.waitForURL(/\/automations\/[^/]+\/edit$/);
          const side = page.getByRole('complementary', { name: 'Test' });
          await side.getByRole('button', { name: 'Run test' }).click();
          const result = side.getByLabel('Test run result');
          await result.waitFor();
          outcomes[template.id] = (await result.locator('strong').first().textContent()) ?? '';
          const failed = await result.getByRole('listitem').filter({ hasText: ': failed' }).allTextContents();
          if (failed.length) outcomes[template.id] += ` (${failed.join('; ')})`;
        }
      });
    } finally {
      await context.close();
      await rx.close();
    }
    expect(outcomes).toEqual(
      Object.fromEntries(TEMPLATES.map((t) => [t.id, t.id === 'approval-before-publish' ? 'waiting' : 'completed'])),
    );
    // The chat templates posted to the receiver (the approval template posts once approved).
    expect(rx.received.map((r) => r.url).sort()).toEqual(
      TEMPLATES.filter((t) => t.id !== 'approval-before-publish' && t.choices.some((c) => c.kind === 'url'))
        .map((t) => `/${t.id}`)
        .sort(),
    );
    expect(b.errors).toEqual([]);
  }, 180_000);
});
