import type { Dialect, Query, Sql } from '../../platform/db/query';
import { likeClause, likeContains } from '../../platform/db/like';
import type { Actor } from '../../auth/tokens';
import { requireAgent, requireFolder } from '../../auth/access';
import { badRequest, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow, type PageRequest } from '../../platform/paging';
import { agentTemplateData } from './templates';

import {
  AGENT_LIMITS,
  defaultAgentData,
  mergeAgentData,
  DEFAULT_AGENT_TYPE,
  TEMPLATE_AGENT_TYPE,
  type AgentCreateInput,
  type AgentData,
  type AgentPatchInput,
  type Agent,
} from './agent-data';
import { AGENT_COLUMNS, agentItem, agentRow, knowledgeOf, toAgent, toAgents, type AgentRow } from './records';
import { AGENT_GENERATION_PROMPT, agentFromModel, parseModelJson } from './generation';
import { checkAgentMcpServers } from './mcp-settings';

/**
 * Agents (spec sections 2, 4.3 and 4.4; README "Agents, conversations, media and model providers"): create, generate from a
 * prompt, list, get, update (PATCH merges `data` key by key) and delete. The data rules are in
 * `agent-data.ts`, rows as items in `records.ts`, the generation prompt and answer in `generation.ts`.
 */

/** Inserts an agent row. Call inside a transaction after the access check, with its handle. */
function* insertAgent(
  svc: Services,
  tx: Sql,
  actor: Actor,
  folder: { id: string; workspaceId: string },
  name: string,
  type: string,
  data: AgentData,
): Query<Agent> {
  const now = svc.clock.now();
  const id = newId();
  yield* tx.run(
    `INSERT INTO agents (id, workspace_id, folder_id, name, type, data_json, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, folder.workspaceId, folder.id, name, type, JSON.stringify(data), actor.userId, now, now],
  );
  return yield* agentItem(tx, id);
}

/**
 * Creates an agent in a folder (spec 4.3 `POST /folders/{folderId}/agents`). Needs Collaborator.
 * `input` has passed the route schema (types, lengths, enums); this adds defaults, command ids,
 * uniqueness of command ids/names and the avatar rules.
 * @throws ServiceError 404 (folder unknown or outside the caller's workspaces), 403, 400.
 */
export function* createAgent(svc: Services, actor: Actor, folderId: string, input: AgentCreateInput, q: Sql = svc.store.sql): Query<Agent> {
  return yield* q.transaction(function* (tx) {
    const folder = yield* requireFolder(tx, actor, folderId, 'Collaborator', 'creating an agent');
    const template = input.data?.template;
    if (template && input.data?.type !== TEMPLATE_AGENT_TYPE) {
      throw badRequest('data.type', 'invalid_value', `data.type must be '${TEMPLATE_AGENT_TYPE}' when data.template is given`);
    }
    if (!template && input.data?.type === TEMPLATE_AGENT_TYPE) {
      throw badRequest('data.template', 'required', `data.template is required when data.type is '${TEMPLATE_AGENT_TYPE}'`);
    }
    let preset = template ? mergeAgentData(defaultAgentData(), agentTemplateData(template.type), 'data.template') : defaultAgentData();
    if (template?.avatar) preset = mergeAgentData(preset, { avatar: template.avatar }, 'data.template');
    const data = mergeAgentData(preset, input.data?.data, 'data.data');
    data.mcpServers = yield* checkAgentMcpServers(tx, svc, actor, folder.workspaceId, data.mcpServers, [], 'data.data.mcpServers');
    return yield* insertAgent(svc, tx, actor, folder, input.name, input.data?.type ?? DEFAULT_AGENT_TYPE, data);
  });
}

/**
 * The order of {@link listAgents}, newest first. Agents created in the same millisecond come
 * newest first by insertion on SQLite (`rowid`); PostgreSQL rows have no insertion order, so the
 * id breaks such ties there.
 */
const NEWEST_FIRST: Readonly<Record<Dialect, string>> = {
  sqlite: 'ORDER BY created_at DESC, rowid DESC',
  postgres: 'ORDER BY created_at DESC, id DESC',
};

/**
 * The agents of a folder, newest first (spec 4.3 `GET /folders/{folderId}/agents`). Needs Viewer.
 * @param page 1-based page of `limit` items.
 * @throws ServiceError 404, 403.
 */
export function* listAgents(
  svc: Services,
  actor: Actor,
  folderId: string,
  page: PageRequest,
  search?: string,
  q: Sql = svc.store.sql,
): Query<Agent[]> {
  yield* requireFolder(q, actor, folderId, 'Viewer');
  const named = search === undefined ? '' : `AND ${likeClause(q.dialect, 'name')}`;
  const rows = yield* q.all<AgentRow>(
    `SELECT ${AGENT_COLUMNS} FROM agents WHERE folder_id = ? ${named} ${NEWEST_FIRST[q.dialect]} LIMIT ? OFFSET ?`,
    [folderId, ...(search === undefined ? [] : [likeContains(search)]), ...pageWindow(page)],
  );
  return yield* toAgents(q, rows);
}

/**
 * One agent (spec 4.4 `GET /agents/{agentId}`). Needs Viewer.
 * @throws ServiceError 404 (unknown or outside the caller's workspaces).
 */
export function* getAgent(svc: Services, actor: Actor, agentId: string, q: Sql = svc.store.sql): Query<Agent> {
  yield* requireAgent(q, actor, agentId, 'Viewer');
  return yield* agentItem(q, agentId);
}

/**
 * Updates an agent (spec 4.4 `PATCH /agents/{agentId}`). Needs Collaborator. `name` replaces the
 * name; `data` merges into AgentData key by key (`commands` replaces the whole list: commands
 * sent with their `id` keep it, commands without one get a new id). An empty patch changes nothing.
 * @throws ServiceError 404, 403 (also: `mcpServers` changed below Owner), 400 (duplicate command
 *   id/name, bad avatar, bad `mcpServers`: mcp-settings.ts).
 */
export function* updateAgent(svc: Services, actor: Actor, agentId: string, patch: AgentPatchInput, q: Sql = svc.store.sql): Query<Agent> {
  return yield* q.transaction(function* (tx) {
    const access = yield* requireAgent(tx, actor, agentId, 'Collaborator', 'updating an agent');
    const row = (yield* agentRow(tx, agentId))!;
    const current = toAgent(row, yield* knowledgeOf(tx, row.id));
    if (patch.name === undefined && patch.data === undefined) return current;
    const data = mergeAgentData(current.data, patch.data, 'data');
    const servers = current.data.mcpServers;
    data.mcpServers = yield* checkAgentMcpServers(tx, svc, actor, access.workspaceId, data.mcpServers, servers, 'data.mcpServers');
    yield* tx.run('UPDATE agents SET name = ?, data_json = ?, updated_at = ? WHERE id = ?', [
      patch.name ?? row.name,
      JSON.stringify(data),
      svc.clock.now(),
      agentId,
    ]);
    return yield* agentItem(tx, agentId);
  });
}

/**
 * Deletes an agent with its knowledge links, public page and conversations
 * (spec 4.4 `DELETE /agents/{agentId}`). Needs Collaborator.
 * @throws ServiceError 404, 403.
 */
export function* deleteAgent(svc: Services, actor: Actor, agentId: string, q: Sql = svc.store.sql): Query<void> {
  yield* q.transaction(function* (tx) {
    yield* requireAgent(tx, actor, agentId, 'Collaborator', 'deleting an agent');
    yield* tx.run('DELETE FROM agents WHERE id = ?', [agentId]);
  });
}

/**
 * Generates an agent from a prompt through the model provider and creates it in the folder
 * (spec 4.3 `POST /folders/{folderId}/agent-generate`). Needs Collaborator (checked before the
 * model is called, and again when the agent is written). Async: the model is called between
 * the two storage operations.
 * @param text the description, 1..{@link AGENT_LIMITS.generationText} characters.
 * @throws ServiceError 404, 403, 400 (text), 502 UPSTREAM_ERROR (provider failure or an answer
 *   that is not a JSON object).
 */
export async function generateAgent(svc: Services, actor: Actor, folderId: string, text: string): Promise<Agent> {
  const { store } = svc;
  await store.run(requireFolder(store.sql, actor, folderId, 'Collaborator', 'generating an agent'));
  if (!text.trim()) throw badRequest('text', 'too_short', 'text must contain a description');
  if (text.length > AGENT_LIMITS.generationText)
    throw badRequest('text', 'too_long', `text is at most ${AGENT_LIMITS.generationText} characters`);
  const answer = await svc.models.complete(
    [
      { role: 'system', content: AGENT_GENERATION_PROMPT },
      { role: 'user', content: text },
    ],
    { purpose: 'agent-generation', json: true },
  );
  const raw = parseModelJson(answer.text);
  if (!raw) throw new ServiceError(502, 'UPSTREAM_ERROR', 'the model did not answer with a JSON object describing the agent');
  const { name, data } = agentFromModel(raw, text);
  return store.run(
    store.sql.transaction(function* (tx) {
      const folder = yield* requireFolder(tx, actor, folderId, 'Collaborator', 'generating an agent');
      return yield* insertAgent(svc, tx, actor, folder, name, DEFAULT_AGENT_TYPE, data);
    }),
  );
}
