import type { Query, Sql } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest, notFound } from '../../errors';
import { appendEvent } from '../events/outbox';
import type { Services } from '../../services';
import { checkHandleList, membersByHandle } from '../users/member-handles';

/**
 * Explicit project membership (`PUT /api/v1/projects/{projectId}/members`,
 * `DELETE .../members/{handle}`; README "Events and webhooks", "Project members").
 *
 * Workspace members can already see every project of the workspace; explicit membership records
 * who is assigned to / has joined a project, and raises:
 * - `project.assigned` for each handle newly added by someone else;
 * - `project.joined` when the caller adds themself.
 * Roles: adding only yourself needs Participant; adding anyone else needs Collaborator.
 * Removing yourself needs Participant; removing someone else needs Collaborator.
 * A completed project refuses changes (409 PROJECT_COMPLETED).
 */

/** Most handles in one request. */
export const MAX_MEMBER_HANDLES = 100;

/** An explicit project member (spec section 2, Member). */
export interface ExplicitProjectMember {
  handle: string;
  displayName: string;
}

/** The explicit members of a project, ordered by handle (case-insensitive). No access check (callers check first). */
export function explicitProjectMembers(q: Sql, projectId: string): Query<ExplicitProjectMember[]> {
  return q.all<ExplicitProjectMember>(
    `SELECT u.handle, u.display_name AS "displayName" FROM project_members pm JOIN users u ON u.id = pm.user_id
      WHERE pm.project_id = ? ORDER BY lower(u.handle)`,
    [projectId],
  );
}

/**
 * Adds workspace members to a project. Handles already members are left as they are (no event).
 * @returns the project's explicit members after the change.
 * @throws ServiceError 400 (field `handles`: `too_few`, `too_many`, `duplicate`, `not_a_member`
 *   for a handle that is unknown or not in the project's workspace); 404 / 403 / 409.
 */
export function addProjectMembers(
  svc: Services,
  actor: Actor,
  projectId: string,
  handles: string[],
  q: Sql = svc.store.sql,
): Query<ExplicitProjectMember[]> {
  if (handles.length === 0) throw badRequest('handles', 'too_few', 'handles must name at least one member');
  if (handles.length > MAX_MEMBER_HANDLES) throw badRequest('handles', 'too_many', `at most ${MAX_MEMBER_HANDLES} handles`);
  checkHandleList(handles);
  const onlySelf = handles.every((h) => h.toLowerCase() === actor.handle.toLowerCase());
  return q.transaction(function* (tx) {
    const project = yield* requireProject(tx, actor, projectId, onlySelf ? 'Participant' : 'Collaborator', {
      mutation: true,
      action: onlySelf ? 'joining a project' : 'adding project members',
    });
    const now = svc.clock.now();
    const users = yield* membersByHandle(tx, project.workspaceId, handles);
    const base = {
      projectId: project.id,
      projectTitle: project.name,
      projectLink: svc.links.project(project.id),
      folderId: project.folderId,
    };
    for (const user of users) {
      const { changes: added } = yield* tx.run(
        'INSERT INTO project_members (project_id, user_id, added_by, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [project.id, user.id, actor.userId, now],
      );
      if (added === 0) continue;
      const self = user.id === actor.userId;
      yield* appendEvent(
        tx,
        {
          type: self ? 'project.joined' : 'project.assigned',
          workspaceId: project.workspaceId,
          payload: self
            ? { ...base, handle: user.handle, displayName: user.displayName }
            : { ...base, handle: user.handle, displayName: user.displayName, assignedBy: actor.handle },
          depth: actor.depth,
          causedBy: actor.cause,
        },
        now,
      );
    }
    return yield* explicitProjectMembers(tx, project.id);
  });
}

/**
 * Removes one explicit member, named by handle (matched case-insensitively; no event).
 * @throws ServiceError 404 when the project is hidden or the handle is not an explicit member; 403 / 409.
 */
export function removeProjectMember(svc: Services, actor: Actor, projectId: string, handle: string, q: Sql = svc.store.sql): Query<void> {
  const self = handle.toLowerCase() === actor.handle.toLowerCase();
  return q.transaction(function* (tx) {
    const project = yield* requireProject(tx, actor, projectId, self ? 'Participant' : 'Collaborator', {
      mutation: true,
      action: self ? 'leaving a project' : 'removing project members',
    });
    const { changes: removed } = yield* tx.run(
      'DELETE FROM project_members WHERE project_id = ? AND user_id = (SELECT id FROM users WHERE lower(handle) = lower(?))',
      [project.id, handle],
    );
    if (removed === 0) throw notFound('project member', handle);
  });
}
