import { runSync } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { requireAgent } from '../../auth/access';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { notFound, ServiceError } from '../../errors';
import type { Services } from '../../services';
import type { Agent } from './agent-data';
import { agentItem } from './records';

/**
 * Agent knowledge (spec 4.4 `/agents/{agentId}/knowledge/...`): projects and media of the
 * agent's workspace attached to it. Migration 006 removes the links of a deleted project or
 * media item (triggers), so a link never points at nothing.
 */

/** What can be attached. */
export type KnowledgeKind = 'project' | 'media';

const TABLES: Record<KnowledgeKind, 'projects' | 'media'> = { project: 'projects', media: 'media' };

/** True when a project/media item `refId` exists in `workspaceId`. */
function existsInWorkspace(db: Db, kind: KnowledgeKind, refId: string, workspaceId: string): boolean {
  return sql<[string, string]>(db, `SELECT 1 FROM ${TABLES[kind]} WHERE id = ? AND workspace_id = ?`).get(refId, workspaceId) !== undefined;
}

/** Records a change of the agent's knowledge in its `updatedAt`. */
function touch(db: Db, agentId: string, now: number): void {
  sql(db, 'UPDATE agents SET updated_at = ? WHERE id = ?').run(now, agentId);
}

/**
 * Attaches a project or media item of the agent's workspace to its knowledge. Needs
 * Collaborator. Attaching something already attached changes nothing and succeeds. A change
 * moves the agent's `updatedAt`; links dropped because their project or media was deleted do not.
 * @returns the agent after the change.
 * @throws ServiceError 404 (agent, or the project/media unknown or in another workspace), 403.
 */
export function addKnowledge(svc: Services, actor: Actor, agentId: string, kind: KnowledgeKind, refId: string): Agent {
  return transaction(svc.db, () => {
    const agent = runSync(requireAgent(svc.db.handle, actor, agentId, 'Collaborator', 'changing agent knowledge'));
    if (!existsInWorkspace(svc.db, kind, refId, agent.workspaceId)) throw notFound(kind, refId);
    const now = svc.clock.now();
    const added = sql(svc.db, 'INSERT OR IGNORE INTO agent_knowledge (agent_id, kind, ref_id, added_at) VALUES (?, ?, ?, ?)').run(agentId, kind, refId, now);
    if (added.changes > 0) touch(svc.db, agentId, now);
    return agentItem(svc.db, agentId);
  });
}

/**
 * Detaches a project or media item from an agent's knowledge. Needs Collaborator.
 * @throws ServiceError 404 (agent unknown, or `refId` not attached to it), 403.
 */
export function removeKnowledge(svc: Services, actor: Actor, agentId: string, kind: KnowledgeKind, refId: string): void {
  transaction(svc.db, () => {
    runSync(requireAgent(svc.db.handle, actor, agentId, 'Collaborator', 'changing agent knowledge'));
    const removed = sql(svc.db, 'DELETE FROM agent_knowledge WHERE agent_id = ? AND kind = ? AND ref_id = ?').run(agentId, kind, refId);
    if (removed.changes === 0) {
      throw new ServiceError(404, 'NOT_FOUND', `${kind} '${refId}' is not in the knowledge of agent '${agentId}'`);
    }
    touch(svc.db, agentId, svc.clock.now());
  });
}
