import { addUser, call, client, runCli, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';

type Api = ReturnType<typeof client>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createAgent(api: Api, folderId: string, body: unknown): Promise<any> {
  const res = await api.post(`/api/v1/folders/${folderId}/agents`, body);
  expect(res.status).toBe(200);
  return res.body.item;
}

/** Expects a 400 VALIDATION_ERROR naming `field` and `reason`. */
function expect400(res: { status: number; body: any }, field: string, reason: string): void {
  expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { field, reason },
  });
}

describe('agents: create, list, get, update, delete', () => {
  let server: TestServer;
  let api: Api;
  let folder: string;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
    folder = server.workspaceId;
  });
  afterAll(() => server.close());

  test('create with only a name fills every AgentData default', async () => {
    const res = await api.post(`/api/v1/folders/${folder}/agents`, { name: 'Bare' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        name: 'Bare',
        space_id: folder,
        type: 'agent',
        data: {
          commands: [],
          description: '',
          tone: 'friendly',
          avatar: { type: 'emoji', data: { value: '🤖' } },
          knowledgeEnabled: true,
          language: 'en',
          inputPlaceholder: '',
          mcpServers: [],
        },
        knowledge: { projects: [], medias: [] },
        publicAccess: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
  });

  test('create with the spec body keeps every field and gives commands ids', async () => {
    const item = await createAgent(api, folder, {
      name: 'Writer',
      data: {
        type: 'custom',
        data: {
          commands: [
            { name: 'Summarise', prompt: 'Summarise: {{ input }}', mode: 'default' },
            { id: 'my-id_1', name: 'Extract', prompt: 'Extract fields', mode: 'json' },
          ],
          description: 'Writes things',
          tone: 'authoritative',
          avatar: { type: 'image', data: { value: 'https://example.com/a.png' } },
          knowledgeEnabled: false,
          language: 'pt-BR',
        },
      },
    });
    expect(item.type).toBe('custom');
    expect(item.data).toEqual({
      commands: [
        { id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), name: 'Summarise', prompt: 'Summarise: {{ input }}', mode: 'default' },
        { id: 'my-id_1', name: 'Extract', prompt: 'Extract fields', mode: 'json' },
      ],
      description: 'Writes things',
      tone: 'authoritative',
      avatar: { type: 'image', data: { value: 'https://example.com/a.png' } },
      knowledgeEnabled: false,
      language: 'pt-BR',
      inputPlaceholder: '',
      mcpServers: [],
    });
    const got = await api.get(`/api/v1/agents/${item.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ok: true, item });
  });

  test('a command mode defaults to default', async () => {
    const item = await createAgent(api, folder, {
      name: 'Modes',
      data: { type: 'agent', data: { commands: [{ name: 'A', prompt: 'p' }] } },
    });
    expect(item.data.commands[0].mode).toBe('default');
  });

  test('every validation limit of the create body', async () => {
    const post = (body: unknown) => api.post(`/api/v1/folders/${folder}/agents`, body);
    const withData = (data: unknown) => post({ name: 'V', data: { type: 'agent', data } });
    const cmd = (over: Record<string, unknown> = {}) => ({ name: 'C', prompt: 'p', ...over });
    expect400(await post({}), 'name', 'required');
    expect400(await post({ name: '' }), 'name', 'too_short');
    expect400(await post({ name: 'x'.repeat(201) }), 'name', 'too_long');
    expect((await post({ name: 'x'.repeat(200) })).status).toBe(200);
    expect400(await post({ name: 'a\nb' }), 'name', 'contains_line_break');
    expect400(await post({ name: 'a\rb' }), 'name', 'contains_line_break');
    expect400(await post({ name: { x: 1 } }), 'name', 'invalid_type');
    expect400(await post({ name: 'V', data: { type: 'x'.repeat(51) } }), 'data.type', 'too_long');
    expect400(await post({ name: 'V', data: { type: '' } }), 'data.type', 'too_short');
    expect400(await withData({ description: 'x'.repeat(2001) }), 'data.data.description', 'too_long');
    expect((await withData({ description: 'x'.repeat(2000) })).status).toBe(200);
    expect400(await withData({ tone: 'grumpy' }), 'data.data.tone', 'invalid_value');
    expect400(await withData({ knowledgeEnabled: 'maybe' }), 'data.data.knowledgeEnabled', 'invalid_type');
    expect400(await withData({ language: 'english!' }), 'data.data.language', 'invalid_format');
    expect400(await withData({ language: 'a'.repeat(36) }), 'data.data.language', 'too_long');
    expect400(await withData({ avatar: { type: 'gif', data: { value: 'x' } } }), 'data.data.avatar.type', 'invalid_value');
    expect400(await withData({ avatar: { type: 'emoji' } }), 'data.data.avatar.data', 'required');
    expect400(await withData({ avatar: { type: 'emoji', data: { value: 'x'.repeat(33) } } }), 'data.data.avatar.data.value', 'too_long');
    expect400(
      await withData({ avatar: { type: 'image', data: { value: 'ftp://example.com/a.png' } } }),
      'data.data.avatar.data.value',
      'invalid_format',
    );
    expect400(await withData({ avatar: { type: 'image', data: { value: 'not a url' } } }), 'data.data.avatar.data.value', 'invalid_format');
    expect400(await withData({ commands: Array.from({ length: 51 }, (_, i) => cmd({ name: `c${i}` })) }), 'data.data.commands', 'too_many');
    expect((await withData({ commands: Array.from({ length: 50 }, (_, i) => cmd({ name: `c${i}` })) })).status).toBe(200);
    expect400(await withData({ commands: [{ prompt: 'p' }] }), 'data.data.commands[0].name', 'required');
    expect400(await withData({ commands: [cmd({ name: 'x'.repeat(101) })] }), 'data.data.commands[0].name', 'too_long');
    expect400(await withData({ commands: [cmd({ name: 'a\nb' })] }), 'data.data.commands[0].name', 'contains_line_break');
    expect400(await withData({ commands: [cmd({ prompt: '' })] }), 'data.data.commands[0].prompt', 'too_short');
    expect400(await withData({ commands: [cmd({ prompt: 'x'.repeat(20001) })] }), 'data.data.commands[0].prompt', 'too_long');
    expect((await withData({ commands: [cmd({ prompt: 'x'.repeat(20000) })] })).status).toBe(200);
    expect400(await withData({ commands: [cmd({ mode: 'stream' })] }), 'data.data.commands[0].mode', 'invalid_value');
    expect((await withData({ commands: [cmd({ id: 'has space' })] })).status).toBe(200);
    expect400(await withData({ commands: [cmd({ id: '' })] }), 'data.data.commands[0].id', 'too_short');
    expect400(await withData({ commands: [cmd({ id: 'x'.repeat(201) })] }), 'data.data.commands[0].id', 'too_long');
    expect400(await withData({ commands: [cmd(), cmd({ name: ' c ' })] }), 'data.data.commands[1].name', 'duplicate');
    expect400(await withData({ commands: [cmd({ id: 'a' }), cmd({ id: 'a', name: 'D' })] }), 'data.data.commands[1].id', 'duplicate');
  });

  test('an unknown folder is 404', async () => {
    const res = await api.post('/api/v1/folders/nope/agents', { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await api.get('/api/v1/agents/nope')).status).toBe(404);
  });

  test('PATCH merges data key by key, replaces commands (keeping sent ids) and the name', async () => {
    const agent = await createAgent(api, folder, {
      name: 'Merge',
      data: {
        type: 'agent',
        data: {
          description: 'before',
          tone: 'friendly',
          language: 'fr',
          commands: [
            { id: 'keep', name: 'Keep', prompt: 'k' },
            { id: 'drop', name: 'Drop', prompt: 'd' },
          ],
        },
      },
    });
    const res = await api.patch(`/api/v1/agents/${agent.id}`, {
      data: {
        tone: 'formal',
        commands: [
          { id: 'keep', name: 'Keep renamed', prompt: 'k2' },
          { name: 'New', prompt: 'n', mode: 'json' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const item = res.body.item;
    expect(item.name).toBe('Merge');
    expect(item.data).toEqual({
      ...agent.data,
      tone: 'formal',
      commands: [
        { id: 'keep', name: 'Keep renamed', prompt: 'k2', mode: 'default' },
        { id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), name: 'New', prompt: 'n', mode: 'json' },
      ],
    });
    expect(item.data.description).toBe('before');
    expect(item.data.language).toBe('fr');
    expect(Date.parse(item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(agent.updatedAt));
    const renamed = await api.patch(`/api/v1/agents/${agent.id}`, { name: 'Merged' });
    expect(renamed.body.item).toEqual({ ...item, name: 'Merged', updatedAt: expect.stringMatching(ISO) });
    const unchanged = await api.patch(`/api/v1/agents/${agent.id}`, {});
    expect(unchanged.body.item).toEqual(renamed.body.item);
    const cleared = await api.patch(`/api/v1/agents/${agent.id}`, { data: { commands: [] } });
    expect(cleared.body.item.data.commands).toEqual([]);
  });

  test('PATCH validates like create, with paths relative to its body', async () => {
    const agent = await createAgent(api, folder, { name: 'P' });
    const patch = (body: unknown) => api.patch(`/api/v1/agents/${agent.id}`, body);
    expect400(await patch({ name: '' }), 'name', 'too_short');
    expect400(await patch({ name: 'x'.repeat(201) }), 'name', 'too_long');
    expect400(await patch({ name: 'a\nb' }), 'name', 'contains_line_break');
    expect400(await patch({ data: { tone: 'loud' } }), 'data.tone', 'invalid_value');
    expect400(
      await patch({
        data: {
          commands: [
            { name: 'A', prompt: 'p' },
            { name: 'a', prompt: 'q' },
          ],
        },
      }),
      'data.commands[1].name',
      'duplicate',
    );
    expect400(await patch({ data: { avatar: { type: 'image', data: { value: 'nope' } } } }), 'data.avatar.data.value', 'invalid_format');
    expect((await api.get(`/api/v1/agents/${agent.id}`)).body.item).toEqual(agent);
    expect((await api.patch('/api/v1/agents/nope', { name: 'x' })).status).toBe(404);
  });

  test('list: newest first, limit/page defaults 20/1, maximum 500', async () => {
    const sub = await api.post(`/api/v1/workspaces/${server.workspaceId}/folders`, { name: 'Agents list' });
    const listFolder = sub.body.item.id;
    const names: string[] = [];
    for (let i = 0; i < 23; i++) {
      names.push(`A${i}`);
      await createAgent(api, listFolder, { name: `A${i}` });
    }
    const newest = [...names].reverse();
    const first = await api.get(`/api/v1/folders/${listFolder}/agents`);
    expect(first.status).toBe(200);
    expect(first.body.ok).toBe(true);
    expect(first.body.items.map((a: any) => a.name)).toEqual(newest.slice(0, 20));
    expect(first.body.items[0]).toMatchObject({ space_id: listFolder, data: { tone: 'friendly' } });
    const second = await api.get(`/api/v1/folders/${listFolder}/agents?page=2`);
    expect(second.body.items.map((a: any) => a.name)).toEqual(newest.slice(20));
    const small = await api.get(`/api/v1/folders/${listFolder}/agents?limit=5&page=3`);
    expect(small.body.items.map((a: any) => a.name)).toEqual(newest.slice(10, 15));
    expect((await api.get(`/api/v1/folders/${listFolder}/agents?limit=500`)).body.items).toHaveLength(23);
    expect((await api.get(`/api/v1/folders/${listFolder}/agents?page=9`)).body.items).toEqual([]);
    expect400(await api.get(`/api/v1/folders/${listFolder}/agents?limit=501`), 'limit', 'too_large');
    expect400(await api.get(`/api/v1/folders/${listFolder}/agents?limit=0`), 'limit', 'too_small');
    expect400(await api.get(`/api/v1/folders/${listFolder}/agents?page=0`), 'page', 'too_small');
    expect400(await api.get(`/api/v1/folders/${listFolder}/agents?limit=abc`), 'limit', 'invalid_type');
    expect((await api.get('/api/v1/folders/nope/agents')).status).toBe(404);
  });

  test('delete removes the agent with its conversations and public page', async () => {
    const agent = await createAgent(api, folder, {
      name: 'Doomed',
      data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } },
    });
    expect((await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' })).status).toBe(200);
    const pub = await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    const res = await api.delete(`/api/v1/agents/${agent.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await api.get(`/api/v1/agents/${agent.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/agents/${agent.id}`)).status).toBe(404);
    expect(await dbOf(server).get('SELECT COUNT(*) AS n FROM conversations WHERE agent_id = ?', agent.id)).toEqual({ n: 0 });
    expect((await call(pub.body.publicUrl, 'GET', '')).status).toBe(404);
  });

  test('agents of a workspace the caller is not in are 404, never 403', async () => {
    const agent = await createAgent(api, folder, { name: 'Private' });
    const outsider = client(server, addUser(server, 'agent-outsider'));
    expect((await outsider.get(`/api/v1/agents/${agent.id}`)).status).toBe(404);
    expect((await outsider.patch(`/api/v1/agents/${agent.id}`, { name: 'x' })).status).toBe(404);
    expect((await outsider.delete(`/api/v1/agents/${agent.id}`)).status).toBe(404);
    expect((await outsider.get(`/api/v1/folders/${folder}/agents`)).status).toBe(404);
    expect((await outsider.post(`/api/v1/folders/${folder}/agents`, { name: 'x' })).status).toBe(404);
  });

  test('the OpenAPI document lists the agent routes', async () => {
    const res = await call(server.url, 'GET', '/openapi.json');
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/v1/folders/{folderId}/agents',
      '/api/v1/folders/{folderId}/agent-generate',
      '/api/v1/agents/{agentId}',
      '/api/v1/agents/{agentId}/publicAccess',
      '/api/v1/agents/{agentId}/public-agent',
      '/api/v1/agents/{agentId}/knowledge/project',
      '/api/v1/agents/{agentId}/knowledge/media/{mediaId}',
      '/api/v1/agents/{agentId}/convos',
      '/api/v1/agents/{agentId}/convos/{convoId}',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('agent generation with the offline provider', () => {
  let server: TestServer;
  let api: Api;
  beforeAll(async () => {
    server = await startServer();
    api = client(server, OWNER_TOKEN);
  });
  afterAll(() => server.close());

  test('the generated agent is derived exactly from the text', async () => {
    const text = 'A friendly helper that answers customer questions in French.\nIt is also formal   when needed.';
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text });
    expect(res.status).toBe(200);
    const description = 'A friendly helper that answers customer questions in French. It is also formal when needed.';
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.any(String),
        name: 'A friendly helper that answers customer questions in French',
        space_id: server.workspaceId,
        type: 'agent',
        data: {
          commands: [
            { id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), name: 'Ask', prompt: `${description}\n\n{{ input }}`, mode: 'default' },
          ],
          description,
          tone: 'friendly',
          avatar: { type: 'emoji', data: { value: '🤖' } },
          knowledgeEnabled: true,
          language: 'fr',
          inputPlaceholder: '',
          mcpServers: [],
        },
        knowledge: { projects: [], medias: [] },
        publicAccess: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    expect((await api.get(`/api/v1/agents/${res.body.item.id}`)).body.item).toEqual(res.body.item);
  });

  test('defaults when the text names no tone or language; long first sentences are cut at a word', async () => {
    const text = 'summarise the weekly status reports of every team into a short digest for management';
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text });
    expect(res.body.item.name).toBe('Summarise the weekly status reports of every team into a');
    expect(res.body.item.data).toMatchObject({ tone: 'friendly', language: 'en', description: text });
  });

  test('text limits: required, 1..4000 characters, not only whitespace', async () => {
    const gen = (body: unknown) => api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, body);
    expect400(await gen({}), 'text', 'required');
    expect400(await gen({ text: '' }), 'text', 'too_short');
    expect400(await gen({ text: '   \n ' }), 'text', 'too_short');
    expect400(await gen({ text: 'x'.repeat(4001) }), 'text', 'too_long');
    expect((await gen({ text: 'x'.repeat(4000) })).status).toBe(200);
    expect((await api.post('/api/v1/folders/nope/agent-generate', { text: 'hi' })).status).toBe(404);
  });
});

