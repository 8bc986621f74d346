import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FormData, request } from 'undici';
import { client, startServer, OWNER_TOKEN, type TestServer } from '../helpers/server';

/** One request as the fake chat-completions service received it. */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: any;
}

/**
 * A loopback stand-in for an external OpenAI-compatible service: records each request and
 * answers with whatever `reply` says (status and body; `hang` never answers).
 */
class FakeChatService {
  readonly seen: Seen[] = [];
  reply: (seen: Seen) => { status: number; body: unknown } | 'hang' = () => ({ status: 200, body: chat('ok') });
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method!,
        url: req.url!,
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
      };
      this.seen.push(seen);
      const answer = this.reply(seen);
      if (answer === 'hang') return;
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A chat-completions answer with one choice. */
function chat(content: string, model = 'fake-model-2024'): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  };
}

function openaiEnv(baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { TASKSPACE_MODEL_PROVIDER: 'openai', TASKSPACE_MODEL_BASE_URL: baseUrl, TASKSPACE_MODEL_NAME: 'fake-model', ...extra };
}

describe('the openai provider against an OpenAI-compatible service', () => {
  const fake = new FakeChatService();
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    const base = await fake.start();
    server = await startServer({ env: openaiEnv(base, { TASKSPACE_MODEL_API_KEY: 'sk-test-key' }) });
    api = client(server, OWNER_TOKEN);
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.seen.length = 0;
  });

  test('generation posts chat-completions with the key, model, JSON response format and prompt, and keeps only valid values', async () => {
    const described = {
      name: 'Fox Translator',
      description: 'Translates things',
      tone: 'Friendly',
      language: 'es',
      avatar: '🦊',
      knowledgeEnabled: false,
      commands: [
        { name: 'Translate', prompt: 'Translate {{ input }}', mode: 'json' },
        { name: 'translate', prompt: 'a repeated name is dropped' },
        { name: '', prompt: 'a command without a name is dropped' },
        { name: 'Odd mode', prompt: 'p', mode: 'stream' },
      ],
    };
    fake.reply = () => ({ status: 200, body: chat('```json\n' + JSON.stringify(described) + '\n```') });
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'A translator' });
    expect(res.status).toBe(200);
    expect(fake.seen).toHaveLength(1);
    const seen = fake.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.authorization).toBe('Bearer sk-test-key');
    expect(seen.body.model).toBe('fake-model');
    expect(seen.body.response_format).toEqual({ type: 'json_object' });
    expect(seen.body.messages).toHaveLength(2);
    expect(seen.body.messages[0].role).toBe('system');
    expect(seen.body.messages[0].content).toContain('JSON object');
    expect(seen.body.messages[1]).toEqual({ role: 'user', content: 'A translator' });
    expect(res.body.item).toMatchObject({
      name: 'Fox Translator',
      type: 'agent',
      data: {
        description: 'Translates things',
        tone: 'friendly',
        language: 'es',
        avatar: { type: 'emoji', data: { value: '🦊' } },
        knowledgeEnabled: false,
        commands: [
          { name: 'Translate', prompt: 'Translate {{ input }}', mode: 'json' },
          { name: 'Odd mode', prompt: 'p', mode: 'default' },
        ],
      },
    });
  });

  test('a generation answer without a usable name falls back to the first sentence of the text', async () => {
    fake.reply = () => ({ status: 200, body: chat(JSON.stringify({ name: 42, tone: 'grumpy', language: 'not a tag!' })) });
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'Helps with taxes. Very patient.' });
    expect(res.body.item).toMatchObject({ name: 'Helps with taxes', data: { tone: 'friendly', language: 'en', commands: [] } });
  });

  test('a generation answer that is not a JSON object is 502 and creates nothing', async () => {
    const before = (await api.get(`/api/v1/folders/${server.workspaceId}/agents?limit=500`)).body.items.length;
    fake.reply = () => ({ status: 200, body: chat('Sure! Here is your agent.') });
    const res = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'UPSTREAM_ERROR', message: 'the model did not answer with a JSON object describing the agent' });
    expect((await api.get(`/api/v1/folders/${server.workspaceId}/agents?limit=500`)).body.items).toHaveLength(before);
  });

  test('a command sends the agent, its knowledge and the rendered prompt, and records the answer', async () => {
    const project = await api.post(`/api/v1/workspaces/${server.workspaceId}/projects`, {
      contentType: 'text/markdown',
      content: '# Handbook\n\n- Refunds within 30 days\n  - Except sale items\n- Shipping is free',
    });
    const form = new FormData();
    form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'faq.txt');
    const upload = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER_TOKEN}` },
      body: form,
    });
    const media = ((await upload.body.json()) as any).item.id;
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Support',
        data: {
          type: 'agent',
          data: {
            description: 'Answers customers.',
            tone: 'empathetic',
            language: 'es',
            commands: [{ id: 'ask', name: 'Ask', prompt: 'Question: {{ input }}' }],
          },
        },
      })
    ).body.item;
    await api.post(`/api/v1/agents/${agent.id}/knowledge/project`, { projectId: project.body.item.id });
    await api.post(`/api/v1/agents/${agent.id}/knowledge/media`, { mediaId: media });
    fake.reply = () => ({ status: 200, body: chat('Hola') });

    const res = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'ask', input: 'Can I return it?' });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({
      status: 'idle',
      title: 'Ask: Can I return it?',
      data: {
        llm: { type: 'openai', name: 'gpt-4o-mini', model: 'fake-model-2024' },
        messages: [
          { role: 'user', content: 'Question: Can I return it?' },
          { role: 'assistant', content: 'Hola' },
        ],
      },
    });
    const sent = fake.seen[0]!.body;
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'Question: Can I return it?' });
    const system: string = sent.messages[0].content;
    expect(system).toContain(
      'You are "Support", an AI agent.\nAnswers customers.\nTone: empathetic. Answer in the language with BCP 47 tag "es".',
    );
    expect(system).toContain('## Project: Handbook\n- Refunds within 30 days\n  - Except sale items\n- Shipping is free');
    expect(system).toContain('## File: faq.txt (text, text/plain, 11 bytes)\nhello world');

    await api.patch(`/api/v1/agents/${agent.id}`, {
      data: { knowledgeEnabled: false, commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}', mode: 'json' }] },
    });
    fake.seen.length = 0;
    await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'ask', input: 'again' });
    expect(fake.seen[0]!.body.messages[0].content).not.toContain('Handbook');
    expect(fake.seen[0]!.body.messages[0].content).toContain('Answer with one JSON object');
    expect(fake.seen[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  test("llm.name is the document's model name nearest to the model that answered; llm.model is that model", async () => {
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Mapped',
        data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } },
      })
    ).body.item;
    const cases: [string, string, string][] = [
      ['gpt-4o-mini-2024-07-18', 'openai', 'gpt-4o-mini'],
      ['gpt-4o-2024-08-06', 'openai', 'gpt-4o'],
      ['chatgpt-4o-latest', 'openai', 'gpt-4o'],
      ['gpt-4.1', 'openai', 'gpt-4o'],
      ['gpt-4.1-nano', 'openai', 'gpt-4o-mini'],
      ['gpt-4-turbo-2024-04-09', 'openai', 'gpt-4-turbo'],
      ['gpt-4-0613', 'openai', 'gpt-4-turbo'],
      ['gpt-3.5-turbo-0125', 'openai', 'gpt-3.5-turbo'],
      ['o3-mini', 'openai', 'o3-mini:medium'],
      ['o3-mini-high', 'openai', 'o3-mini:high'],
      ['o1', 'openai', 'o3-mini:medium'],
      ['o4-mini-2025-04-16', 'openai', 'o3-mini:medium'],
      ['claude-3-5-sonnet-20241022', 'anthropic', 'anthropic/claude-3.5-sonnet'],
      ['claude-3-5-haiku-latest', 'anthropic', 'anthropic/claude-3.5-haiku'],
      ['claude-3-7-sonnet-latest', 'anthropic', 'anthropic/claude-3.7-sonnet'],
      ['claude-sonnet-4-20250514', 'anthropic', 'anthropic/claude-3.7-sonnet'],
      ['llama3.1:8b', 'openai', 'gpt-4o-mini'],
    ];
    for (const [model, type, name] of cases) {
      fake.reply = () => ({ status: 200, body: chat('ok', model) });
      const res = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' });
      expect([model, res.body.item.data.llm]).toEqual([model, { type, name, model }]);
    }
  });

  test('an upstream 500 is a 502 UPSTREAM_ERROR and the conversation is recorded as failed', async () => {
    const agent = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Fragile',
        data: { type: 'agent', data: { commands: [{ name: 'Go', prompt: 'go' }] } },
      })
    ).body.item;
    fake.reply = () => ({ status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    const res = await api.post(`/api/v1/agents/${agent.id}/convos`, { command: 'Go' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      ok: false,
      code: 'UPSTREAM_ERROR',
      message: 'the model provider answered HTTP 500: boom',
      statusMessage: 'Bad Gateway',
      error: { code: 'UPSTREAM_ERROR', message: 'the model provider answered HTTP 500: boom' },
    });
    const list = (await api.get(`/api/v1/agents/${agent.id}/convos`)).body.items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      status: 'requires_review',
      data: { llm: { type: 'openai', name: 'gpt-4o-mini', model: 'fake-model' }, messages: [{ role: 'user', content: 'go' }] },
    });
    const gen = await api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'x' });
    expect(gen.status).toBe(502);
    expect(gen.body.error.message).toBe('the model provider answered HTTP 500: boom');
  });

  test('other upstream failures are 502 with a message saying what went wrong', async () => {
    const gen = () => api.post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'x' });
    fake.reply = () => ({ status: 429, body: 'slow down' });
    expect((await gen()).body.error).toEqual({ code: 'UPSTREAM_ERROR', message: 'the model provider answered HTTP 429: slow down' });
    fake.reply = () => ({ status: 200, body: '<html>not json</html>' });
    expect((await gen()).body.error.message).toBe('the model provider answered with a body that is not JSON');
    fake.reply = () => ({ status: 200, body: { choices: [] } });
    expect((await gen()).body.error.message).toBe('the model provider answered without choices[0].message.content');
  });
});

describe('openai provider timeouts, missing keys and unreachable services', () => {
  const fake = new FakeChatService();
  let server: TestServer;
  beforeAll(async () => {
    const base = await fake.start();
    server = await startServer({ env: openaiEnv(base, { TASKSPACE_MODEL_TIMEOUT_MS: '300' }) });
  });
  afterAll(async () => {
    await server.close();
    await fake.stop();
  });

  test('no answer within TASKSPACE_MODEL_TIMEOUT_MS is a 502', async () => {
    fake.reply = () => 'hang';
    const res = await client(server, OWNER_TOKEN).post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'UPSTREAM_ERROR', message: 'the model provider did not answer within 300 ms' });
  });

  test('without TASKSPACE_MODEL_API_KEY no Authorization header is sent', async () => {
    fake.seen.length = 0;
    fake.reply = () => ({ status: 200, body: chat('{"name":"Keyless"}') });
    const res = await client(server, OWNER_TOKEN).post(`/api/v1/folders/${server.workspaceId}/agent-generate`, { text: 'x' });
    expect(res.body.item.name).toBe('Keyless');
    expect(fake.seen[0]!.authorization).toBeUndefined();
  });

  test('an unreachable service is a 502 naming the origin only, never the key or credentials in the base URL', async () => {
    const dead = new FakeChatService();
    const base = await dead.start();
    await dead.stop();
    const withCredentials = base.replace('http://', 'http://user:pa55word@') + '/tok3n-path';
    const other = await startServer({ env: openaiEnv(withCredentials, { TASKSPACE_MODEL_API_KEY: 'sk-secret' }) });
    try {
      const res = await client(other, OWNER_TOKEN).post(`/api/v1/folders/${other.workspaceId}/agent-generate`, { text: 'x' });
      expect(res.status).toBe(502);
      expect(res.body.error).toEqual({
        code: 'UPSTREAM_ERROR',
        message: `the model provider at ${new URL(base).origin} could not be reached (ECONNREFUSED)`,
      });
      for (const secret of ['sk-secret', 'pa55word', 'tok3n-path']) expect(JSON.stringify(res.body)).not.toContain(secret);
    } finally {
      await other.close();
    }
  });
});

describe('provider selection', () => {
  test('TASKSPACE_MODEL_PROVIDER picks the provider; offline is the default', async () => {
    const { createModelProvider } = await import('../../server/src/models');
    const { loadConfig } = await import('../../server/src/config');
    expect(createModelProvider(loadConfig({})).type).toBe('offline');
    const openai = createModelProvider(loadConfig({ TASKSPACE_MODEL_PROVIDER: 'OpenAI', TASKSPACE_MODEL_NAME: 'm1' }));
    expect({ type: openai.type, model: openai.model }).toEqual({ type: 'openai', model: 'm1' });
    expect(() => loadConfig({ TASKSPACE_MODEL_PROVIDER: 'claude' })).toThrow(/TASKSPACE_MODEL_PROVIDER/);
  });
});
