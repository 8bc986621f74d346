import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { addUser, client as rest, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, settledRuns } from '../automations/helpers';
import { connectWithToken, rpc } from './helpers';

/**
 * Automations as MCP tools and agents' commands as MCP prompts (docs/mcp.md "Automations as
 * tools", "Prompts"), through the official SDK client over Streamable HTTP.
 */
describe('MCP: automations as tools, agent commands as prompts', () => {
  let server: TestServer;
  let api: ReturnType<typeof rest>;
  let assistant: Client;
  let automationId: string;
  const quote = {
    name: 'Quote an order',
    trigger: {
      type: 'mcp',
      toolName: 'quote_order',
      description: 'Prices an order of a product.',
      inputSchema: {
        type: 'object',
        properties: {
          product: { type: 'string', description: 'The product name' },
          quantity: { type: 'integer', description: 'How many' },
          note: { type: 'string', default: 'none' },
        },
        required: ['product', 'quantity'],
      },
    },
    actions: [
      { id: 'price', type: 'set', values: { total: '{{ trigger.quantity | times: 3 }}' } },
      {
        id: 'answer',
        type: 'respond',
        body: { product: '{{ trigger.product }}', total: '{{ steps.price.total }}', note: '{{ trigger.note }}' },
      },
    ],
  };

  beforeAll(async () => {
    server = await automationServer();
    api = rest(server, server.token);
    automationId = (await createAutomation(api, server.workspaceId, quote)).id;
    assistant = await connectWithToken(server, server.token);
  });
  afterAll(async () => {
    await assistant?.close();
    await server.close();
  });

  it('lists the automation as a tool with its input schema, and the call answers with the respond output', async () => {
    const { tools } = await assistant.listTools();
    const tool = tools.find((t) => t.name === 'automation_quote_order');
    expect(tool).toMatchObject({
      title: 'Quote an order',
      description: expect.stringContaining('Prices an order of a product.'),
      inputSchema: quote.trigger.inputSchema,
      annotations: { readOnlyHint: false },
    });
    const result = await assistant.callTool({ name: 'automation_quote_order', arguments: { product: 'Widget', quantity: 4 } });
    expect(result.isError).toBeFalsy();
    // `note` was left out: it takes its declared default.
    expect(result.structuredContent).toEqual({ product: 'Widget', total: 12, note: 'none' });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ product: 'Widget', total: 12, note: 'none' });
  });

  it("the run is in the automation's run list, marked as started by the mcp trigger with the arguments", async () => {
    const runs = await settledRuns(api, automationId);
    expect(runs[0]).toMatchObject({
      status: 'completed',
      trigger: { type: 'mcp', variables: { product: 'Widget', quantity: 4, note: 'none' } },
    });
    const kinds = await api.get('/api/v1/automations/kinds');
    expect(kinds.body.triggers.find((k: { type: string }) => k.type === 'mcp')).toMatchObject({ title: 'Called by an assistant' });
  });

  it('refuses arguments that do not fit the schema as a tool error, starting no run', async () => {
    const before = (await api.get(`/api/v1/automations/${automationId}/runs?limit=100`)).body.items.length;
    const result = await assistant.callTool({ name: 'automation_quote_order', arguments: { product: 'Widget', quantity: 'four' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/quantity.*integer/);
    expect((await api.get(`/api/v1/automations/${automationId}/runs?limit=100`)).body.items.length).toBe(before);
  });

  it('without a respond step the call answers with the run id', async () => {
    const made = await createAutomation(api, server.workspaceId, {
      name: 'Log a note',
      trigger: { type: 'mcp', toolName: 'log_note', description: 'Logs a note.' },
      actions: [{ id: 'v', type: 'set', values: { a: 1 } }],
    });
    const result = await assistant.callTool({ name: 'automation_log_note', arguments: {} });
    const runs = await settledRuns(api, made.id);
    expect(result.structuredContent).toEqual({ runId: runs[0].id, status: 'started' });
  });

  it('does not list a disabled automation, nor offer it to a read-scope token (403 insufficient_scope on a call)', async () => {
    const made = await createAutomation(
      api,
      server.workspaceId,
      { ...quote, name: 'Off', trigger: { ...quote.trigger, toolName: 'switched_off' } },
      { enabled: false },
    );
    expect((await assistant.listTools()).tools.map((t) => t.name)).not.toContain('automation_switched_off');
    await api.post(`/api/v1/automations/${made.id}/enable`, {});
    expect((await assistant.listTools()).tools.map((t) => t.name)).toContain('automation_switched_off');

    const readToken = (await api.post('/api/v1/tokens', { name: 'read only', scope: 'read' })).body.item.token as string;
    const reader = await connectWithToken(server, readToken);
    expect((await reader.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('automation_'))).toEqual([]);
    await reader.close();
    const refused = await rpc(server, readToken, 'tools/call', {
      name: 'automation_quote_order',
      arguments: { product: 'x', quantity: 1 },
    });
    expect(refused.status).toBe(403);
    expect(String(refused.headers['www-authenticate'])).toMatch(/error="insufficient_scope".*scope="write"/);
  });

  it("offers the tools to the workspace's Participants and above, not to a Viewer", async () => {
    const viewer = await connectWithToken(server, addUser(server, 'viewer38', { workspaceId: server.workspaceId, role: 'Viewer' }));
    const participant = await connectWithToken(server, addUser(server, 'part38', { workspaceId: server.workspaceId, role: 'Participant' }));
    try {
      expect((await viewer.listTools()).tools.map((t) => t.name)).not.toContain('automation_quote_order');
      await expect(viewer.callTool({ name: 'automation_quote_order', arguments: { product: 'x', quantity: 1 } })).rejects.toThrow(
        /unknown tool/,
      );
      expect((await participant.listTools()).tools.map((t) => t.name)).toContain('automation_quote_order');
    } finally {
      await viewer.close();
      await participant.close();
    }
  });

  it('checks the trigger when saved: a taken tool name is 409, a bad input schema 400, both in the error envelope', async () => {
    const taken = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, ...quote, name: 'Again' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', details: { field: 'trigger.toolName', reason: 'duplicate' } },
    });
    const bad = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      ...quote,
      trigger: { ...quote.trigger, toolName: 'other', inputSchema: { type: 'object', properties: { when: { type: 'object' } } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const undeclared = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      ...quote,
      trigger: { ...quote.trigger, toolName: 'other', inputSchema: { type: 'object', properties: {}, required: ['x'] } },
    });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.details).toMatchObject({ field: 'trigger.inputSchema.required[0]' });
    const unknown = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      ...quote,
      trigger: { ...quote.trigger, toolName: 'other' },
      actions: [{ id: 'v', type: 'set', values: { a: '{{ trigger.colour }}' } }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ reason: 'unknown_variable' });
    // Saving the same automation again is no clash with its own tool name.
    const same = await api.put(`/api/v1/automations/${automationId}`, quote);
    expect(same.status).toBe(200);
  });

  it("lists the agents' commands as prompts and gets one as a user message with the input rendered in", async () => {
    const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Support Desk',
      data: { type: 'custom', data: { commands: [{ name: 'Draft reply', prompt: 'Write a friendly reply to: {{ input }}' }] } },
    });
    expect(agent.status).toBe(200);
    const { prompts } = await assistant.listPrompts();
    const prompt = prompts.find((p) => p.name === 'support_desk.draft_reply');
    expect(prompt).toMatchObject({ title: 'Support Desk: Draft reply', arguments: [{ name: 'input', required: false }] });
    const got = await assistant.getPrompt({ name: 'support_desk.draft_reply', arguments: { input: 'Where is my order?' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write a friendly reply to: Where is my order?' } }]);
    await expect(assistant.getPrompt({ name: 'nobody.nothing' })).rejects.toThrow(/unknown prompt/);
  });
});
