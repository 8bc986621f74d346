import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV, createAutomation } from '../automations/helpers';

/**
 * An agent's own MCP servers (docs/mcp.md "MCP servers as agent tools", "In an agent's
 * settings"): the agent's `data.mcpServers` names a second, real Taskspace server's `/mcp` with a
 * token that is a secret reference; an `agent.command` step of that agent with no `mcpServers` of
 * its own offers those tools (the offline provider's model calls what its prompt's
 * `[[tool:NAME {…}]]` directives name). The agent never stores nor returns a bearer token.
 */
type Api = ReturnType<typeof client>;

describe("an agent's own mcpServers", () => {
  let server: TestServer;
  let remote: TestServer;
  let api: Api;
  let remoteApi: Api;
  let agentId: string;
  let pat: string;
  let remoteProject: string;
  let mcpUrl: string;
  beforeAll(async () => {
    // One after the other: two servers migrating a PostgreSQL database at once start slowly.
    remote = await startServer();
    server = await startServer({ env: AUTOMATION_ENV });
    api = client(server, server.token);
    remoteApi = client(remote, remote.token);
    mcpUrl = `${remote.url}/mcp`;
    const made = await remoteApi.post('/api/v1/tokens', { name: 'agents', scope: 'write' });
    expect(made.status).toBe(200);
    pat = made.body.item.token as string;
    remoteProject = await newProject(remote, 'Remote work');
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/REMOTE_TOKEN`, { value: pat })).status).toBe(200);
    const agent = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Operator',
      data: {
        type: 'agent',
        data: {
          commands: [{ id: 'act', name: 'Act', prompt: '{{ input }}' }],
          mcpServers: [{ url: mcpUrl, token: '{{ secrets.REMOTE_TOKEN }}', tools: ['create_project_task'] }],
        },
      },
    });
    expect(agent.status).toBe(200);
    agentId = agent.body.item.id as string;
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  async function run(step: Record<string, unknown>) {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Agent with its own MCP servers',
      trigger: { type: 'webhook' },
      actions: [{ id: 'agent', type: 'agent.command', agentId, command: 'Act', ...step }],
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} });
    expect(res.status).toBe(200);
    const stored = await api.get(`/api/v1/automations/${automation.id}/runs/${res.body.item.id}`);
    expect(stored.status).toBe(200);
    return stored.body.item;
  }

  test('the agent stores and returns a secret reference, never the token', async () => {
    const got = await api.get(`/api/v1/agents/${agentId}`);
    expect(got.status).toBe(200);
    expect(got.body.item.data.mcpServers).toEqual([{ url: mcpUrl, token: '{{ secrets.REMOTE_TOKEN }}', tools: ['create_project_task'] }]);
    expect(JSON.stringify(got.body)).not.toContain(pat);
    const listed = await api.get(`/api/v1/folders/${server.workspaceId}/agents`);
    expect(JSON.stringify(listed.body)).not.toContain(pat);
    // An agent without MCP servers shows an empty list.
    const plain = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'Plain' });
    expect(plain.body.item.data.mcpServers).toEqual([]);
  });

  test("a step with no mcpServers of its own calls the agent's server's tool; the call is journalled", async () => {
    const args = { projectId: remoteProject, tasks: [{ contentType: 'text/plain', content: "Made through the agent's settings" }] };
    const done = await run({ input: `[[tool:create_project_task ${JSON.stringify(args)}]]` });
    expect(done.status).toBe('completed');
    expect((await allTasks(remote, remoteProject)).map((t) => t.text)).toContain("Made through the agent's settings");
    const calls = done.steps[0].output.toolCalls;
    expect(calls.map((c: any) => [c.name, c.error?.code ?? 'ok'])).toEqual([['create_project_task', 'ok']]);
    const createdId = calls[0].output.structuredContent.item[0].id as string;
    expect((await allTasks(remote, remoteProject)).find((t) => t.id === createdId)?.text).toBe("Made through the agent's settings");
    expect(JSON.stringify(done)).not.toContain(pat);
  });

  test("the step's own entry for the same URL replaces the agent's (its allow-list applies)", async () => {
    const args = { projectId: remoteProject, tasks: [{ contentType: 'text/plain', content: 'Not made' }] };
    const done = await run({
      mcpServers: [{ url: mcpUrl, token: '{{ secrets.REMOTE_TOKEN }}', tools: ['get_project_task'] }],
      input: `[[tool:create_project_task ${JSON.stringify(args)}]]`,
    });
    expect(done.status).toBe('completed');
    expect(done.steps[0].output.toolCalls.map((c: any) => [c.name, c.error?.code ?? 'ok'])).toEqual([
      ['create_project_task', 'UNKNOWN_TOOL'],
    ]);
    expect((await allTasks(remote, remoteProject)).map((t) => t.text)).not.toContain('Not made');
  });

  test('bad shapes, literal tokens and blocked URLs are refused with 400 naming the field', async () => {
    const create = async (mcpServers: unknown) => {
      const res = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, { name: 'Bad', data: { data: { mcpServers } } });
      expect(res.status).toBe(400);
      return res.body.error.details as { field: string; reason: string };
    };
    expect(await create([{ url: mcpUrl, token: pat }])).toEqual({
      field: 'data.data.mcpServers[0].token',
      reason: 'not_a_secret_reference',
    });
    expect(await create([{ url: mcpUrl, token: '{{ secrets.NO_SUCH }}' }])).toEqual({
      field: 'data.data.mcpServers[0].token',
      reason: 'unknown_secret',
    });
    expect(await create([{ url: '{{ trigger.url }}' }])).toEqual({ field: 'data.data.mcpServers[0].url', reason: 'template_not_allowed' });
    expect(await create([{ url: 'http://169.254.169.254/mcp' }])).toEqual({
      field: 'data.data.mcpServers[0].url',
      reason: 'blocked_address',
    });
    expect(await create([{ url: mcpUrl }, { url: mcpUrl }])).toEqual({ field: 'data.data.mcpServers[1].url', reason: 'duplicate' });
    expect(await create([{ url: mcpUrl, connectionId: 'no-such-connection' }])).toEqual({
      field: 'data.data.mcpServers[0].connectionId',
      reason: 'not_found',
    });
    expect((await create([{ url: mcpUrl, header: 'x' }])).field).toBe('data.data.mcpServers[0].header');
    expect((await create([{ url: mcpUrl, tools: [] }])).field).toMatch(/^data\.data\.mcpServers\[0\]\.tools/);
    expect((await create([{ token: '{{ secrets.REMOTE_TOKEN }}' }])).field).toBe('data.data.mcpServers[0].url');
    const patched = await api.patch(`/api/v1/agents/${agentId}`, { data: { mcpServers: [{ url: mcpUrl, token: `Bearer ${pat}` }] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual({ field: 'data.mcpServers[0].token', reason: 'not_a_secret_reference' });
    expect(JSON.stringify(patched.body)).not.toContain(pat);
    // Nothing was stored by the refused writes.
    expect((await api.get(`/api/v1/agents/${agentId}`)).body.item.data.mcpServers).toHaveLength(1);
  });

  test('changing them needs the Owner role; other changes do not; an empty list clears them', async () => {
    const other = await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Shared',
      data: { data: { mcpServers: [{ url: mcpUrl, token: '{{ secrets.REMOTE_TOKEN }}' }] } },
    });
    expect(other.status).toBe(200);
    const id = other.body.item.id as string;
    const collaborator = client(server, addUser(server, 'collab', { workspaceId: server.workspaceId, role: 'Collaborator' }));
    const refused = await collaborator.patch(`/api/v1/agents/${id}`, { data: { mcpServers: [{ url: 'https://example.com/mcp' }] } });
    expect(refused.status).toBe(403);
    // Sending the list back unchanged (a whole settings form) is not a change.
    const same = other.body.item.data.mcpServers;
    const described = await collaborator.patch(`/api/v1/agents/${id}`, { data: { description: 'Edited', mcpServers: same } });
    expect(described.status).toBe(200);
    expect(described.body.item.data).toMatchObject({ description: 'Edited', mcpServers: same });
    const cleared = await api.patch(`/api/v1/agents/${id}`, { data: { mcpServers: [] } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.item.data.mcpServers).toEqual([]);
  }, 60_000);

  test("a secret deleted since the agent named it fails the step (a permanent error naming the agent's field)", async () => {
    expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/GONE_TOKEN`, { value: pat })).status).toBe(200);
    const patched = await api.patch(`/api/v1/agents/${agentId}`, {
      data: { mcpServers: [{ url: mcpUrl, token: '{{ secrets.GONE_TOKEN }}' }] },
    });
    expect(patched.status).toBe(200);
    expect((await api.delete(`/api/v1/workspaces/${server.workspaceId}/secrets/GONE_TOKEN`)).status).toBe(200);
    const failed = await run({ input: 'hi' });
    expect(failed).toMatchObject({ status: 'failed', error: { transient: false } });
    expect(failed.error.message).toContain('agent.mcpServers[0].token');
    expect(JSON.stringify(failed)).not.toContain(pat);
  });
});
