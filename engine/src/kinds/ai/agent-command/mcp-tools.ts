/**
 * MCP servers as tools of an `agent.command` step (docs/mcp.md "MCP servers as agent tools"):
 * the step's `mcpServers` names Streamable HTTP MCP servers; when the step runs, the host's MCP
 * client ({@link McpClient}, through the same SSRF guard as the HTTP step) opens a session with
 * each, lists its tools (those of the `tools` allow-list when given) and offers them to the model
 * next to the step's own `tools`. A call the model makes goes to the server (`tools/call`) and its
 * result back to the model; every call is journalled in the step's `toolCalls` like the others.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ActionError, permanent } from '../../../errors';
import type { McpCallResult, McpClient, McpServerTarget, McpSession } from '../../../mcp-client';
import type { AgentToolDefinition } from '../../../ports';
import { redactHeaders } from '../../../redaction';
import type { Scope, Templates } from '../../../templates';
import type { ActionContext } from '../../executor';
import { Template } from '../../parts';

/** Time limit of opening one MCP session or of one MCP tool call, in ms. */
const MCP_TIMEOUT_MS = 30_000;
/** Most tools one step offers the model from its MCP servers. */
export const MAX_MCP_TOOLS = 128;
/** An MCP tool name as the allow-list names it (MCP: 1 to 128 characters). */
const TOOL_NAME = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.\\-/]+$', title: 'Tool' });

/**
 * One MCP server entry (TypeBox, with the builder's annotations): of an `agent.command` step's
 * `mcpServers`, and of an agent's own settings (the server's agents routes reuse it).
 */
export const McpServerSchema = Type.Object(
  {
    url: Template({
      title: 'Server URL',
      minLength: 1,
      description: "The MCP server's Streamable HTTP endpoint, e.g. `https://tasks.example.com/mcp`.",
    }),
    token: Type.Optional(
      Template({
        title: 'Bearer token',
        minLength: 1,
        description: 'Sent as `Authorization: Bearer …` (a template; use `{{ secrets.NAME }}`: the model and the journal never see it).',
      }),
    ),
    connectionId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        title: 'Connection',
        description: 'A connection of the workspace whose secret text or OAuth2 access token is the bearer token (instead of `token`).',
      }),
    ),
    tools: Type.Optional(
      Type.Array(TOOL_NAME, {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        title: 'Allowed tools',
        description: 'The only tools of the server the model may call (absent: every tool it lists).',
      }),
    ),
  },
  { additionalProperties: false, title: 'MCP server' },
);

/** The `mcpServers` field of an `agent.command` step (TypeBox, with the builder's annotations). */
export const McpServersSchema = Type.Array(McpServerSchema, {
  minItems: 1,
  maxItems: 5,
  title: 'MCP servers',
  description: 'MCP servers whose tools the model may call.',
});

/** One entry of `mcpServers` as written in a definition. */
export type McpServerConfig = Static<typeof McpServerSchema>;

/** An MCP server with the author's templates rendered. */
export interface PreparedMcpServer {
  url: string;
  headers: Record<string, string>;
  connectionId?: string;
  tools?: string[];
}

/**
 * Renders `mcpServers` (`mcpServers[i].url`, `.token`; `list` names the field: `agent.mcpServers`
 * for an agent's own servers).
 * @throws ActionError INVALID_INPUT for a URL that is not absolute http(s), a token with a line
 *   break, or both `token` and `connectionId`; a template error.
 */
export function prepareMcpServers(servers: McpServerConfig[], s: Scope, t: Templates, list = 'mcpServers'): PreparedMcpServer[] {
  return servers.map((server, i) => {
    const field = `${list}[${i}]`;
    const url = t.render(server.url, s, `${field}.url`).trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      throw permanent('INVALID_INPUT', `${field}.url must be an absolute http(s) URL`, { field: `${field}.url` });
    if (server.token !== undefined && server.connectionId !== undefined)
      throw permanent('INVALID_INPUT', `${field}: give a token or a connection, not both`, { field: `${field}.token` });
    const headers: Record<string, string> = {};
    if (server.token !== undefined) {
      const token = t.render(server.token, s, `${field}.token`).trim();
      if (/[\r\n]/.test(token))
        throw permanent('INVALID_INPUT', `${field}.token must not contain line breaks`, { field: `${field}.token` });
      if (token !== '') headers.authorization = `Bearer ${token}`;
    }
    return {
      url: parsed.toString(),
      headers,
      ...(server.connectionId === undefined ? {} : { connectionId: server.connectionId }),
      ...(server.tools === undefined ? {} : { tools: server.tools }),
    };
  });
}

/**
 * The MCP servers of the agent's own settings (the host's `agentMcpServers`), rendered like a
 * step's (`agent.mcpServers[i]`: the token's `{{ secrets.NAME }}` with the run's secrets), without
 * those whose URL one of the step's `own` servers has: the step's entry wins.
 * @throws what the host and {@link prepareMcpServers} throw.
 */
