import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  ActionError,
  type Http,
  type McpCallResult,
  type McpClient,
  type McpServerTarget,
  type McpSession,
  type McpToolInfo,
  type ResolvedConnection,
} from '@taskspace/engine';

/** Resolves a workspace's connection (fresh OAuth2 tokens), `undefined` when there is none. */
export type ConnectionResolver = (workspaceId: string, connectionId: string) => Promise<ResolvedConnection | undefined>;

/** The client's version told to MCP servers (`clientInfo`). */
const CLIENT_VERSION = '0.1.0';

/** Most `tools/list` pages read from one server. */
const MAX_TOOL_PAGES = 10;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A WHATWG `fetch` for the SDK's transport over the engine's guarded {@link Http} port: every
 * request goes through the SSRF guard of the HTTP step, redirects are not followed, the body is
 * read whole (the answers of a Streamable HTTP POST end with the response). A `GET` (the optional
 * server-sent stream) is answered `405` here without a request: these sessions only call tools.
 */
function guardedFetch(http: Http, timeoutMs: number, signal: AbortSignal | undefined): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405 });
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const signals = [init?.signal, signal].filter((s): s is AbortSignal => !!s);
    const res = await http.request({
      method,
      url: input instanceof Request ? input.url : String(input),
      headers,
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
      timeoutMs,
      ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
    });
    return new Response(NULL_BODY_STATUSES.has(res.status) ? null : res.body, { status: res.status, headers: res.headers });
  };
}

/** The SDK's failures as step errors: HTTP answers by status, JSON-RPC errors permanent. */
function mcpError(error: unknown, url: string): unknown {
  if (error instanceof ActionError) return error;
  if (error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code >= 400) {
    const transient = error.code === 429 || error.code >= 500;
    const code = error.code === 401 || error.code === 403 ? 'MCP_UNAUTHORIZED' : 'MCP_HTTP_ERROR';
    return new ActionError(code, `${url}: ${error.message.slice(0, 500)}`, transient, { status: error.code });
  }
  if (error instanceof McpError) return new ActionError('MCP_ERROR', `${url}: ${error.message.slice(0, 500)}`, false);
  return error;
}

/** The bearer token of a connection: its secret text or OAuth2 access token. */
function connectionToken(connection: ResolvedConnection): string {
  const value = connection.value;
  const token = value.type === 'SECRET_TEXT' ? value.secret_text : value.type === 'OAUTH2' ? value.access_token : undefined;
  if (typeof token !== 'string' || token === '')
    throw new ActionError('CONNECTION_UNSUPPORTED', `the connection ${connection.name} holds no secret text or access token`, false);
  return token;
}

/**
 * The engine's {@link McpClient} port: the official SDK's `Client` over
 * `StreamableHTTPClientTransport`, its requests through the engine's guarded HTTP port (the same
 * SSRF guard and allow-list as the HTTP step: a refused target fails with the permanent
 * `BLOCKED_TARGET`). A step's `connectionId` is resolved here into the bearer token; the token is
 * never logged nor returned.
 */
export class GuardedMcpClient implements McpClient {
  constructor(
    private readonly http: Http,
    private readonly connection: ConnectionResolver,
  ) {}

  /**
   * Opens and initializes a session with `target`.
   * @throws ActionError BLOCKED_TARGET, CONNECTION_NOT_FOUND, CONNECTION_UNSUPPORTED,
   *   MCP_UNAUTHORIZED, MCP_HTTP_ERROR, MCP_ERROR; network errors.
   */
  async open(target: McpServerTarget, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpSession> {
    const headers = { ...target.headers };
    if (target.connectionId !== undefined) {
      const found = await this.connection(target.workspaceId, target.connectionId);
      if (!found) throw new ActionError('CONNECTION_NOT_FOUND', `no connection ${target.connectionId} in this workspace`, false);
      headers.authorization = `Bearer ${connectionToken(found)}`;
    }
    const transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers },
      fetch: guardedFetch(this.http, options.timeoutMs, options.signal),
    });
    const client = new Client({ name: 'taskspace-agent', version: CLIENT_VERSION });
    const request = { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
    try {
      await client.connect(transport, request);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw mcpError(error, target.url);
    }
    return {
      async listTools(): Promise<McpToolInfo[]> {
        const tools: McpToolInfo[] = [];
        let cursor: string | undefined;
        try {
          for (let page = 0; page < MAX_TOOL_PAGES; page++) {
            const listed = await client.listTools(cursor === undefined ? {} : { cursor }, request);
            for (const tool of listed.tools)
              tools.push({
                name: tool.name,
                ...(tool.description === undefined ? {} : { description: tool.description }),
                inputSchema: tool.inputSchema as Record<string, unknown>,
              });
            cursor = listed.nextCursor;
            if (cursor === undefined) break;
          }
        } catch (error) {
          throw mcpError(error, target.url);
        }
        return tools;
      },
      async callTool(name: string, args: Record<string, unknown>): Promise<McpCallResult> {
        try {
          const result = await client.callTool({ name, arguments: args }, undefined, request);
          const out: McpCallResult = { content: Array.isArray(result.content) ? result.content : [] };
          if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
          if (result.isError === true) out.isError = true;
          return out;
        } catch (error) {
          throw mcpError(error, target.url);
        }
      },
      close: () => client.close().catch(() => undefined),
    };
  }
}
