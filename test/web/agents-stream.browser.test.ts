import { client, startServer } from '../helpers/server';
import { StreamingProvider, streamingProviderEnv } from '../helpers/streaming-provider';
import { waitFor } from '../helpers/wait';
import { browserAvailable, serverAndBrowser, withScreenshot, openPage } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * Streamed agent answers in a real Chromium against the real server, whose model provider is a
 * stand-in that streams: it holds the rest of an answer until the page shows the first part.
 */
run('web app: streamed agent answers', () => {
  const provider = new StreamingProvider();
  const suite = serverAndBrowser(async () => startServer({ env: streamingProviderEnv(await provider.start()) }));
  afterAll(() => provider.stop());

  test('the answer appears as it streams, the list is busy meanwhile, and Stop aborts the answer', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Streamer',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}' }] } },
      })
    ).body.item;
    const { context, page, errors } = await openPage(browser, server.token);
    await withScreenshot(page, 'agents-stream', async () => {
      await page.goto(`${server.url}/agents/${agent.id}`);
      const messages = page.getByRole('list', { name: 'Messages' });

      // A command run streams into its new conversation.
      await page.getByLabel('Input', { exact: true }).fill('Plan the offsite');
      await page.getByRole('button', { name: 'Run' }).click();
      const first = await provider.next();
      first.send('Day one: arrive. ');
      await messages.getByText('Day one: arrive.').waitFor();
      expect(await messages.getAttribute('aria-busy')).toBe('true');
      first.send('Day two: talks.');
      first.finish();
      await messages.getByText('Day one: arrive. Day two: talks.').waitFor();
      await waitFor(async () => (await messages.getAttribute('aria-busy')) === 'false', 'the list no longer busy');

      // A follow-up: the first part is on screen while the provider still holds the rest.
      const box = page.getByLabel('Message', { exact: true });
      await box.fill('Make it shorter');
      await box.press('Enter');
      const second = await provider.next();
      await messages.getByText('Make it shorter').waitFor();
      second.send('Two days, ');
      await messages.getByText('Two days,').waitFor();
      expect(await messages.getAttribute('aria-busy')).toBe('true');
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      second.send('one venue.');
      await messages.getByText('Two days, one venue.').waitFor();
      second.finish();
      await page.getByRole('button', { name: 'Send' }).waitFor();
      await waitFor(async () => (await messages.getAttribute('aria-busy')) === 'false', 'the list no longer busy');
      const shown = await messages.locator('li').allInnerTexts();
      expect(shown.map((t) => t.replace(/^(You|Agent):\s*/, '').trim())).toEqual([
        'Plan the offsite',
        'Day one: arrive. Day two: talks.',
        'Make it shorter',
        'Two days, one venue.',
      ]);
      const convoId = (await api.get(`/api/v1/agents/${agent.id}/convos`)).body.items[0].id;
      const stored = (await api.get(`/api/v1/agents/${agent.id}/convos/${convoId}`)).body.item;
      expect(stored.data.messages.map((m: { content: string }) => m.content)).toEqual(
        shown.map((t) => t.replace(/^(You|Agent):\s*/, '').trim()),
      );

      // Stop: the provider's request is closed and nothing of the answer is kept.
      await box.fill('And the budget?');
      await box.press('Enter');
      const third = await provider.next();
      third.send('About ');
      await messages.getByText('About').waitFor();
      await page.getByRole('button', { name: 'Stop' }).click();
      await waitFor(() => third.closed, 'the provider request closed after Stop');
      await page.getByText('You stopped the answer; send the message again for a new one.').waitFor();
      expect(await messages.getByText('About').count()).toBe(0);
      const after = (await api.get(`/api/v1/agents/${agent.id}/convos/${convoId}`)).body.item;
      expect(after.status).toBe('requires_review');
      expect(after.data.messages.at(-1)).toEqual({ role: 'user', content: 'And the budget?' });
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