export async function agentMcpServers(ctx: ActionContext, agentId: string, own: PreparedMcpServer[]): Promise<PreparedMcpServer[]> {
  const listed = ctx.service.agentMcpServers ? await ctx.service.agentMcpServers(ctx.serviceContext, agentId) : [];
  if (listed.length === 0) return [];
  const taken = new Set(own.map((server) => server.url));
  return prepareMcpServers(listed, ctx.scope, ctx.templates, 'agent.mcpServers').filter((server) => !taken.has(server.url));
}

/** The servers as journalled (the bearer token redacted). */
export function journalMcpServers(servers: PreparedMcpServer[]): unknown[] {
  return servers.map((server) => ({ ...server, headers: redactHeaders(server.headers) }));
}

/** A tool beyond the step's own kinds (an MCP server's): what the model sees and how a call runs. */
export interface ExtraTool {
  definition: AgentToolDefinition;
  /** Runs a call whose arguments are an object; rejects with an {@link ActionError} for a failed call. */
  run(args: Record<string, unknown>): Promise<unknown>;
}

/** The MCP servers' tools of one step and the sessions to close when it ends. */
export interface OpenedMcpTools {
  tools: ExtraTool[];
  close(): Promise<void>;
}

/** The function name the model sees for an MCP tool (OpenAI allows `[A-Za-z0-9_-]{1,64}`). */
export function modelToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

function textOf(result: McpCallResult): string {
  const texts = result.content
    .map((block) =>
      block && typeof block === 'object' && (block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text) : '',
    )
    .filter((text) => text !== '');
  return texts.join('\n').slice(0, 2000) || 'the tool reported an error';
}

function toolOf(session: McpSession, serverUrl: string, name: string, definition: AgentToolDefinition): ExtraTool {
  return {
    definition,
    async run(args) {
      const result = await session.callTool(name, args);
      if (result.isError) throw new ActionError('MCP_TOOL_ERROR', `${name} on ${serverUrl}: ${textOf(result)}`, false);
      return {
        content: result.content,
        ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
      };
    },
  };
}

/**
 * Opens a session with each server and lists its tools, for the model, named by
 * {@link modelToolName}.
 * @param taken the names of the step's own tools.
 * @throws ActionError NOT_SUPPORTED without an MCP client; MCP_TOOL_NOT_FOUND (permanent) when
 *   a server lacks an allow-listed tool; DUPLICATE_TOOL (permanent) when two tools get one name;
 *   what the client throws (BLOCKED_TARGET for a target the SSRF guard refuses). Sessions opened
 *   before a failure are closed.
 */
export async function openMcpTools(ctx: ActionContext, servers: PreparedMcpServer[], taken: string[]): Promise<OpenedMcpTools> {
  const client: McpClient | undefined = ctx.mcp;
  if (!client) throw permanent('NOT_SUPPORTED', 'this host has no MCP client (mcpServers)');
  const sessions: McpSession[] = [];
  const close = async () => {
    await Promise.all(sessions.map((session) => session.close()));
  };
  const names = new Set(taken);
  const tools: ExtraTool[] = [];
  try {
    for (const [i, server] of servers.entries()) {
      const target: McpServerTarget = { url: server.url, headers: server.headers, workspaceId: ctx.run.workspaceId };
      if (server.connectionId !== undefined) target.connectionId = server.connectionId;
      const session = await client.open(target, { timeoutMs: MCP_TIMEOUT_MS, ...(ctx.signal ? { signal: ctx.signal } : {}) });
      sessions.push(session);
      const listed = await session.listTools();
      const allowed = server.tools ?? listed.map((tool) => tool.name);
      for (const name of allowed) {
        const tool = listed.find((candidate) => candidate.name === name);
        if (!tool) throw permanent('MCP_TOOL_NOT_FOUND', `${server.url} lists no tool '${name}'`, { field: `mcpServers[${i}].tools` });
        const modelName = modelToolName(tool.name);
        if (names.has(modelName))
          throw permanent('DUPLICATE_TOOL', `two tools are named '${modelName}' (mcpServers[${i}]: use its tools allow-list)`, {
            field: `mcpServers[${i}].tools`,
          });
        names.add(modelName);
        const definition = { name: modelName, description: tool.description ?? tool.name, parameters: tool.inputSchema };
        tools.push(toolOf(session, server.url, tool.name, definition));
      }
    }
    if (tools.length > MAX_MCP_TOOLS)
      throw permanent(
        'TOO_MANY_TOOLS',
        `the MCP servers offer ${tools.length} tools, at most ${MAX_MCP_TOOLS} (use the tools allow-lists)`,
      );
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close };
}
