import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call } from '../helpers/server';
import { consentFields, postForm } from '../oauth/helpers';

/** Where the test's MCP client says it is redirected back (a loopback URI never opened: the test reads the redirect itself). */
export const MCP_REDIRECT_URI = 'http://127.0.0.1:9/mcp-callback';

/**
 * An MCP client's OAuth state kept in memory, as the SDK asks an app to keep it. The browser part
 * of the flow is done by {@link approveInBrowser}: `redirectToAuthorization` only records the URL.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  get redirectUrl(): string {
    return MCP_REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test assistant',
      redirect_uris: [MCP_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/**
 * Opens an authorization URL as a person's browser would, signed in with `cookie`: reads the
 * consent page, answers it with `decision` and returns the page's HTML and the redirect's query.
 */
export async function approveInBrowser(
  server: { url: string },
  cookie: string,
  url: URL,
  decision: 'allow' | 'deny' = 'allow',
): Promise<{ page: string; query: URLSearchParams }> {
  const page = await call(server.url, 'GET', url.pathname + url.search, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${String(page.body)}`);
  const html = page.body as string;
  const answer = await postForm(server, '/oauth/authorize', { ...consentFields(html), decision }, { cookie, origin: server.url });
  if (answer.status !== 302) throw new Error(`consent answer: ${answer.status} ${String(answer.body)}`);
  return { page: html, query: new URL(answer.headers.location as string).searchParams };
}

/** An SDK client connected to `/mcp` over Streamable HTTP with a static bearer token (a personal access token). */
export async function connectWithToken(server: { url: string }, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'taskspace-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A JSON-RPC POST to `/mcp`, as a raw HTTP request. */
export function rpc(server: { url: string }, token: string | null, method: string, params: unknown, headers: Record<string, string> = {}) {
  return call(server.url, 'POST', '/mcp', {
    token,
    body: { jsonrpc: '2.0', id: 1, method, params },
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
  });
}
