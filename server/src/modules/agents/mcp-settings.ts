import type { AgentMcpServer } from '@taskspace/engine';
import { requireWorkspace } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';
import { checkTargetUrl } from '../../platform/ssrf';
import type { Services } from '../../services';

/**
 * An agent's own MCP servers (docs/mcp.md "MCP servers as agent tools", "In an agent's
 * settings"): `data.mcpServers`, the shape of an `agent.command` step's `mcpServers` entries
 * (the engine's `McpServerSchema`), stored in the agent's `data_json`. What the schema cannot
 * check is checked here when they are written: a written-out URL the SSRF guard can reach, a
 * token that is a `{{ secrets.NAME }}` reference to a secret of the workspace (never a literal
 * bearer token), a connection of the workspace, one entry per URL; and changing them needs the
 * workspace's Owner role, as automations and secrets do (they send the workspace's secrets).
 */

/** Most MCP servers an agent's settings name. */
export const AGENT_MCP_SERVERS_MAX = 5;

/** A token as an agent stores it: exactly one plain secret reference. */
const SECRET_REFERENCE = /^\{\{\s*secrets\.([A-Z][A-Z0-9_]{0,63})\s*\}\}$/;

/** True when two lists of servers are the same (so that a patch resending them needs no Owner). */
function sameServers(a: readonly AgentMcpServer[], b: readonly AgentMcpServer[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Checks the `mcpServers` of an agent's data as written (`field`: the body path of the list,
 * e.g. `data.data.mcpServers`) and returns them normalised (URLs as the URL parser writes them).
 * Unchanged lists (`current`) are returned as they are without the checks.
 * @throws ServiceError 403 (a change by a member below Owner), 400 VALIDATION_ERROR naming the
 *   entry's field: reason `template_not_allowed` (a URL with `{{ }}`), `invalid_format`,
 *   `insecure_scheme`, `credentials_not_allowed`, `blocked_address` (the SSRF rules of a step's
 *   written-out URL), `duplicate` (a URL listed twice), `not_a_secret_reference` (a literal token),
 *   `unknown_secret`, `conflict` (token and connectionId), `not_found` (connection).
 */
export function* checkAgentMcpServers(
  q: Sql,
  svc: Services,
  actor: Actor,
  workspaceId: string,
  servers: readonly AgentMcpServer[],
  current: readonly AgentMcpServer[],
  field: string,
): Query<AgentMcpServer[]> {
  if (sameServers(servers, current)) return [...current];
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', "changing an agent's MCP servers");
  if (servers.length > AGENT_MCP_SERVERS_MAX)
    throw badRequest(field, 'too_many', `${field}: an agent names at most ${AGENT_MCP_SERVERS_MAX} MCP servers`);
  const seen = new Set<string>();
  const out: AgentMcpServer[] = [];
  for (const [i, server] of servers.entries()) {
    const at = `${field}[${i}]`;
    if (server.url.includes('{{') || server.url.includes('{%'))
      throw badRequest(`${at}.url`, 'template_not_allowed', `${at}.url must be written out in full (no templates)`);
    const checked = checkTargetUrl(server.url.trim(), svc.addressPolicy);
    if (!(checked instanceof URL))
      throw badRequest(
        `${at}.url`,
        checked.reason,
        `${at}.url: ${checked.message.replace(/^targetUrl/, 'the URL').replace('webhooks', 'agents')}`,
      );
    const url = checked.toString();
    if (seen.has(url)) throw badRequest(`${at}.url`, 'duplicate', `${at}.url: ${url} is listed twice`);
    seen.add(url);
    if (server.token !== undefined && server.connectionId !== undefined)
      throw badRequest(`${at}.token`, 'conflict', `${at}: give a token or a connection, not both`);
    const entry: AgentMcpServer = { url };
    if (server.token !== undefined) {
      const name = SECRET_REFERENCE.exec(server.token.trim())?.[1];
      if (!name)
        throw badRequest(
          `${at}.token`,
          'not_a_secret_reference',
          `${at}.token must be a secret reference such as {{ secrets.MCP_TOKEN }} (an agent never stores a bearer token itself)`,
        );
      const found = yield* q.get('SELECT 1 AS found FROM workspace_secrets WHERE workspace_id = ? AND name = ?', [workspaceId, name]);
      if (!found)
        throw badRequest(
          `${at}.token`,
          'unknown_secret',
          `${at}.token: the workspace has no secret ${name}; set it under Settings → Secrets first`,
        );
      entry.token = `{{ secrets.${name} }}`;
    }
    if (server.connectionId !== undefined) {
      const found = yield* q.get('SELECT 1 AS found FROM connections WHERE id = ? AND workspace_id = ?', [
        server.connectionId,
        workspaceId,
      ]);
      if (!found) throw badRequest(`${at}.connectionId`, 'not_found', `${at}.connectionId: no such connection in this workspace`);
      entry.connectionId = server.connectionId;
    }
    if (server.tools !== undefined) entry.tools = [...server.tools];
    out.push(entry);
  }
  return out;
}
