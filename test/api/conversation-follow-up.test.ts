import { addUser, client, startServer, type TestServer } from '../helpers/server';

/** Follow-up messages in an agent conversation (the offline provider echoes the last message), over real HTTP. */
describe('conversation follow-up messages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('a follow-up appends the message and the answer; unknown ids are 404, bad bodies 400, a Viewer 403', async () => {
    const api = client(server, server.token);
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Chatty',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}' }] } },
      })
    ).body.item;
    const started = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'ask', input: 'Hello' });
    expect(started.status).toBe(200);
    const convo = started.body.item;

    const res = await api.post(`/api/v1/agents/${agent.id}/convos/${convo.id}/messages`, { text: 'And then?' });
    expect(res.status).toBe(200);
    expect(res.body.item.status).toBe('idle');
    expect(res.body.item.data.messages.map((m: { role: string; content: string }) => `${m.role}: ${m.content}`)).toEqual([
      'user: Hello',
      'assistant: [offline] Hello',
      'user: And then?',
      'assistant: [offline] And then?',
    ]);
    expect((await api.get(`/api/v1/agents/${agent.id}/convos/${convo.id}`)).body.item.data.messages).toHaveLength(4);

    expect((await api.post(`/api/v1/agents/${agent.id}/convos/${convo.id}/messages`, { text: '' })).status).toBe(400);
    expect((await api.post(`/api/v1/agents/${agent.id}/convos/${convo.id}/messages`, { text: 'x', extra: 1 })).status).toBe(400);
    expect((await api.post(`/api/v1/agents/${agent.id}/convos/00000000-0000-4000-8000-000000000000/messages`, { text: 'x' })).status).toBe(
      404,
    );
    const viewer = client(server, addUser(server, 'chat-viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    expect((await viewer.post(`/api/v1/agents/${agent.id}/convos/${convo.id}/messages`, { text: 'x' })).status).toBe(403);
  });
});
