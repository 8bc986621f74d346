import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { addUser, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runWithStatus } from './helpers';

/**
 * Agent tools (docs/automations.md "Agent tools"; issue 27 item 10): an `agent.command` step's
 * model calls the automation's own actions. The offline provider calls the tools its prompt's
 * `[[tool:NAME {arguments}]]` directives name; a fake OpenAI-compatible service checks the wire
 * protocol (`tools`, `tool_calls`, `tool` messages).
 */
const SECRET = 'Tool-Secret-Value-4242';

type Api = ReturnType<typeof client>;

async function setup(server: TestServer, api: Api) {
  expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/API_KEY`, { value: SECRET })).status).toBe(200);
  const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
    name: 'Operator',
    data: {
      type: 'agent',
      data: {
        commands: [
          { id: 'act', name: 'Act', prompt: 'Do this: {{ input }}' },
          { id: 'ask', name: 'Ask', prompt: '{{ input }}' },
        ],
      },
    },
  });
  expect(agent.status).toBe(200);
  return { agentId: agent.body.item.id as string, projectId: await newProject(server, 'Agent work') };
}

describe('agent.command with tools (offline provider)', () => {
  let server: TestServer;
  let api: Api;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let agentId: string;
  let projectId: string;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver((r) => ({ status: 200, body: { sawAuthorization: r.headers.authorization ?? null, sawBody: r.body } }));
    ({ agentId, projectId } = await setup(server, api));
  });
  afterAll(async () => {
    await rx.close();
    await server.close();
  });

  async function run(step: Record<string, unknown>, payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Agent',
      trigger: { type: 'webhook' },
      actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', ...step }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    return res.body.item;
  }

  test('the model creates a task and calls an allowed host; a refused host and bad arguments are reported back to it', async () => {
    const blockedHost = `http://localhost:${new URL(rx.url).port}`;
    const done = await run(
      {
        tools: [
          { type: 'task.create', projectId: '{{ trigger.projectId }}' },
          { type: 'http.request', allowedHosts: ['127.0.0.1'], headers: { Authorization: 'Bearer {{ secrets.API_KEY }}' } },
        ],
        input: [
          '[[tool:task_create {"text":"Follow up on {{ trigger.order }}"}]]',
          `[[tool:http_request {"method":"POST","url":"${rx.url}/orders","body":{"order":"{{ trigger.order }}"}}]]`,
          `[[tool:http_request {"method":"GET","url":"${blockedHost}/x"}]]`,
          '[[tool:task_create {"txt":"typo"}]]',
          '[[tool:task_delete {}]]',
        ].join('\n'),
      },
      { projectId, order: 'A-17' },
    );
    expect(done.status).toBe('completed');
    const out = done.steps[0].output;
    expect(out.toolCalls.map((c: any) => [c.name, c.error?.code ?? 'ok'])).toEqual([
      ['task_create', 'ok'],
      ['http_request', 'ok'],
      ['http_request', 'HOST_NOT_ALLOWED'],
      ['task_create', 'INVALID_ARGUMENTS'],
      ['task_delete', 'UNKNOWN_TOOL'],
    ]);
    // The task exists, created as the automation's owner.
    const created = out.toolCalls[0].output;
    expect((await allTasks(server, projectId)).map((t) => [t.id, t.text])).toContainEqual([created.id, 'Follow up on A-17']);
    // The allowed host got the real secret; the model and the journal only the placeholder.
    const call = rx.received.find((r) => r.url === '/orders')!;
    expect(call.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.parse(call.body)).toEqual({ order: 'A-17' });
    expect(out.toolCalls[1].output.body.sawAuthorization).toBe('Bearer [secret API_KEY]');
    expect(rx.received.some((r) => r.headers.host?.startsWith('localhost'))).toBe(false);
    // The final answer is written after the results came back (the offline provider lists them).
    expect(out.text).toContain('[tool http_request] {"error":{"code":"HOST_NOT_ALLOWED"');
    expect(out.text).toMatch(new RegExp(`\\[tool task_create\\] \\{.*"id":"${created.id}"`));
    const convo = (await api.get(`/api/v1/agents/${agentId}/convos/${out.conversationId}`)).body.item;
    expect(JSON.stringify(convo)).not.toContain(SECRET);
    expect(JSON.stringify(done)).not.toContain(SECRET);
    expect(done.steps[0].input.tools[1].headers.authorization).toBe('[redacted]');
  });

  test('tools and rounds are checked at save, the field named', async () => {
    const bad = async (step: Record<string, unknown>) => {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', ...step }],
      });
      expect(res.status).toBe(400);
      return res.body.error.details.field as string;
    };
    expect(await bad({ tools: [{ type: 'http.request' }] })).toMatch(/^actions\[0\]\.tools\[0\]/);
    expect(await bad({ tools: [{ type: 'http.request', allowedHosts: [] }] })).toMatch(/^actions\[0\]\.tools\[0\]/);
    expect(await bad({ tools: [{ type: 'task.delete' }] })).toMatch(/^actions\[0\]\.tools\[0\]/);
    expect(await bad({ tools: [{ type: 'task.create' }], maxToolRounds: 0 })).toBe('actions[0].maxToolRounds');
    expect(await bad({ tools: [{ type: 'task.create' }, { type: 'comment.create' }, { type: 'task.create', projectId: 'x' }] })).toBe(
      'actions[0].tools[2]',
    );
  });

  test('the documented example runs as pasted', async () => {
    const docs = readFileSync(join(__dirname, '../../docs/automations.md'), 'utf8');
    const block = docs
      .split('```bash')
      .map((b) => b.split('```')[0]!)
      .find((b) => b.includes('"Triage"'))!;
    const json = block.slice(block.indexOf("-d '") + 4, block.indexOf("}'") + 1);
    const definition = JSON.parse(
      json
        .replaceAll('"W"', JSON.stringify(server.workspaceId))
        .replaceAll('"A"', JSON.stringify(agentId))
        .replaceAll('"P"', JSON.stringify(projectId)),
    );
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/API_TOKEN`, { value: 'documented-token-123' })).status).toBe(
      200,
    );
    const automation = await createAutomation(api, server.workspaceId, definition);
    const done = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { customer: 'Ann' } })).body.item;
    expect(done.status).toBe('completed');
    expect(done.steps[0].output.toolCalls).toEqual([
      { name: 'task_create', arguments: { text: 'Call back Ann' }, output: expect.objectContaining({ text: 'Call back Ann' }) },
      {
        name: 'http_request',
        arguments: { method: 'GET', url: 'https://evil.example.net/' },
        error: { code: 'HOST_NOT_ALLOWED', message: 'evil.example.net is not an allowed host (api.example.com)' },
      },
    ]);
  });
});

/** One chat-completions request as the fake service saw it. */
interface Seen {
  body: any;
}

describe('agent.command with tools (OpenAI-compatible provider)', () => {
  const seen: Seen[] = [];
  let failedOnce = false;
  let fake: http.Server;
  let server: TestServer;
  let api: Api;
  let agentId: string;
  let projectId: string;
  beforeAll(async () => {
    // First turn: ask for a task; second turn: answer with what the tool returned.
    fake = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        seen.push({ body });
        const results = body.messages.filter((m: any) => m.role === 'tool');
        const prompt = JSON.stringify(body.messages);
        // "fail once": the first answer after a tool result is a 500 (the step is retried).
        if (prompt.includes('fail once') && results.length > 0 && !failedOnce) {
          failedOnce = true;
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded' } }));
          return;
        }
        // A prompt saying "keep calling" asks for a call in every round it may.
        const keep = JSON.stringify(body.messages).includes('keep calling');
        const final = body.tool_choice === 'none' || (results.length > 0 && !keep);
        const message = final
          ? { role: 'assistant', content: keep ? `Stopped after ${results.length} calls` : `Done: ${JSON.parse(results[0].content).text}` }
          : {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: keep ? `call_${results.length + 1}` : 'call_abc',
                  type: 'function',
                  function: {
                    name: 'task_create',
                    arguments: JSON.stringify({
                      projectId,
                      text: keep ? `Round ${results.length + 1}` : prompt.includes('fail once') ? 'Exactly once' : 'From the model',
                    }),
                  },
                },
              ],
            };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ model: 'fake-model', choices: [{ index: 0, message, finish_reason: final ? 'stop' : 'tool_calls' }] }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
    server = await automationServer({
      TASKSPACE_MODEL_PROVIDER: 'openai',
      TASKSPACE_MODEL_BASE_URL: base,
      TASKSPACE_MODEL_NAME: 'fake-model',
    });
    api = client(server, server.token);
    addUser(server, 'ann', { workspaceId: server.workspaceId, role: 'Participant' });
    ({ agentId, projectId } = await setup(server, api));
  });
  afterAll(async () => {
    await server.close();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  });

  test('tools go out as functions, tool_calls run, results return as tool messages; no secret reaches the model', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Agent',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'agent',
          type: 'agent.command',
          agentId,
          command: 'Act',
          tools: [{ type: 'task.create' }],
          maxToolRounds: 2,
          input: 'file it (key {{ secrets.API_KEY }})',
        },
      ],
    });
    const done = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(done.status).toBe('completed');
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    expect(first!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'task_create',
          description: 'Creates a task in a project.',
          parameters: expect.objectContaining({ type: 'object', required: ['projectId', 'text'] }),
        },
      },
    ]);
    expect(first!.body.tool_choice).toBe('auto');
    expect(second!.body.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_abc',
            type: 'function',
            function: { name: 'task_create', arguments: JSON.stringify({ projectId, text: 'From the model' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: expect.stringContaining('"text":"From the model"') },
    ]);
    expect(done.steps[0].output).toMatchObject({
      text: 'Done: From the model',
      toolCalls: [{ name: 'task_create', arguments: { projectId, text: 'From the model' } }],
    });
    expect((await allTasks(server, projectId)).map((t) => t.text)).toContain('From the model');
    expect(JSON.stringify(seen)).not.toContain(SECRET);
    expect(JSON.stringify(first!.body.messages)).toContain('[secret API_KEY]');
  });

  test('after maxToolRounds rounds the model must answer (tool_choice "none")', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Rounds',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'agent',
          type: 'agent.command',
          agentId,
          command: 'Act',
          tools: [{ type: 'task.create' }],
          maxToolRounds: 2,
          input: 'keep calling',
        },
      ],
    });
    const before = seen.length;
    const done = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(done.status).toBe('completed');
    expect(seen.slice(before).map((s) => s.body.tool_choice)).toEqual(['auto', 'auto', 'none']);
    expect(done.steps[0].output.text).toBe('Stopped after 2 calls');
    expect(done.steps[0].output.toolCalls.map((c: any) => c.output.text)).toEqual(['Round 1', 'Round 2']);
  });

  test('a retried step whose model asks for the same call again does not act twice', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Retry',
      trigger: { type: 'webhook' },
      actions: [
        {
          id: 'agent',
          type: 'agent.command',
          agentId,
          command: 'Act',
          tools: [{ type: 'task.create' }],
          input: 'fail once',
          retry: { maxAttempts: 2, initialDelayMs: 10 },
        },
      ],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} });
    const done = await runWithStatus(api, automation.id, res.body.item.id, 'completed');
    expect(failedOnce).toBe(true);
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    const created = (await allTasks(server, projectId)).filter((t) => t.text === 'Exactly once');
    expect(created).toHaveLength(1);
    expect(done.steps[0].output.toolCalls).toEqual([
      { name: 'task_create', arguments: { projectId, text: 'Exactly once' }, output: expect.objectContaining({ id: created[0]!.id }) },
    ]);
  });
});
