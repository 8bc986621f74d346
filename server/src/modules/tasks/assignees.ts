import { runSync } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import type { Services } from '../../services';
import { checkHandleList, membersByHandle } from '../users/member-handles';
import { raiseEvent, requireTask, taskEventBase, toTask, touchTask, type Task } from './records';

/**
 * Task assignees (spec section 4.1, `.../tasks/{taskId}/assignees`). Assignees are members of
 * the project's workspace; the set is replaced by PUT and shrunk one handle at a time by DELETE.
 */

/** A member as listed among a task's assignees. */
export interface Assignee {
  handle: string;
  displayName: string;
}

/** Most handles one PUT may name. */
export const MAX_ASSIGNEES = 100;

/** The assignees of a task, ordered by handle (case-insensitive). No access check. */
export function assigneesOf(db: Db, taskId: string): Assignee[] {
  return sql<[string], Assignee>(
    db,
    `SELECT u.handle, u.display_name AS displayName FROM task_assignees a JOIN users u ON u.id = a.user_id
      WHERE a.task_id = ? ORDER BY u.handle COLLATE NOCASE`,
  ).all(taskId);
}

/**
 * Lists a task's assignees (Viewer).
 * @throws ServiceError 404 for an unknown project or task.
 */
export function listAssignees(svc: Services, actor: Actor, projectId: string, taskId: string): Assignee[] {
  const { task } = runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Viewer'));
  return assigneesOf(svc.db, task.id);
}

/**
 * Replaces a task's assignees with `handles` (Participant; an empty list unassigns everyone).
 * Handles are matched case-insensitively. Raises `task.assigned` when at least one handle was
 * added. `handles` must match `assigneesBody.handles` (schemas.ts: at most {@link MAX_ASSIGNEES}),
 * checked by the route or the engine's adapter.
 * @throws ServiceError 400 (field `handles`) for a handle named twice (`duplicate`) or a handle
 *   that is not a member of the project's workspace (`not_a_member`);
 *   404, 403, 409 as for every task write.
 */
export function setAssignees(svc: Services, actor: Actor, projectId: string, taskId: string, handles: string[]): Task {
  const { db, clock } = svc;
  checkHandleList(handles);
  return transaction(db, () => {
    const { project, task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'assigning a task' }));
    const wanted = new Map(membersByHandle(db, project.workspaceId, handles).map((user) => [user.id, user.handle]));
    const current = new Set(
      sql<[string], { userId: string }>(db, 'SELECT user_id AS userId FROM task_assignees WHERE task_id = ?')
        .all(task.id)
        .map((r) => r.userId),
    );
    const now = clock.now();
    for (const userId of current) {
      if (!wanted.has(userId)) sql(db, 'DELETE FROM task_assignees WHERE task_id = ? AND user_id = ?').run(task.id, userId);
    }
    const added: { handle: string }[] = [];
    for (const [userId, handle] of wanted) {
      if (current.has(userId)) continue;
      sql(db, 'INSERT INTO task_assignees (task_id, user_id, assigned_at) VALUES (?, ?, ?)').run(task.id, userId, now);
      added.push({ handle });
    }
    runSync(touchTask(db.handle, task.id, now));
    if (added.length > 0) {
      runSync(raiseEvent(svc.db.handle, actor, project, 'task.assigned', {
        ...taskEventBase(svc, project, task),
        assignees: assigneesOf(db, task.id),
        added,
        assignedBy: actor.handle,
      }, now));
    }
    return toTask(task);
  });
}

/**
 * Removes one assignee by handle (Participant). Idempotent: a handle that is not assigned
 * (or unknown) changes nothing.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function removeAssignee(svc: Services, actor: Actor, projectId: string, taskId: string, handle: string): Task {
  const { db, clock } = svc;
  return transaction(db, () => {
    const { task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'unassigning a task' }));
    const removed = sql(
      db,
      'DELETE FROM task_assignees WHERE task_id = ? AND user_id = (SELECT id FROM users WHERE handle = ?)',
    ).run(task.id, handle);
    if (removed.changes > 0) runSync(touchTask(db.handle, task.id, clock.now()));
    return toTask(task);
  });
}
