import { isoTime } from '../../platform/clock';
import type { Dialect, Query, Sql } from '../../platform/db/query';
import { ServiceError } from '../../errors';
import { defaultAgentData, normalizeTone, type Agent, type AgentData } from './agent-data';

/** Agent rows as API items, with their knowledge (attached project and media ids). */

/** A row of `agents`. */
export interface AgentRow {
  id: string;
  folder_id: string;
  workspace_id: string;
  name: string;
  type: string;
  data_json: string;
  created_at: number;
  updated_at: number;
  /** Whether the agent has a public page (SQLite answers 0/1, PostgreSQL a boolean). */
  public_access: number | boolean;
}

/** The columns of {@link AgentRow}, selected `FROM agents` (unaliased: the public-page test names it). */
export const AGENT_COLUMNS =
  'id, folder_id, workspace_id, name, type, data_json, created_at, updated_at, ' +
  'EXISTS (SELECT 1 FROM public_agents pa WHERE pa.agent_id = agents.id) AS public_access';

/**
 * The query of {@link knowledgeOfAgents}, one JSON array of agent ids as its parameter. Links
 * added in the same millisecond stay in the order they were added on SQLite (`rowid`);
 * PostgreSQL rows have no insertion order, so the attached id breaks such ties there.
 */
const KNOWLEDGE_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: `SELECT agent_id, kind, ref_id FROM agent_knowledge
            WHERE agent_id IN (SELECT value FROM json_each(?)) ORDER BY added_at, rowid`,
  postgres: `SELECT agent_id, kind, ref_id FROM agent_knowledge
              WHERE agent_id IN (SELECT jsonb_array_elements_text(?::jsonb)) ORDER BY added_at, ref_id`,
};

/** The knowledge of each agent in `agentIds` (one query): attached project and media ids, oldest first. */
function* knowledgeOfAgents(q: Sql, agentIds: readonly string[]): Query<Map<string, Agent['knowledge']>> {
  const byAgent = new Map<string, Agent['knowledge']>(agentIds.map((id) => [id, { projects: [], medias: [] }]));
  const rows = yield* q.all<{ agent_id: string; kind: 'project' | 'media'; ref_id: string }>(KNOWLEDGE_SQL[q.dialect], [
    JSON.stringify(agentIds),
  ]);
  for (const row of rows) {
    const knowledge = byAgent.get(row.agent_id)!;
    (row.kind === 'project' ? knowledge.projects : knowledge.medias).push(row.ref_id);
  }
  return byAgent;
}

/** The knowledge of an agent: attached project and media ids, oldest first. */
export function* knowledgeOf(q: Sql, agentId: string): Query<Agent['knowledge']> {
  return (yield* knowledgeOfAgents(q, [agentId])).get(agentId)!;
}

/** The API items of agent rows, their knowledge loaded with one query. */
export function* toAgents(q: Sql, rows: AgentRow[]): Query<Agent[]> {
  const knowledge = yield* knowledgeOfAgents(
    q,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toAgent(row, knowledge.get(row.id)!));
}

/** The API item of an agent row with its knowledge. */
export function toAgent(row: AgentRow, knowledge: Agent['knowledge']): Agent {
  const data = { ...defaultAgentData(), ...(JSON.parse(row.data_json) as Partial<AgentData>) };
  data.tone = normalizeTone(data.tone);
  return {
    id: row.id,
    name: row.name,
    space_id: row.folder_id,
    type: row.type,
    data,
    knowledge,
    publicAccess: Boolean(row.public_access),
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** The stored row of an agent, or undefined. No access check: callers check first. */
export function agentRow(q: Sql, agentId: string): Query<AgentRow | undefined> {
  return q.get<AgentRow>(`SELECT ${AGENT_COLUMNS} FROM agents WHERE id = ?`, [agentId]);
}

/**
 * The API item of an agent the caller has already been checked against.
 * @throws ServiceError 404 when the agent no longer exists.
 */
export function* agentItem(q: Sql, agentId: string): Query<Agent> {
  const row = yield* agentRow(q, agentId);
  if (!row) throw new ServiceError(404, 'NOT_FOUND', `agent '${agentId}' not found`);
  return toAgent(row, yield* knowledgeOf(q, row.id));
}