describe('public agents', () => {
  const PUBLIC = 'https://tasks.example.com/base';
  let server: TestServer;
  let api: Api;
  let agent: any;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_PUBLIC_URL: `${PUBLIC}/` } });
    api = client(server, OWNER_TOKEN);
    agent = await createAgent(api, server.workspaceId, {
      name: 'Helper <b>',
      data: {
        type: 'agent',
        data: { description: 'Helps & more', commands: [{ name: 'Secret', prompt: 'the secret prompt' }] },
      },
    });
  });
  afterAll(() => server.close());

  /** The public page path of a public URL (the configured base is not where the test server listens). */
  const pagePath = (publicUrl: string) => publicUrl.slice(PUBLIC.length);

  test('public-agent is 404 until public access is enabled; PATCH too', async () => {
    const res = await api.get(`/api/v1/agents/${agent.id}/public-agent`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('public access is not enabled');
    expect((await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { theme: 'dark' } })).status).toBe(404);
  });

  test('PUT publicAccess is idempotent and returns an absolute URL on TASKSPACE_PUBLIC_URL', async () => {
    const first = await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ok: true,
      publicUrl: expect.stringMatching(/^https:\/\/tasks\.example\.com\/base\/public\/agents\/[A-Za-z0-9_-]{22}$/),
    });
    const again = await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    expect(again.body).toEqual(first.body);
    const got = await api.get(`/api/v1/agents/${agent.id}/public-agent`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      ok: true,
      item: {
        id: first.body.publicUrl.split('/').pop(),
        name: 'Helper <b>',
        data: { avatar: { type: 'emoji', data: { value: '🤖' } } },
        space_agent_id: agent.id,
        preferences: { mode: 'template', canCopyKnowledge: false, hideBranding: false, theme: 'light', autoEndChats: false },
      },
      publicUrl: first.body.publicUrl,
    });
  });

  test('PATCH public-agent merges preferences and validates them', async () => {
    await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    const res = await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { theme: 'dark', hideBranding: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      item: {
        id: expect.any(String),
        name: 'Helper <b>',
        data: { avatar: { type: 'emoji', data: { value: '🤖' } } },
        space_agent_id: agent.id,
        preferences: { mode: 'template', canCopyKnowledge: false, hideBranding: true, theme: 'dark', autoEndChats: false },
      },
    });
    const next = await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { mode: 'chat' } });
    expect(next.body.item.preferences).toEqual({
      mode: 'chatbot',
      canCopyKnowledge: false,
      hideBranding: true,
      theme: 'dark',
      autoEndChats: false,
    });
    const patch = (body: unknown) => api.patch(`/api/v1/agents/${agent.id}/public-agent`, body);
    expect400(await patch({}), 'preferences', 'required');
    expect400(await patch({ preferences: { mode: 'kiosk' } }), 'preferences.mode', 'invalid_value');
    expect400(await patch({ preferences: { theme: 'blue' } }), 'preferences.theme', 'invalid_value');
    expect400(await patch({ preferences: { canCopyKnowledge: 'sure' } }), 'preferences.canCopyKnowledge', 'invalid_type');
    expect400(await patch({ preferences: { hideBranding: 'nah' } }), 'preferences.hideBranding', 'invalid_type');
    await api.patch(`/api/v1/agents/${agent.id}/public-agent`, { preferences: { mode: 'template', hideBranding: false, theme: 'light' } });
  });

  test('the public page needs no token: HTML (escaped) for browsers, JSON on request; prompts only in template mode', async () => {
    const { publicUrl } = (await api.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const html = await call(server.url, 'GET', pagePath(publicUrl), { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<h1>Helper &lt;b&gt;</h1>');
    expect(html.body).toContain('Helps &amp; more');
    expect(html.body).toContain('the secret prompt');
    expect(html.body).toContain('Made with Taskspace');
    expect(html.headers['x-ratelimit-limit']).toBe('1000');
    const json = await call(server.url, 'GET', pagePath(publicUrl), { headers: { accept: 'application/json' } });
    expect(json.body).toEqual({
      ok: true,
      item: {
        id: publicUrl.split('/').pop(),
        name: 'Helper <b>',
        data: { avatar: { type: 'emoji', data: { value: '🤖' } } },
        description: 'Helps & more',
        tone: 'friendly',
        language: 'en',
        avatar: { type: 'emoji', data: { value: '🤖' } },
        commands: [{ name: 'Secret', mode: 'default', prompt: 'the secret prompt' }],
        preferences: { mode: 'template', canCopyKnowledge: false, hideBranding: false, theme: 'light', autoEndChats: false },
      },
      publicUrl,
    });
    await api.patch(`/api/v1/agents/${agent.id}/public-agent`, {
      preferences: { mode: 'chat', hideBranding: true, canCopyKnowledge: true },
    });
    const chat = await call(server.url, 'GET', pagePath(publicUrl), { headers: { accept: 'application/json' } });
    expect(chat.body.item.commands).toEqual([{ name: 'Secret', mode: 'default' }]);
    expect(chat.body.item.knowledge).toEqual({ projects: [], medias: [] });
    const chatHtml = await call(server.url, 'GET', pagePath(publicUrl));
    expect(chatHtml.body).not.toContain('the secret prompt');
    expect(chatHtml.body).not.toContain('Made with Taskspace');
    expect((await call(server.url, 'GET', '/public/agents/unknown')).status).toBe(404);
  });

  test('DELETE publicAccess turns the page off (idempotent); enabling again issues a new URL', async () => {
    const { publicUrl } = (await api.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const off = await api.delete(`/api/v1/agents/${agent.id}/publicAccess`);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ok: true });
    expect((await api.delete(`/api/v1/agents/${agent.id}/publicAccess`)).body).toEqual({ ok: true });
    expect((await call(server.url, 'GET', pagePath(publicUrl))).status).toBe(404);
    expect((await api.get(`/api/v1/agents/${agent.id}/public-agent`)).status).toBe(404);
    const again = await api.put(`/api/v1/agents/${agent.id}/publicAccess`);
    expect(again.body.publicUrl).not.toBe(publicUrl);
    expect((await api.get(`/api/v1/agents/${agent.id}/public-agent`)).body.item.preferences.mode).toBe('template');
  });

  test('the agent item says whether public access is on (publicAccess), so clients need not ask public-agent for a 404', async () => {
    const other = await createAgent(api, server.workspaceId, { name: 'Private helper' });
    const shown = async (id: string) => ({
      item: (await api.get(`/api/v1/agents/${id}`)).body.item.publicAccess,
      listed: (await api.get(`/api/v1/folders/${server.workspaceId}/agents`)).body.items.find((a: { id: string }) => a.id === id)
        .publicAccess,
    });
    expect(other.publicAccess).toBe(false);
    expect(await shown(other.id)).toEqual({ item: false, listed: false });
    await api.put(`/api/v1/agents/${other.id}/publicAccess`);
    expect(await shown(other.id)).toEqual({ item: true, listed: true });
    expect((await api.patch(`/api/v1/agents/${other.id}`, { name: 'Public helper' })).body.item.publicAccess).toBe(true);
    await api.delete(`/api/v1/agents/${other.id}/publicAccess`);
    expect(await shown(other.id)).toEqual({ item: false, listed: false });
    // Read-only: a PATCH cannot set it.
    const set = await api.patch(`/api/v1/agents/${other.id}`, { publicAccess: true });
    expect(set.status).toBe(400);
    expect(set.body.error.details).toMatchObject({ field: 'publicAccess', reason: 'unknown_field' });
  });

  test('public access of an unknown agent is 404', async () => {
    expect((await api.put('/api/v1/agents/nope/publicAccess')).status).toBe(404);
    expect((await api.get('/api/v1/agents/nope/public-agent')).status).toBe(404);
    expect((await api.delete('/api/v1/agents/nope/publicAccess')).status).toBe(404);
  });
});

