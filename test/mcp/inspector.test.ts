import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { client as rest, startServer, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, signInCookie } from '../oauth/helpers';
import { MemoryOAuthProvider, approveInBrowser } from './helpers';

/** The MCP Inspector's command-line entry point (`@modelcontextprotocol/inspector-cli`, a dev dependency). */
const INSPECTOR_BUILD = join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');
const INSPECTOR = join(INSPECTOR_BUILD, 'cli.js');

/** What one Inspector run ended with. */
interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the MCP Inspector in CLI mode against the server's `/mcp` over Streamable HTTP with a
 * bearer token, as a child process (asynchronously: the server runs in this process). It runs in
 * its build folder: 1.0.3 looks for its own package.json relative to the working directory.
 */
function inspect(server: { url: string }, token: string, ...args: string[]): Promise<InspectorRun> {
  const argv = [INSPECTOR, '--cli', `${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { cwd: INSPECTOR_BUILD, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The JSON an Inspector run printed on stdout; fails the test with its stderr when it did not succeed. */
function output(run: InspectorRun): any {
  if (run.code !== 0) throw new Error(`inspector exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** A token through the whole OAuth flow (RFC 7591 registration, code with PKCE and resource), as the SDK client runs it. */
async function oauthToken(server: TestServer, cookie: string): Promise<string> {
  const provider = new MemoryOAuthProvider();
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
  await expect(new Client({ name: 'inspector-setup', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${server.url}/mcp`);
  const { query } = await approveInBrowser(server, cookie, provider.authorizationUrl!);
  await transport.finishAuth(query.get('code')!);
  const token = provider.saved?.access_token;
  if (!token) throw new Error('no access token');
  return token;
}

/** Each Inspector run starts two Node processes; a test makes up to four runs. */
jest.setTimeout(120_000);

describe('MCP endpoint: the MCP Inspector (CLI mode) as a second client', () => {
  let server: TestServer;
  let cookie: string;
  let projectId: string;
  beforeAll(async () => {
    server = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD } });
    cookie = await signInCookie(server);
    const made = await rest(server, server.token).post('/api/v1/projects', {
      folderId: server.workspaceId,
      contentType: 'text/markdown',
      content: '# Inspected\n- First',
    });
    projectId = made.body.item.id;
  });
  afterAll(() => server.close());

  /** Lists tools, creates a task, reads it back with `token`, and checks REST sees it. */
  async function roundTrip(token: string, text: string): Promise<void> {
    const listed = output(await inspect(server, token, '--method', 'tools/list'));
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['create_project_task', 'get_project_task', 'list_workspaces']));

    const created = output(
      await inspect(
        server,
        token,
        '--method',
        'tools/call',
        '--tool-name',
        'create_project_task',
        '--tool-arg',
        `projectId=${projectId}`,
        `tasks=${JSON.stringify([{ contentType: 'text/plain', content: text }])}`,
      ),
    );
    expect(created.isError).toBeFalsy();
    const taskId = created.structuredContent.item[0].id as string;

    const read = output(
      await inspect(
        server,
        token,
        '--method',
        'tools/call',
        '--tool-name',
        'get_project_task',
        '--tool-arg',
        `projectId=${projectId}`,
        `taskId=${taskId}`,
      ),
    );
    expect(read.structuredContent).toMatchObject({ ok: true, item: { id: taskId, text } });
    const viaRest = await rest(server, server.token).get(`/api/v1/projects/${projectId}/tasks/${taskId}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.item.text).toBe(text);
  }

  it('with an OAuth access token (code + PKCE + resource): lists tools, creates a task and reads it back; REST sees it', async () => {
    const token = await oauthToken(server, cookie);
    expect(token).toMatch(/^tso_/);
    await roundTrip(token, 'Made through the Inspector (OAuth)');
  });

  it('with a personal access token: the same round trip', async () => {
    const made = await rest(server, server.token).post('/api/v1/tokens', { name: 'inspector', scope: 'write' });
    expect(made.status).toBe(200);
    await roundTrip(made.body.item.token as string, 'Made through the Inspector (PAT)');
  });

  it('with a read-scope token: lists only read tools, and a write tool call fails with the 403 scope error', async () => {
    const made = await rest(server, server.token).post('/api/v1/tokens', { name: 'inspector read', scope: 'read' });
    const readToken = made.body.item.token as string;
    const listed = output(await inspect(server, readToken, '--method', 'tools/list'));
    expect(listed.tools.length).toBeGreaterThan(10);
    expect((listed.tools as { annotations?: { readOnlyHint?: boolean } }[]).filter((tool) => !tool.annotations?.readOnlyHint)).toEqual([]);

    const refused = await inspect(
      server,
      readToken,
      '--method',
      'tools/call',
      '--tool-name',
      'create_project_task',
      '--tool-arg',
      `projectId=${projectId}`,
      `tasks=${JSON.stringify([{ contentType: 'text/plain', content: 'refused' }])}`,
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('"code":"INSUFFICIENT_SCOPE"');
    expect(refused.stderr).toContain('"statusMessage":"Forbidden"');
    expect(refused.stderr).toContain('"reason":"insufficient_scope","scope":"write"');
    const tasks = await rest(server, server.token).get(`/api/v1/projects/${projectId}/tasks`);
    expect(tasks.body.items.map((task: { text: string }) => task.text)).not.toContain('refused');
  });
});
