import { addUser, client, startServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** The agents screens in a real Chromium, against the real server and its offline model provider. */
run('web app: agents', () => {
  const suite = serverAndBrowser(() => startServer());

  test('create an agent, give it a command and knowledge, run it and read the sanitized answer, open its public page; generate another', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const projectId = await newProject(server, 'Handbook');
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    await withScreenshot(page, 'agents', async () => {
      await page.goto(`${server.url}/agents`);
      await page.getByRole('heading', { name: 'No agents in this folder yet' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Support helper');
      await page.getByRole('button', { name: 'Create agent' }).click();
      await page.getByRole('heading', { name: 'Support helper' }).waitFor();
      const agentId = page.url().split('/').pop()!;

      await page.getByLabel('Description').fill('Answers questions about the handbook');
      await page.getByLabel('Tone').selectOption('formal');
      await page.getByRole('button', { name: 'Add command' }).click();
      await page.getByLabel('Command name').fill('Summarise');
      await page.getByLabel(/^Prompt/).fill('Summarise: {{ input }}');
      await page.getByRole('button', { name: 'Save agent' }).click();
      await page.getByRole('status').filter({ hasText: 'Agent saved.' }).waitFor();
      const saved = (await api.get(`/api/v1/agents/${agentId}`)).body.item;
      expect(saved.data).toMatchObject({
        description: 'Answers questions about the handbook',
        tone: 'formal',
        commands: [{ name: 'Summarise', prompt: 'Summarise: {{ input }}', mode: 'default' }],
      });

      await page.getByLabel('Input', { exact: true }).fill('the **weekly** meeting <img src=x onerror=alert(1)>');
      await page.getByRole('button', { name: 'Run' }).click();
      const answer = page.locator('.markdown').first();
      await answer.locator('strong', { hasText: 'weekly' }).waitFor();
      expect(await answer.locator('img').count()).toBe(0);
      expect((await api.get(`/api/v1/agents/${agentId}/convos`)).body.items).toHaveLength(1);

      await page.getByLabel('Project to attach').selectOption({ label: 'Handbook' });
      await page.getByRole('button', { name: 'Attach project' }).click();
      await page.getByRole('button', { name: 'Detach Handbook' }).waitFor();
      expect((await api.get(`/api/v1/agents/${agentId}`)).body.item.knowledge.projects).toEqual([projectId]);

      await page.getByLabel('Anyone with the link can use this agent').check();
      const link = page.getByRole('link', { name: /\/public\// });
      await link.waitFor();
      await page.getByLabel('Theme').selectOption('dark');
      await waitFor(
        async () => (await api.get(`/api/v1/agents/${agentId}/public-agent`)).body.item?.preferences.theme === 'dark',
        'the dark theme saved',
      );
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${server.url}/agents`);
      await page.getByLabel('What should the agent do?').fill('A formal French assistant for invoices. It checks totals.');
      await page.getByRole('button', { name: 'Generate agent' }).click();
      await page.getByRole('heading', { name: 'A formal French assistant for invoices' }).waitFor();
      expect(await page.getByLabel('Language (e.g. en, fr, pt-BR)').inputValue()).toBe('fr');
      expect(await page.getByLabel('Command name').inputValue()).toBe('Ask');
    });
    await context.close();

    const viewerToken = addUser(server, 'vivi', { workspaceId: server.workspaceId, role: 'Viewer' });
    const viewer = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${viewerToken}` } });
    viewer.setDefaultTimeout(10000);
    const viewerPage = await viewer.newPage();
    await withScreenshot(viewerPage, 'agents-viewer', async () => {
      await viewerPage.goto(`${server.url}/agents`);
      await viewerPage.getByRole('link', { name: 'Support helper' }).click();
      await viewerPage.getByRole('heading', { name: 'Support helper' }).waitFor();
      await viewerPage.getByText('Summarise: the **weekly** meeting', { exact: false }).first().waitFor();
      expect(await viewerPage.getByRole('button', { name: /Save agent|Run|Create agent|Attach/ }).count()).toBe(0);
      expect(await viewerPage.getByLabel('Description').isDisabled()).toBe(true);
    });
    await viewer.close();
  });
});
