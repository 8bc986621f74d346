import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { addUser, call, client as rest, startServer, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, exchangeCode, pkcePair, authorizeQuery, signInCookie } from '../oauth/helpers';
import { MCP_REDIRECT_URI, MemoryOAuthProvider, approveInBrowser, connectWithToken, rpc } from './helpers';

/** The text of a tool result's first content block. */
const textOf = (result: Record<string, unknown>): string => (result.content as { text: string }[] | undefined)?.[0]?.text ?? '';

describe('MCP endpoint: the official SDK client over Streamable HTTP', () => {
  let server: TestServer;
  let cookie: string;
  let projectId: string;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
    const made = await rest(server, server.token).post('/api/v1/projects', {
      folderId: server.workspaceId,
      contentType: 'text/markdown',
      content: '# Launch\n- Write the plan\n  - Draft',
    });
    projectId = made.body.item.id;
  });
  afterAll(() => server.close());

  it('without a token: 401 whose WWW-Authenticate leads to the protected-resource metadata, then to the authorization server', async () => {
    const refused = await rpc(server, null, 'tools/list', {});
    expect(refused.status).toBe(401);
    const header = String(refused.headers['www-authenticate']);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(metadataUrl).toBe(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    const prm = await call(server.url, 'GET', new URL(metadataUrl!).pathname);
    expect(prm.status).toBe(200);
    expect(prm.body).toMatchObject({
      resource: `${server.url}/mcp`,
      authorization_servers: [server.url],
      scopes_supported: ['read', 'write'],
    });
    const as = await call(server.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(as.body).toMatchObject({
      issuer: server.url,
      registration_endpoint: `${server.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['none']),
    });
  });

  it('answers GET and DELETE with 405 and refuses a foreign Origin with 403', async () => {
    expect((await call(server.url, 'GET', '/mcp', { token: server.token })).status).toBe(405);
    expect((await call(server.url, 'DELETE', '/mcp', { token: server.token })).status).toBe(405);
    const foreign = await rpc(server, server.token, 'tools/list', {}, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const own = await rpc(server, server.token, 'tools/list', {}, { origin: server.url });
    expect(own.status).toBe(200);
  });

  it('registers itself (RFC 7591), authorizes with PKCE and resource, creates a task and reads it back; REST sees it', async () => {
    const provider = new MemoryOAuthProvider();
    const first = new Client({ name: 'assistant', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    const url = provider.authorizationUrl!;
    expect(url.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const { page, query } = await approveInBrowser(server, cookie, url);
    expect(page).toContain('This app is unverified');
    expect(page).toContain(MCP_REDIRECT_URI);
    expect(page).toContain(`${server.url}/mcp`);
    await transport.finishAuth(query.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^tso_/);

    const assistant = new Client({ name: 'assistant', version: '1.0.0' });
    await assistant.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider }));
    const { tools } = await assistant.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_workspaces', 'create_project_task', 'get_project_task', 'complete_project_task']));
    const create = tools.find((tool) => tool.name === 'create_project_task')!;
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['projectId', 'tasks']));
    expect(tools.find((tool) => tool.name === 'get_project_task')!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });

    const created = await assistant.callTool({
      name: 'create_project_task',
      arguments: { projectId, tasks: [{ contentType: 'text/plain', content: 'Made by an assistant' }] },
    });
    expect(created.isError).toBeFalsy();
    const taskId = (created.structuredContent as { item: { id: string }[] }).item[0]!.id;
    const read = await assistant.callTool({ name: 'get_project_task', arguments: { projectId, taskId } });
    expect(read.structuredContent).toMatchObject({ ok: true, item: { id: taskId, text: 'Made by an assistant' } });
    const viaRest = await rest(server, server.token).get(`/api/v1/projects/${projectId}/tasks/${taskId}`);
    expect(viaRest.body.item.text).toBe('Made by an assistant');

    const missing = await assistant.callTool({
      name: 'get_project_task',
      arguments: { projectId, taskId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('NOT_FOUND');

    const resource = await assistant.readResource({ uri: `taskspace://projects/${projectId}` });
    expect((resource.contents[0] as { text: string }).text).toBe(
      '# Launch\n\n- [ ] Write the plan\n  - [ ] Draft\n- [ ] Made by an assistant\n',
    );
    const listed = await assistant.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`taskspace://projects/${projectId}`);
    await assistant.close();
  });

  it('a read-scope token lists no write tools and gets 403 with scope="write" calling one', async () => {
    const made = await rest(server, server.token).post('/api/v1/tokens', { name: 'read only', scope: 'read' });
    const readToken = made.body.item.token as string;
    const reader = await connectWithToken(server, readToken);
    const { tools } = await reader.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((tool) => !tool.annotations?.readOnlyHint)).toEqual([]);
    await reader.close();
    const refused = await rpc(server, readToken, 'tools/call', {
      name: 'create_project_task',
      arguments: { projectId, tasks: [{ contentType: 'text/plain', content: 'no' }] },
    });
    expect(refused.status).toBe(403);
    expect(String(refused.headers['www-authenticate'])).toMatch(/error="insufficient_scope".*scope="write"/);
    expect(
      (await rest(server, server.token).get(`/api/v1/projects/${projectId}/tasks`)).body.items.map((t: { text: string }) => t.text),
    ).not.toContain('no');
  });

  it('refuses a token issued for another resource, and a resource that is not this service', async () => {
    const registered = await call(server.url, 'POST', '/oauth/register', {
      body: { client_name: 'API app', redirect_uris: [MCP_REDIRECT_URI], token_endpoint_auth_method: 'none' },
    });
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;
    const pkce = pkcePair();
    const start = (resource: string) =>
      new URL(
        server.url +
          authorizeQuery({
            response_type: 'code',
            client_id: clientId,
            redirect_uri: MCP_REDIRECT_URI,
            scope: 'read write',
            code_challenge: pkce.challenge,
            code_challenge_method: 'S256',
            resource,
          }),
      );
    const wrong = await call(
      server.url,
      'GET',
      start('https://elsewhere.example/mcp').pathname + start('https://elsewhere.example/mcp').search,
      {
        headers: { cookie },
      },
    );
    expect(wrong.status).toBe(302);
    expect(new URL(wrong.headers.location as string).searchParams.get('error')).toBe('invalid_target');

    const { query } = await approveInBrowser(server, cookie, start(`${server.url}/api`));
    const mismatched = await exchangeCode(server, {
      code: query.get('code')!,
      redirect_uri: MCP_REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
      resource: `${server.url}/mcp`,
    });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error).toBe('invalid_target');
    const issued = await exchangeCode(server, {
      code: query.get('code')!,
      redirect_uri: MCP_REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
      resource: `${server.url}/api`,
    });
    expect(issued.status).toBe(200);
    const apiToken = issued.body.access_token as string;
    expect((await rest(server, apiToken).get('/api/v1/workspaces')).status).toBe(200);
    const refused = await rpc(server, apiToken, 'tools/list', {});
    expect(refused.status).toBe(401);
    expect(refused.body.error.details.reason).toBe('wrong_audience');
    expect(String(refused.headers['www-authenticate'])).toContain('resource_metadata=');
  });

  it('refuses bad registrations in RFC 7591 form and gives a confidential client its secret once', async () => {
    const register = (body: unknown) => call(server.url, 'POST', '/oauth/register', { body });
    const http = await register({ redirect_uris: ['http://evil.example/cb'] });
    expect(http.status).toBe(400);
    expect(http.body.error).toBe('invalid_redirect_uri');
    const grant = await register({ redirect_uris: [MCP_REDIRECT_URI], grant_types: ['client_credentials'] });
    expect(grant.body).toMatchObject({ error: 'invalid_client_metadata' });
    const confidential = await register({ client_name: 'Server app', redirect_uris: ['https://app.example.org/cb'] });
    expect(confidential.status).toBe(201);
    expect(confidential.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret_expires_at: 0 });
    expect(confidential.body.client_secret).toMatch(/^tss_/);
    const listed = await rest(server, server.token).get(`/api/v1/workspaces/${server.workspaceId}/oauth-clients`);
    expect(listed.body.items.map((c: { id: string }) => c.id)).not.toContain(confidential.body.client_id);
  });

  it("a Viewer's token cannot reach another workspace's project through any tool or resource", async () => {
    const owner = rest(server, server.token);
    const other = await owner.post('/api/v1/workspaces', { name: 'Private' });
    const otherId = other.body.item.id as string;
    const secret = await owner.post('/api/v1/projects', { folderId: otherId, contentType: 'text/markdown', content: '# Secret\n- hidden' });
    const secretId = secret.body.item.id as string;
    const viewerToken = addUser(server, 'viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
    const viewer = await connectWithToken(server, viewerToken);
    const { tools } = await viewer.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('create_automation');
    const projectTools = tools.filter((t) => t.inputSchema.required?.includes('projectId'));
    expect(projectTools.length).toBeGreaterThan(10);
    const results = await Promise.all(
      projectTools.map(async (tool) => {
        const args: Record<string, unknown> = { projectId: secretId };
        for (const name of tool.inputSchema.required ?? [])
          if (!(name in args)) args[name] = name === 'tasks' ? [{ contentType: 'text/plain', content: 'x' }] : 'x';
        const result = await viewer.callTool({ name: tool.name, arguments: args });
        return { tool: tool.name, isError: result.isError, leaked: textOf(result).includes('hidden') };
      }),
    );
    expect(results).toEqual(projectTools.map((tool) => ({ tool: tool.name, isError: true, leaked: false })));
    await expect(viewer.readResource({ uri: `taskspace://projects/${secretId}` })).rejects.toThrow(/not found/);
    expect((await viewer.listResources()).resources.map((r) => r.uri)).not.toContain(`taskspace://projects/${secretId}`);
    const own = await viewer.callTool({
      name: 'create_project_task',
      arguments: { projectId, tasks: [{ contentType: 'text/plain', content: 'viewer write' }] },
    });
    expect(own.isError).toBe(true);
    expect(textOf(own)).toContain('403');
    await viewer.close();
  });
});
