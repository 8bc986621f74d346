import { isoTime } from '../../platform/clock';
import type { Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
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
}

/** The columns of {@link AgentRow}. */
export const AGENT_COLUMNS = 'id, folder_id, workspace_id, name, type, data_json, created_at, updated_at';

/** The knowledge of each agent in `agentIds` (one query): attached project and media ids, oldest first. */
function knowledgeOfAgents(db: Db, agentIds: readonly string[]): Map<string, Agent['knowledge']> {
  const byAgent = new Map<string, Agent['knowledge']>(agentIds.map((id) => [id, { projects: [], medias: [] }]));
  const rows = sql<[string], { agent_id: string; kind: 'project' | 'media'; ref_id: string }>(
    db,
    `SELECT agent_id, kind, ref_id FROM agent_knowledge
      WHERE agent_id IN (SELECT value FROM json_each(?)) ORDER BY added_at, rowid`,
  ).all(JSON.stringify(agentIds));
  for (const row of rows) {
    const knowledge = byAgent.get(row.agent_id)!;
    (row.kind === 'project' ? knowledge.projects : knowledge.medias).push(row.ref_id);
  }
  return byAgent;
}

/** The knowledge of an agent: attached project and media ids, oldest first. */
export function knowledgeOf(db: Db, agentId: string): Agent['knowledge'] {
  return knowledgeOfAgents(db, [agentId]).get(agentId)!;
}

/** The API items of agent rows, their knowledge loaded with one query. */
export function toAgents(db: Db, rows: AgentRow[]): Agent[] {
  const knowledge = knowledgeOfAgents(db, rows.map((row) => row.id));
  return rows.map((row) => toAgent(row, knowledge.get(row.id)!));
}

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
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** The stored row of an agent, or undefined. No access check: callers check first. */
export function agentRow(db: Db, agentId: string): AgentRow | undefined {
  return sql<[string], AgentRow>(db, `SELECT ${AGENT_COLUMNS} FROM agents WHERE id = ?`).get(agentId);
}

/**
 * The API item of an agent the caller has already been checked against.
 * @throws ServiceError 404 when the agent no longer exists.
 */
export function agentItem(db: Db, agentId: string): Agent {
  const row = agentRow(db, agentId);
  if (!row) throw new ServiceError(404, 'NOT_FOUND', `agent '${agentId}' not found`);
  return toAgent(row, knowledgeOf(db, row.id));
}
