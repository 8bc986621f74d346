import path from 'node:path';
import { client, runCli, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV, createAutomation } from './helpers';

/** A test piece whose connection is a secret text: a bearer token for `mcpServers[].connectionId`. */
const TOKEN_PROBE = path.join(__dirname, '../pieces/fixtures/token-probe');

/**
 * MCP servers as agent tools (docs/mcp.md "MCP servers as agent tools"): an `agent.command`
 * step names a second, real Taskspace server's `/mcp` endpoint with a personal access token from
 * a secret; the offline provider's model calls the tools its prompt's `[[tool:NAME {…}]]`
 * directives name, and the calls go to that server through the SSRF guard.
 */
type Api = ReturnType<typeof client>;

describe('agent.command with mcpServers', () => {
  let server: TestServer;
  let remote: TestServer;
  let api: Api;
  let remoteApi: Api;
  let agentId: string;
  let pat: string;
  let remoteProject: string;
  beforeAll(async () => {
    // One after the other: two servers migrating a PostgreSQL database at once start slowly.
    remote = await startServer();
    const dataDir = tempDataDir();
    const added = runCli(dataDir, 'pieces', 'add', TOKEN_PROBE);
    expect([added.code, added.err]).toEqual([0, expect.any(String)]);
    server = await startServer({ dataDir, env: AUTOMATION_ENV });
    api = client(server, server.token);
    remoteApi = client(remote, remote.token);
    const made = await remoteApi.post('/api/v1/tokens', { name: 'automations', scope: 'write' });
    expect(made.status).toBe(200);
    pat = made.body.item.token as string;
    remoteProject = await newProject(remote, 'Remote work');
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/REMOTE_TOKEN`, { value: pat })).status).toBe(200);
    const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Operator',
      data: { type: 'agent', data: { commands: [{ id: 'act', name: 'Act', prompt: '{{ input }}' }] } },
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.item.id as string;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  async function run(step: Record<string, unknown>, payload: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Agent with MCP',
      trigger: { type: 'webhook' },
      actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', ...step }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    return { automationId: automation.id as string, run: res.body.item };
  }

  test('the model creates a task on the other server through its /mcp; the call is journalled, the token never shown', async () => {
    const args = { projectId: remoteProject, tasks: [{ contentType: 'text/plain', content: 'Made by {{ trigger.who }} over MCP' }] };
    const { automationId, run: done } = await run(
      {
        mcpServers: [{ url: `${remote.url}/mcp`, token: '{{ secrets.REMOTE_TOKEN }}', tools: ['create_project_task', 'get_project_task'] }],
        input: [`[[tool:create_project_task ${JSON.stringify(args)}]]`, '[[tool:delete_project_task {}]]'].join('\n'),
      },
      { who: 'the agent' },
    );
    expect(done.status).toBe('completed');
    // The task exists on the other server.
    const texts = (await allTasks(remote, remoteProject)).map((t) => t.text);
    expect(texts).toContain('Made by the agent over MCP');
    // The run's journal holds both calls: the one that ran, and a tool outside the allow-list refused.
    const stored = (await api.get(`/api/v1/automations/${automationId}/runs/${done.id}`)).body.item;
    const calls = stored.steps[0].output.toolCalls;
    expect(calls.map((c: any) => [c.name, c.error?.code ?? 'ok'])).toEqual([
      ['create_project_task', 'ok'],
      ['delete_project_task', 'UNKNOWN_TOOL'],
    ]);
    expect(calls[0].arguments.tasks[0].content).toBe('Made by the agent over MCP');
    const createdId = calls[0].output.structuredContent.item[0].id as string;
    expect((await allTasks(remote, remoteProject)).find((t) => t.id === createdId)?.text).toBe('Made by the agent over MCP');
    // The model got the result back (the offline provider lists the tool results in its answer).
    expect(stored.steps[0].output.text).toContain(`[tool create_project_task] {"content":`);
    // The bearer token is redacted in the journalled input and appears nowhere in the run.
    expect(stored.steps[0].input.mcpServers[0]).toEqual({
      url: `${remote.url}/mcp`,
      headers: { authorization: '[redacted]' },
      tools: ['create_project_task', 'get_project_task'],
    });
    expect(JSON.stringify(stored)).not.toContain(pat);
  });

  test("a connection's secret text is the bearer token (connectionId)", async () => {
    const connection = await api.post(`/api/v1/workspaces/${server.workspaceId}/connections`, {
      piece: 'taskspace-token-probe',
      name: 'Remote Taskspace',
      auth: { type: 'SECRET_TEXT', secret_text: pat },
    });
    expect(connection.status).toBe(200);
    const args = { projectId: remoteProject, tasks: [{ contentType: 'text/plain', content: 'Made through a connection' }] };
    const { run: done } = await run({
      mcpServers: [{ url: `${remote.url}/mcp`, connectionId: connection.body.item.id, tools: ['create_project_task'] }],
      input: `[[tool:create_project_task ${JSON.stringify(args)}]]`,
    });
    expect(done.status).toBe('completed');
    expect(done.steps[0].output.toolCalls.map((c: any) => [c.name, c.error?.code ?? 'ok'])).toEqual([['create_project_task', 'ok']]);
    expect((await allTasks(remote, remoteProject)).map((t) => t.text)).toContain('Made through a connection');
    expect(JSON.stringify(done)).not.toContain(pat);
    const { run: unknown } = await run({ mcpServers: [{ url: `${remote.url}/mcp`, connectionId: 'no-such-connection' }], input: 'hi' });
    expect(unknown).toMatchObject({ status: 'failed', error: { code: 'CONNECTION_NOT_FOUND', transient: false } });
  });

  test('a wrong token fails the step (permanent MCP_UNAUTHORIZED); an allow-listed tool the server lacks is named', async () => {
    const { run: refused } = await run({ mcpServers: [{ url: `${remote.url}/mcp`, token: 'not-a-token' }], input: 'hi' });
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'MCP_UNAUTHORIZED', transient: false } });
    expect(refused.steps[0].attempts).toBe(1);
    const { run: missing } = await run({
      mcpServers: [{ url: `${remote.url}/mcp`, token: '{{ secrets.REMOTE_TOKEN }}', tools: ['no_such_tool'] }],
      input: 'hi',
    });
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'MCP_TOOL_NOT_FOUND' } });
    expect(missing.error.message).toContain('no_such_tool');
  });

  test('a metadata address is refused by the SSRF guard; on a server that allows no private addresses, loopback too', async () => {
    // Written out, the URL is refused at save; from a template, when the step runs.
    const saved = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Metadata',
      trigger: { type: 'webhook' },
      actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', mcpServers: [{ url: 'http://169.254.169.254/mcp' }] }],
    });
    expect(saved.status).toBe(400);
    expect(saved.body.error.details).toMatchObject({ field: 'actions[0].mcpServers[0].url', reason: 'blocked_address' });
    const { run: meta } = await run(
      { mcpServers: [{ url: '{{ trigger.target }}' }], input: 'hi' },
      { target: 'http://169.254.169.254/mcp' },
    );
    expect(meta).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET', transient: false } });
    expect(meta.error.message).toMatch(/169\.254\.169\.254/);

    const strict = await startServer();
    try {
      const sapi = client(strict, strict.token);
      const agent = await sapi.post(`/api/v1/folders/${strict.workspaceId}/agents`, {
        name: 'Operator',
        data: { type: 'agent', data: { commands: [{ id: 'act', name: 'Act', prompt: '{{ input }}' }] } },
      });
      const step = { id: 'agent', type: 'agent.command', agentId: agent.body.item.id, command: 'Act', input: 'hi' };
      const plain = await sapi.post('/api/v1/automations', {
        workspaceId: strict.workspaceId,
        name: 'Strict',
        trigger: { type: 'webhook' },
        actions: [{ ...step, mcpServers: [{ url: `${remote.url}/mcp`, token: pat }] }],
      });
      expect(plain.status).toBe(400);
      expect(plain.body.error.details).toEqual({ field: 'actions[0].mcpServers[0].url', reason: 'insecure_scheme' });
      const automation = await createAutomation(sapi, strict.workspaceId, {
        name: 'Strict',
        trigger: { type: 'webhook' },
        actions: [{ ...step, mcpServers: [{ url: '{{ trigger.target }}', token: pat }] }],
      });
      const res = await sapi.post(`/api/v1/automations/${automation.id}/test`, { payload: { target: `${remote.url}/mcp` } });
      expect(res.body.item).toMatchObject({ status: 'failed', error: { code: 'BLOCKED_TARGET', transient: false } });
      expect(res.body.item.steps[0].attempts).toBe(1);
      expect(JSON.stringify(res.body.item)).not.toContain(pat);
    } finally {
      await strict.close();
    }
  }, 90_000);

  test('a bad mcpServers shape is refused at save with 400, the field named', async () => {
    const bad = async (mcpServers: unknown) => {
      const res = await api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'Bad',
        trigger: { type: 'webhook' },
        actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', mcpServers }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBeDefined();
      return res.body.error.details.field as string;
    };
    expect(await bad([])).toMatch(/^actions\[0\]\.mcpServers/);
    expect(await bad([{ token: 'x' }])).toMatch(/^actions\[0\]\.mcpServers\[0\]/);
    expect(await bad([{ url: `${remote.url}/mcp`, tools: [] }])).toMatch(/^actions\[0\]\.mcpServers\[0\]/);
    expect(await bad([{ url: `${remote.url}/mcp`, header: 'x' }])).toMatch(/^actions\[0\]\.mcpServers\[0\]/);
  });
});
