import { runSync } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
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

/** The explicit members of a project, ordered by handle. No access check (callers check first). */
export function explicitProjectMembers(svc: Services, projectId: string): ExplicitProjectMember[] {
  return sql<[string], ExplicitProjectMember>(
    svc.db,
    `SELECT u.handle, u.display_name AS displayName FROM project_members pm JOIN users u ON u.id = pm.user_id
      WHERE pm.project_id = ? ORDER BY u.handle COLLATE NOCASE`,
  ).all(projectId);
}

/**
 * Adds workspace members to a project. Handles already members are left as they are (no event).
 * @returns the project's explicit members after the change.
 * @throws ServiceError 400 (field `handles`: `too_few`, `too_many`, `duplicate`, `not_a_member`
 *   for a handle that is unknown or not in the project's workspace); 404 / 403 / 409.
 */
export function addProjectMembers(svc: Services, actor: Actor, projectId: string, handles: string[]): ExplicitProjectMember[] {
  if (handles.length === 0) throw badRequest('handles', 'too_few', 'handles must name at least one member');
  if (handles.length > MAX_MEMBER_HANDLES) throw badRequest('handles', 'too_many', `at most ${MAX_MEMBER_HANDLES} handles`);
  checkHandleList(handles);
  const onlySelf = handles.every((h) => h.toLowerCase() === actor.handle.toLowerCase());
  const { db } = svc;
  return transaction(db, () => {
    const project = runSync(requireProject(db.handle, actor, projectId, onlySelf ? 'Participant' : 'Collaborator', {
      mutation: true,
      action: onlySelf ? 'joining a project' : 'adding project members',
    }));
    const now = svc.clock.now();
    const users = membersByHandle(db, project.workspaceId, handles);
    const base = { projectId: project.id, projectTitle: project.name, projectLink: svc.links.project(project.id), folderId: project.folderId };
    for (const user of users) {
      const added = sql(
        db,
        'INSERT INTO project_members (project_id, user_id, added_by, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(project.id, user.id, actor.userId, now).changes;
      if (added === 0) continue;
      const self = user.id === actor.userId;
      runSync(appendEvent(db.handle,
        {
          type: self ? 'project.joined' : 'project.assigned',
          workspaceId: project.workspaceId,
          payload: self
            ? { ...base, handle: user.handle, displayName: user.displayName }
            : { ...base, handle: user.handle, displayName: user.displayName, assignedBy: actor.handle },
          depth: actor.depth,
        },
        now,
      ));
    }
    return explicitProjectMembers(svc, project.id);
  });
}

/**
 * Removes one explicit member (no event).
 * @throws ServiceError 404 when the project is hidden or the handle is not an explicit member; 403 / 409.
 */
export function removeProjectMember(svc: Services, actor: Actor, projectId: string, handle: string): void {
  const self = handle.toLowerCase() === actor.handle.toLowerCase();
  const { db } = svc;
  transaction(db, () => {
    const project = runSync(requireProject(db.handle, actor, projectId, self ? 'Participant' : 'Collaborator', {
      mutation: true,
      action: self ? 'leaving a project' : 'removing project members',
    }));
    const removed = sql(
      db,
      'DELETE FROM project_members WHERE project_id = ? AND user_id = (SELECT id FROM users WHERE handle = ?)',
    ).run(project.id, handle).changes;
    if (removed === 0) throw notFound('project member', handle);
  });
}
