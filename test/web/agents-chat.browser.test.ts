import { client, startServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot, openPage } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/** An agent conversation as a chat, and deleting an agent, in a real Chromium against the real server (offline model provider). */
run('web app: agent chats', () => {
  const suite = serverAndBrowser(() => startServer());

  test('a command starts a chat, follow-up messages continue it (newest at the bottom); the agent is deleted after a confirmation', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Helper',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}' }] } },
      })
    ).body.item;
    const { context, page, errors } = await openPage(browser, server.token);
    await withScreenshot(page, 'agents-chat', async () => {
      await page.goto(`${server.url}/agents/${agent.id}`);
      await page.getByLabel('Input', { exact: true }).fill('Plan the offsite');
      await page.getByRole('button', { name: 'Run' }).click();
      const messages = page.getByRole('list', { name: 'Messages' });
      await messages.getByText('[offline] Plan the offsite').waitFor();

      const box = page.getByLabel('Message', { exact: true });
      await box.fill('Make it two days');
      await box.press('Enter');
      await messages.getByText('[offline] Make it two days').waitFor();
      await box.fill('And a budget');
      await page.getByRole('button', { name: 'Send' }).click();
      await messages.getByText('[offline] And a budget').waitFor();
      const shown = await messages.locator('li').allInnerTexts();
      expect(shown.map((t) => t.replace(/^(You|Agent):\s*/, '').trim())).toEqual([
        'Plan the offsite',
        '[offline] Plan the offsite',
        'Make it two days',
        '[offline] Make it two days',
        'And a budget',
        '[offline] And a budget',
      ]);
      const stored = (await api.get(`/api/v1/agents/${agent.id}/convos`)).body.items;
      expect(stored).toHaveLength(1);
      expect(stored[0].data.messages).toHaveLength(6);

      await page.getByRole('button', { name: 'Agent actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete agent' }).click();
      await page.getByRole('dialog', { name: 'Delete “Helper”?' }).getByRole('button', { name: 'Delete agent' }).click();
      await page.waitForURL(`${server.url}/agents`);
      await waitFor(async () => (await api.get(`/api/v1/agents/${agent.id}`)).status === 404, 'the agent deleted');
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