describe('agents persist across a restart', () => {
  test('agents, public access and conversations survive a restart on the same data directory', async () => {
    const first = await startServer();
    const api1 = client(first, OWNER_TOKEN);
    const agent = await createAgent(api1, first.workspaceId, {
      name: 'Durable',
      data: { type: 'agent', data: { tone: 'casual', commands: [{ name: 'Echo', prompt: '{{ input }}' }] } },
    });
    const { publicUrl } = (await api1.put(`/api/v1/agents/${agent.id}/publicAccess`)).body;
    const convo = (await api1.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Echo', input: 'hello' })).body.item;
    const otherWs = /created workspace (\S+)/.exec(runCli(first.dataDir, 'workspace', 'create', 'Second', '--owner', 'owner').out)![1]!;
    await first.close();

    const second = await startServer({ dataDir: first.dataDir });
    try {
      const api2 = client(second, OWNER_TOKEN);
      expect((await api2.get(`/api/v1/agents/${agent.id}`)).body.item).toEqual({ ...agent, publicAccess: true });
      const pub = (await api2.get(`/api/v1/agents/${agent.id}/public-agent`)).body;
      expect(pub.publicUrl.split('/').pop()).toBe(publicUrl.split('/').pop());
      expect((await api2.get(`/api/v1/agents/${agent.id}/convos/${convo.id}`)).body.item).toEqual(convo);
      expect((await api2.get(`/api/v1/folders/${otherWs}/agents`)).body.items).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
