import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { call, client as rest, startServer, type TestServer } from '../helpers/server';
import { OWNER_PASSWORD, authorizeQuery, exchangeCode, pkcePair, signInCookie } from '../oauth/helpers';
import { makeCertificate } from '../webhooks/receiver';
import { MCP_REDIRECT_URI, MemoryOAuthProvider, approveInBrowser } from './helpers';

/** A client's metadata documents served on loopback, by path (other paths: 404). */
interface DocumentServer {
  base: string;
  /** Paths fetched, in order. */
  fetched: string[];
  serve(path: string, body: unknown, headers?: Record<string, string>): string;
  close(): Promise<void>;
}

/** Serves documents over https with `tls`, or plain http on loopback without. */
async function startDocumentServer(tls?: { key: string; cert: string }): Promise<DocumentServer> {
  const documents = new Map<string, { body: string; headers: Record<string, string> }>();
  const fetched: string[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    fetched.push(req.url ?? '');
    const doc = documents.get(req.url ?? '');
    if (!doc) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...doc.headers }).end(doc.body);
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    fetched,
    serve(path, body, headers = {}) {
      documents.set(path, { body: typeof body === 'string' ? body : JSON.stringify(body), headers });
      return base + path;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An SDK client's OAuth state that names itself by a metadata document URL (SEP-991) instead of registering. */
class DocumentOAuthProvider extends MemoryOAuthProvider {
  constructor(readonly clientMetadataUrl: string) {
    super();
  }
}

describe('OAuth: Client ID Metadata Documents (a client_id that is an https URL)', () => {
  let server: TestServer;
  let docs: DocumentServer;
  let cookie: string;
  let projectId: string;
  beforeAll(async () => {
    const certificate = makeCertificate();
    docs = await startDocumentServer(certificate);
    // The SSRF guard refuses loopback; the test lets it reach 127.0.0.1 over https with its own CA.
    server = await startServer({
      env: {
        TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD,
        TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES: '127.0.0.1',
        TASKSPACE_WEBHOOKS_CA_FILE: certificate.certFile,
      },
    });
    cookie = await signInCookie(server);
    const made = await rest(server, server.token).post('/api/v1/projects', {
      folderId: server.workspaceId,
      contentType: 'text/markdown',
      content: '# Documented\n- First',
    });
    projectId = made.body.item.id;
  });
  afterAll(async () => {
    await server.close();
    await docs.close();
  });

  /** A valid document for `path`, served; returns its URL. */
  const serveValid = (path: string, extra: Record<string, unknown> = {}) => {
    const url = `${docs.base}${path}`;
    return docs.serve(path, {
      client_id: url,
      client_name: 'Documented assistant',
      redirect_uris: [MCP_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });
  };

  /** GET /oauth/authorize for `clientId` with PKCE and the MCP resource, signed in. */
  const authorizeWith = (clientId: string, overrides: Record<string, string | undefined> = {}) =>
    call(
      server.url,
      'GET',
      authorizeQuery({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: MCP_REDIRECT_URI,
        scope: 'read write',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        resource: `${server.url}/mcp`,
        ...overrides,
      }),
      { headers: { cookie } },
    );

  it('advertises client_id_metadata_document_supported in the RFC 8414 metadata', async () => {
    const metadata = await call(server.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(metadata.body.client_id_metadata_document_supported).toBe(true);
  });

  it('the SDK client names itself by its document URL: consent says unverified with host and redirect URI, a task round-trips', async () => {
    const url = serveValid('/clients/assistant.json');
    const provider = new DocumentOAuthProvider(url);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'documented', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(url);
    const { page, query } = await approveInBrowser(server, cookie, provider.authorizationUrl!);
    expect(page).toContain('This app is unverified');
    expect(page).toContain(new URL(url).host);
    expect(page).toContain(MCP_REDIRECT_URI);
    expect(page).toContain('Documented assistant');
    // Fetched once: the consent answer used the stored copy.
    expect(docs.fetched.filter((path) => path === '/clients/assistant.json')).toHaveLength(1);
    await transport.finishAuth(query.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^tso_/);

    const assistant = new Client({ name: 'documented', version: '1.0.0' });
    await assistant.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider }));
    const created = await assistant.callTool({
      name: 'create_project_task',
      arguments: { projectId, tasks: [{ contentType: 'text/plain', content: 'Made by a documented client' }] },
    });
    expect(created.isError).toBeFalsy();
    const taskId = (created.structuredContent as { item: { id: string }[] }).item[0]!.id;
    const viaRest = await rest(server, server.token).get(`/api/v1/projects/${projectId}/tasks/${taskId}`);
    expect(viaRest.body.item.text).toBe('Made by a documented client');
    await assistant.close();
  });

  it('with plain HTTP requests: a public client, so PKCE is required; the code is bound to the verifier', async () => {
    const url = serveValid('/clients/plain.json');
    const noPkce = await authorizeWith(url, { code_challenge: undefined, code_challenge_method: undefined });
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.location as string).searchParams.get('error')).toBe('invalid_request');

    const pkce = pkcePair();
    const authorizeUrl = new URL(
      server.url +
        authorizeQuery({
          response_type: 'code',
          client_id: url,
          redirect_uri: MCP_REDIRECT_URI,
          scope: 'read',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          resource: `${server.url}/mcp`,
        }),
    );
    const { query } = await approveInBrowser(server, cookie, authorizeUrl);
    const fields = { code: query.get('code')!, redirect_uri: MCP_REDIRECT_URI, client_id: url, resource: `${server.url}/mcp` };
    const wrong = await exchangeCode(server, { ...fields, code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    // The grant is remembered: the next authorization redirects with a code at once.
    const remembered = await call(server.url, 'GET', authorizeUrl.pathname + authorizeUrl.search, { headers: { cookie } });
    expect(remembered.status).toBe(302);
    const again = new URL(remembered.headers.location as string).searchParams;
    const issued = await exchangeCode(server, { ...fields, code: again.get('code')!, code_verifier: pkce.verifier });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'read' });
    const secret = await exchangeCode(server, { ...fields, code: again.get('code')!, code_verifier: pkce.verifier, client_secret: 'x' });
    expect(secret.status).toBe(400);
    expect(secret.body.error).toBe('invalid_client');
  });

  it('uses the stored copy while fresh, and fetches again when the request names a redirect URI the copy lacks', async () => {
    const path = '/clients/evolving.json';
    const url = serveValid(path, { client_name: 'Version one' });
    const first = await authorizeWith(url);
    expect(first.status).toBe(200);
    expect(first.body).toContain('Version one');
    expect((await authorizeWith(url)).body).toContain('Version one');
    expect(docs.fetched.filter((fetched) => fetched === path)).toHaveLength(1);
    const added = 'http://127.0.0.1:9/second-callback';
    serveValid(path, { client_name: 'Version two', redirect_uris: [MCP_REDIRECT_URI, added] });
    const second = await authorizeWith(url, { redirect_uri: added });
    expect(second.status).toBe(200);
    expect(second.body).toContain('Version two');
    expect(second.body).toContain(added);
    expect(docs.fetched.filter((fetched) => fetched === path)).toHaveLength(2);
  });

  it.each([
    ['a client_id that is not the URL', '/bad/mismatch.json', (url: string) => ({ client_id: `${url}x` }), /client_id .* is not its URL/],
    [
      'a redirect_uri not listed',
      '/bad/redirect.json',
      () => ({ redirect_uris: ['http://127.0.0.1:9/other'] }),
      /redirect_uri .* is not listed/,
    ],
    ['a client_secret', '/bad/secret.json', () => ({ client_secret: 'shh' }), /must not carry a client_secret/],
    [
      'a confidential auth method',
      '/bad/method.json',
      () => ({ token_endpoint_auth_method: 'client_secret_basic' }),
      /must be &quot;none&quot;/,
    ],
  ])('refuses a document with %s: 400 invalid_client, no redirect', async (_label, path, change, reason) => {
    const url = `${docs.base}${path}`;
    serveValid(path, change(url));
    const answer = await authorizeWith(url);
    expect(answer.status).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.body).toContain('<code>invalid_client</code>');
    expect(answer.body).toMatch(reason);
  });

  it('refuses a document that is too large, not JSON, missing, or not over https: 400 invalid_client', async () => {
    const big = serveValid('/bad/big.json', { client_name: 'x'.repeat(6000) });
    const notJson = docs.serve('/bad/text.json', 'client_id=whatever');
    const cases: [string, RegExp][] = [
      [big, /larger than 5120 bytes/],
      [notJson, /is not JSON/],
      [`${docs.base}/bad/missing.json`, /answered HTTP 404/],
      [`http://127.0.0.1:${new URL(docs.base).port}/bad/plain.json`, /must use https/],
      [`${docs.base}/`, /must have a path/],
      ['https://169.254.169.254/latest/client.json', /link-local address/],
    ];
    for (const [clientId, reason] of cases) {
      const answer = await authorizeWith(clientId);
      expect({ clientId, status: answer.status }).toEqual({ clientId, status: 400 });
      expect(answer.body).toContain('<code>invalid_client</code>');
      expect(answer.body).toMatch(reason);
    }
    expect(docs.fetched).not.toContain('/bad/plain.json');
  });

  it('accepts an http document on loopback only under the SSRF guard development switch', async () => {
    const plain = await startDocumentServer();
    const insecure = await startServer({ env: { TASKSPACE_BOOTSTRAP_PASSWORD: OWNER_PASSWORD, TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1' } });
    try {
      const url = `${plain.base}/clients/local.json`;
      plain.serve('/clients/local.json', { client_id: url, client_name: 'Local client', redirect_uris: [MCP_REDIRECT_URI] });
      const page = await call(
        insecure.url,
        'GET',
        authorizeQuery({
          response_type: 'code',
          client_id: url,
          redirect_uri: MCP_REDIRECT_URI,
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
        { headers: { cookie: await signInCookie(insecure) } },
      );
      expect(page.status).toBe(200);
      expect(page.body).toContain('This app is unverified');
      expect(page.body).toContain('Local client');
      expect(plain.fetched).toEqual(['/clients/local.json']);
      // The suite's own server (switch off) refuses the same URL without fetching it.
      expect((await authorizeWith(url)).status).toBe(400);
      expect(plain.fetched).toHaveLength(1);
    } finally {
      await insecure.close();
      await plain.close();
    }
  });
});
