import type { Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { requireAgent } from '../../auth/access';
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
function* existsInWorkspace(q: Sql, kind: KnowledgeKind, refId: string, workspaceId: string): Query<boolean> {
  return (yield* q.get(`SELECT 1 AS found FROM ${TABLES[kind]} WHERE id = ? AND workspace_id = ?`, [refId, workspaceId])) !== undefined;
}

/** Records a change of the agent's knowledge in its `updatedAt`. */
function* touch(q: Sql, agentId: string, now: number): Query<void> {
  yield* q.run('UPDATE agents SET updated_at = ? WHERE id = ?', [now, agentId]);
}

/**
 * Attaches a project or media item of the agent's workspace to its knowledge. Needs
 * Collaborator. Attaching something already attached changes nothing and succeeds. A change
 * moves the agent's `updatedAt`; links dropped because their project or media was deleted do not.
 * @returns the agent after the change.
 * @throws ServiceError 404 (agent, or the project/media unknown or in another workspace), 403.
 */
export function* addKnowledge(
  svc: Services,
  actor: Actor,
  agentId: string,
  kind: KnowledgeKind,
  refId: string,
  q: Sql = svc.store.sql,
): Query<Agent> {
  return yield* q.transaction(function* (tx) {
    const agent = yield* requireAgent(tx, actor, agentId, 'Collaborator', 'changing agent knowledge');
    if (!(yield* existsInWorkspace(tx, kind, refId, agent.workspaceId))) throw notFound(kind, refId);
    const now = svc.clock.now();
    const added = yield* tx.run(
      'INSERT INTO agent_knowledge (agent_id, kind, ref_id, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, kind, ref_id) DO NOTHING',
      [agentId, kind, refId, now],
    );
    if (added.changes > 0) yield* touch(tx, agentId, now);
    return yield* agentItem(tx, agentId);
  });
}

/**
 * Detaches a project or media item from an agent's knowledge. Needs Collaborator.
 * @throws ServiceError 404 (agent unknown, or `refId` not attached to it), 403.
 */
export function* removeKnowledge(
  svc: Services,
  actor: Actor,
  agentId: string,
  kind: KnowledgeKind,
  refId: string,
  q: Sql = svc.store.sql,
): Query<void> {
  yield* q.transaction(function* (tx) {
    yield* requireAgent(tx, actor, agentId, 'Collaborator', 'changing agent knowledge');
    const removed = yield* tx.run('DELETE FROM agent_knowledge WHERE agent_id = ? AND kind = ? AND ref_id = ?', [agentId, kind, refId]);
    if (removed.changes === 0) {
      throw new ServiceError(404, 'NOT_FOUND', `${kind} '${refId}' is not in the knowledge of agent '${agentId}'`);
    }
    yield* touch(tx, agentId, svc.clock.now());
  });
}
