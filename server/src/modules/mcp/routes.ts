import type { FastifyPluginAsync } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ServiceError } from '../../errors';
import { OAUTH_SCOPES, scopeAllows, type OAuthScope } from '../../auth/scopes';
import { mcpResource } from '../../auth/resources';
import { authenticate, challenge, refuse } from './auth';
import { createMcpServer } from './server';
import { buildTools, type ToolSpec } from './tools';
import { AUTOMATION_TOOL_PREFIX } from './automation-tools';
import { ProtectedResourceMetadata } from './schemas';

/** The version this server reports to MCP clients (`serverInfo.version`). */
export const MCP_SERVER_VERSION = '0.1.0';

/** The JSON-RPC messages of a POST body (one, or a batch). */
function messagesOf(body: unknown): { method?: unknown; params?: { name?: unknown } }[] {
  const list = Array.isArray(body) ? body : [body];
  return list.filter((message): message is { method?: unknown; params?: { name?: unknown } } => !!message && typeof message === 'object');
}

/**
 * The MCP endpoint (docs/mcp.md; MCP specification 2025-11-25, "Transports" and
 * "Authorization"), served by the official SDK's Streamable HTTP transport:
 * - `POST /mcp`: JSON-RPC, answered as JSON. Stateless: a server and a transport per request
 *   (`sessionIdGenerator: undefined`), so any process on PostgreSQL can answer any request; the
 *   SDK negotiates every protocol version it supports. A foreign `Origin` is refused 403 (DNS
 *   rebinding); the bearer token is checked ({@link authenticate}); a `tools/call` of a tool
 *   whose scope the token lacks is refused 403 with `WWW-Authenticate: Bearer
 *   error="insufficient_scope", scope="write"` before it runs.
 * - `GET /mcp`, `DELETE /mcp`: 405 (no server-sent stream, no sessions to end).
 * - `GET /.well-known/oauth-protected-resource/mcp`: Protected Resource Metadata (RFC 9728).
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  let tools: Map<string, ToolSpec> | undefined;
  // Built on first use: every route is registered by then.
  const toolMap = () => (tools ??= buildTools(app.routeCatalog));

  app.get(
    '/.well-known/oauth-protected-resource/mcp',
    { schema: { hide: true, response: { 200: ProtectedResourceMetadata } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600').header('Access-Control-Allow-Origin', '*');
      const base = svc.links.base();
      return {
        resource: mcpResource(base),
        authorization_servers: [base],
        scopes_supported: Object.keys(OAUTH_SCOPES).filter((scope) => scope !== 'webhooks'),
        bearer_methods_supported: ['header'],
        resource_name: 'Taskspace MCP server',
        resource_documentation: `${base}/docs`,
      };
    },
  );

  const notAllowed = async () => {
    throw new ServiceError(
      405,
      'METHOD_NOT_ALLOWED',
      'this MCP endpoint is stateless: POST JSON-RPC messages; it opens no event stream and has no session to end',
    );
  };
  app.get('/mcp', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Allow', 'POST');
    return notAllowed();
  });
  app.delete('/mcp', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Allow', 'POST');
    return notAllowed();
  });

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const base = svc.links.base();
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== new URL(base).origin) {
      throw new ServiceError(403, 'FORBIDDEN', `requests from the origin ${origin} are not accepted at /mcp`, {
        field: 'origin',
        reason: 'foreign_origin',
      });
    }
    const caller = await authenticate(svc, request, reply);
    if (!caller) return reply;
    const all = toolMap();
    for (const message of messagesOf(request.body)) {
      if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') continue;
      const name = message.params.name;
      // An automation's tool starts a run: it needs `write`, as every tool that changes something.
      const found = all.get(name);
      const tool: { name: string; scope: OAuthScope } | undefined =
        found ?? (name.startsWith(AUTOMATION_TOOL_PREFIX) ? { name, scope: 'write' } : undefined);
      if (!tool || !caller.actor.scopes || scopeAllows(caller.actor.scopes, tool.scope)) continue;
      return refuse(
        reply,
        new ServiceError(403, 'INSUFFICIENT_SCOPE', `the tool ${tool.name} needs the '${tool.scope}' scope, which this token lacks`, {
          field: 'authorization',
          reason: 'insufficient_scope',
          scope: tool.scope,
        }),
        challenge(base, {
          error: 'insufficient_scope',
          scope: tool.scope,
          error_description: `the tool ${tool.name} needs the '${tool.scope}' scope`,
        }),
      );
    }
    const server = createMcpServer({ app, svc, rt: app.automations }, all, caller.actor, { token: caller.token }, MCP_SERVER_VERSION);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  });
};
