import { addUser, client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

type Api = ReturnType<typeof client>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expect400(res: { status: number; body: any }, field: string, reason: string): void {
  expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { field, reason },
  });
}

describe('running agent commands and reading conversations (offline provider)', () => {
  let server: TestServer;
  let api: Api;
  let agent: any;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Scribe',
      data: {
        type: 'agent',
        data: {
          description: 'Writes notes',
          tone: 'formal',
          language: 'de',
          commands: [
            {
              id: 'sum',
              name: 'Summarise',
              prompt: 'Summarise for {{agent.name}} ({{ agent.tone }}, {{ agent.language }}): {{ input }} {{ unknown }}',
            },
            { id: 'plain', name: 'Plain', prompt: 'Say hello.' },
            { id: 'js', name: 'Extract', prompt: 'Extract: {{ input }}', mode: 'json' },
          ],
        },
      },
    });
    agent = res.body.item;
  });
  afterAll(() => server.close());

  const run = (body: unknown, id = agent.id) => api.post(`/api/v1/agents/${id}/convos`, body);

  test('running by id renders the prompt, answers and records a completed conversation', async () => {
    const res = await run({ command: 'sum', input: 'the {{ input }} meeting' });
    expect(res.status).toBe(200);
    const prompt = 'Summarise for Scribe (formal, de): the {{ input }} meeting {{ unknown }}';
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        space_agent_id: agent.id,
        title: 'Summarise: the {{ input }} meeting',
        status: 'idle',
        data: {
          llm: { type: 'openai', name: 'gpt-4o-mini', model: 'taskspace-offline-1' },
          messages: [
            { role: 'user', content: prompt },
            { role: 'assistant', content: `[offline] ${prompt}` },
          ],
        },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const got = await api.get(`/api/v1/agents/${agent.id}/convos/${res.body.item.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('running by name is case-insensitive; input without a placeholder is appended; input is optional', async () => {
    const appended = await run({ command: 'plain', input: 'Be brief.' });
    expect(appended.body.item.data.messages[0].content).toBe('Say hello.\n\nBe brief.');
    const byName = await run({ command: ' PLAIN ' });
    expect(byName.status).toBe(200);
    expect(byName.body.item.title).toBe('Plain');
    expect(byName.body.item.data.messages).toEqual([
      { role: 'user', content: 'Say hello.' },
      { role: 'assistant', content: '[offline] Say hello.' },
    ]);
    const empty = await run({ command: 'Plain', input: '' });
    expect(empty.body.item.data.messages[0].content).toBe('Say hello.');
  });

  test('a json-mode command gets a JSON answer', async () => {
    const res = await run({ command: 'Extract', input: 'x' });
    expect(JSON.parse(res.body.item.data.messages[1].content)).toEqual({ answer: '[offline] Extract: x' });
  });

  test('long inputs make a title of at most 120 characters on one line', async () => {
    const res = await run({ command: 'plain', input: `line one\n${'word '.repeat(50)}` });
    expect(res.body.item.title).toHaveLength(120);
    expect(res.body.item.title.startsWith('Plain: line one word')).toBe(true);
    expect(res.body.item.title.endsWith('…')).toBe(true);
  });

  test('validation: command required and 1..200 characters, input at most 20000 characters', async () => {
    expect400(await run({}), 'command', 'required');
    expect400(await run({ command: '' }), 'command', 'too_short');
    expect400(await run({ command: 'x'.repeat(201) }), 'command', 'too_long');
    expect400(await run({ command: 'plain', input: 'x'.repeat(20001) }), 'input', 'too_long');
    expect400(await run({ command: 'plain', input: { a: 1 } }), 'input', 'invalid_type');
    expect((await run({ command: 'plain', input: 'x'.repeat(20000) })).status).toBe(200);
  });

  test('an unknown command or agent is 404 and records nothing', async () => {
    const db = dbOf(server);
    const before = await db.get('SELECT COUNT(*) AS n FROM conversations');
    const res = await run({ command: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: `agent '${agent.id}' has no command with id or name 'nope'` });
    expect((await run({ command: 'plain' }, 'missing')).status).toBe(404);
    expect(await db.get('SELECT COUNT(*) AS n FROM conversations')).toEqual(before);
  });

  test('list: newest first with limit (default 20, max 500) and page; the trailing-slash path works too', async () => {
    const created = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Lister',
      data: { type: 'agent', data: { commands: [{ name: 'N', prompt: 'n{{ input }}' }] } },
    });
    const id = created.body.item.id;
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push((await run({ command: 'N', input: String(i) }, id)).body.item.id);
    const newest = [...ids].reverse();
    const list = await api.get(`/api/v1/agents/${id}/convos`);
    expect(list.status).toBe(200);
    expect(list.body.ok).toBe(true);
    expect(list.body.items.map((c: any) => c.id)).toEqual(newest.slice(0, 20));
    expect(list.body.items[0]).toMatchObject({ space_agent_id: id, status: 'idle', title: 'N: 21' });
    const slash = await api.get(`/api/v1/agents/${id}/convos/?page=2`);
    expect(slash.status).toBe(200);
    expect(slash.body.items.map((c: any) => c.id)).toEqual(newest.slice(20));
    expect((await api.get(`/api/v1/agents/${id}/convos?limit=3&page=2`)).body.items.map((c: any) => c.id)).toEqual(newest.slice(3, 6));
    expect((await api.get(`/api/v1/agents/${id}/convos?limit=500`)).body.items).toHaveLength(22);
    expect400(await api.get(`/api/v1/agents/${id}/convos?limit=501`), 'limit', 'too_large');
    expect400(await api.get(`/api/v1/agents/${id}/convos?page=0`), 'page', 'too_small');
    const viaSlash = await api.post(`/api/v1/agents/${id}/convos/`, { command: 'N' });
    expect(viaSlash.status).toBe(200);
  });

  test('a conversation is only found under its own agent', async () => {
    const other = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'Other' });
    const convo = (await run({ command: 'plain' })).body.item;
    expect((await api.get(`/api/v1/agents/${other.body.item.id}/convos/${convo.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/agents/${agent.id}/convos/unknown`)).status).toBe(404);
    expect((await api.get('/api/v1/agents/unknown/convos')).status).toBe(404);
  });

  test('Participants run commands; Viewers read conversations but cannot run; outsiders get 404', async () => {
    const participant = client(server, addUser(server, 'convo-participant', { workspaceId: server.workspaceId, role: 'Participant' }));
    const viewer = client(server, addUser(server, 'convo-viewer', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const outsider = client(server, addUser(server, 'convo-outsider'));
    const ran = await participant.post(`/api/v1/agents/${agent.id}/convos`, { command: 'plain' });
    expect(ran.status).toBe(200);
    const denied = await viewer.post(`/api/v1/agents/${agent.id}/convos`, { command: 'plain' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await viewer.get(`/api/v1/agents/${agent.id}/convos`)).status).toBe(200);
    expect((await viewer.get(`/api/v1/agents/${agent.id}/convos/${ran.body.item.id}`)).status).toBe(200);
    expect((await outsider.post(`/api/v1/agents/${agent.id}/convos`, { command: 'plain' })).status).toBe(404);
    expect((await outsider.get(`/api/v1/agents/${agent.id}/convos`)).status).toBe(404);
    expect((await outsider.get(`/api/v1/agents/${agent.id}/convos/${ran.body.item.id}`)).status).toBe(404);
  });
});

describe('runAgentCommand, the domain function the automation engine calls', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('gives the same result as the API and applies the same rules', async () => {
    const { runAgentCommand } = await import('../../server/src/modules/conversations/service');
    const { actorForToken } = await import('../../server/src/auth/tokens');
    const api = client(server, OWNER_TOKEN);
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Engine',
        data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'Go {{ input }}' }] } },
      })
    ).body.item;
    const svc = server.built.services;
    const owner = (await svc.store.run(actorForToken(svc.store.sql, OWNER_TOKEN)))!;
    const convo = await runAgentCommand(svc, { ...owner, depth: 1 }, agent.id, { command: 'Go', input: 'now' });
    expect(convo.data.messages).toEqual([
      { role: 'user', content: 'Go now' },
      { role: 'assistant', content: '[offline] Go now' },
    ]);
    expect((await api.get(`/api/v1/agents/${agent.id}/convos/${convo.id}`)).body.item).toEqual(convo);
    const viewer = (await svc.store.run(
      actorForToken(svc.store.sql, addUser(server, 'engine-viewer', { workspaceId: server.workspaceId, role: 'Viewer' })),
    ))!;
    await expect(runAgentCommand(svc, viewer, agent.id, { command: 'Go' })).rejects.toMatchObject({ statusCode: 403 });
    await expect(runAgentCommand(svc, owner, agent.id, { command: 'Go', input: 'x'.repeat(20001) })).rejects.toMatchObject({
      statusCode: 400,
      details: { field: 'input', reason: 'too_long' },
    });
    await expect(runAgentCommand(svc, owner, agent.id, { command: '' })).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('conversations across a restart', () => {
  test('completed conversations survive; one left in_progress by a stopped process becomes failed', async () => {
    const first = await startServer();
    const api = client(first, OWNER_TOKEN);
    const agent = (
      await api.post(`/api/v1/folders/${first.workspaceId}/agents`, {
        name: 'Restart',
        data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } },
      })
    ).body.item;
    const done = (await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' })).body.item;
    const stuck = (await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' })).body.item;
    // As if the process had stopped while the model was answering.
    await dbOf(first).run("UPDATE conversations SET status = 'in_progress' WHERE id = ?", stuck.id);
    await first.close();
    const second = await startServer({ dataDir: first.dataDir });
    try {
      const api2 = client(second, OWNER_TOKEN);
      expect((await api2.get(`/api/v1/agents/${agent.id}/convos/${done.id}`)).body.item).toEqual(done);
      expect((await api2.get(`/api/v1/agents/${agent.id}/convos/${stuck.id}`)).body.item.status).toBe('requires_review');
    } finally {
      await second.close();
    }
  });
});
