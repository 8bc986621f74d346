/**
 * The host's MCP client port (docs/mcp.md "MCP servers as agent tools"): how an `agent.command`
 * step reaches the MCP servers its `mcpServers` names. The engine speaks no MCP itself; the host
 * implements the port (the server: the official SDK's client over its SSRF-guarded HTTP, the same
 * guard as the HTTP step). Without one, a step naming MCP servers fails with `NOT_SUPPORTED`.
 */

/**
 * One MCP server of an agent's own settings, as the host stores it (the shape of a step's
 * `mcpServers` entry): a written-out `url`, `token` a `{{ secrets.NAME }}` reference (rendered
 * with the run's secrets when the step runs) or `connectionId`, and the `tools` allow-list.
 */
export interface AgentMcpServer {
  url: string;
  token?: string;
  connectionId?: string;
  tools?: string[];
}

/** One MCP server as a step names it, the author's templates rendered. */
export interface McpServerTarget {
  /** The server's Streamable HTTP endpoint (an absolute http(s) URL). */
  url: string;
  /** Headers sent with every request (e.g. `authorization: Bearer …` from a secret). */
  headers: Record<string, string>;
  /** A connection of the workspace whose token is sent as the bearer token (the host resolves it). */
  connectionId?: string;
  /** The run's workspace (whose connection `connectionId` is). */
  workspaceId: string;
}

/** A tool an MCP server lists (`tools/list`): its name, description and input JSON Schema. */
export interface McpToolInfo {
  name: string;
  description?: string;
  /** A JSON Schema object (`type: 'object'`). */
  inputSchema: Record<string, unknown>;
}

/** The result of one `tools/call`, as the MCP server answered it. */
export interface McpCallResult {
  /** The result's content blocks (text, images, resources…). */
  content: unknown[];
  structuredContent?: unknown;
  /** True when the tool reports an error (the call itself was answered). */
  isError?: boolean;
}

/** An initialized connection to one MCP server, for the duration of one step. */
export interface McpSession {
  /** Every tool the server lists (all pages). */
  listTools(): Promise<McpToolInfo[]>;
  /** Calls the tool `name` with `args`. Rejects on a protocol or network failure. */
  callTool(name: string, args: Record<string, unknown>): Promise<McpCallResult>;
  /** Ends the session (closes the transport). Never rejects. */
  close(): Promise<void>;
}

/** Opens sessions with MCP servers. */
export interface McpClient {
  /**
   * Connects to `target` and initializes the session.
   * @throws ActionError (e.g. BLOCKED_TARGET, permanent) when the host refuses the target; network
   *   and protocol errors.
   */
  open(target: McpServerTarget, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpSession>;
}
