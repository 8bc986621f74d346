import type { Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
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
export function assigneesOf(q: Sql, taskId: string): Query<Assignee[]> {
  return q.all<Assignee>(
    `SELECT u.handle, u.display_name AS "displayName" FROM task_assignees a JOIN users u ON u.id = a.user_id
      WHERE a.task_id = ? ORDER BY lower(u.handle)`,
    [taskId],
  );
}

/**
 * Lists a task's assignees (Viewer).
 * @throws ServiceError 404 for an unknown project or task.
 */
export function* listAssignees(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<Assignee[]> {
  const { task } = yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  return yield* assigneesOf(q, task.id);
}

/**
 * Replaces a task's assignees with `handles` (Participant; an empty list unassigns everyone).
 * Handles are matched case-insensitively. Raises `task.assigned` when at least one handle was
 * added. `handles` must match `assigneesBody.handles` (schemas.ts: at most {@link MAX_ASSIGNEES}),
 * checked by the route or the engine's adapter.
 * @returns the task.
 * @throws ServiceError 400 (field `handles`) for a handle named twice (`duplicate`) or a handle
 *   that is not a member of the project's workspace (`not_a_member`);
 *   404, 403, 409 as for every task write.
 */
export function setAssignees(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  handles: string[],
  q: Sql = svc.store.sql,
): Query<Task> {
  checkHandleList(handles);
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'assigning a task',
    });
    const wanted = new Map((yield* membersByHandle(tx, project.workspaceId, handles)).map((user) => [user.id, user.handle]));
    const rows = yield* tx.all<{ userId: string }>('SELECT user_id AS "userId" FROM task_assignees WHERE task_id = ?', [task.id]);
    const current = new Set(rows.map((r) => r.userId));
    const now = svc.clock.now();
    for (const userId of current) {
      if (!wanted.has(userId)) yield* tx.run('DELETE FROM task_assignees WHERE task_id = ? AND user_id = ?', [task.id, userId]);
    }
    const added: { handle: string }[] = [];
    for (const [userId, handle] of wanted) {
      if (current.has(userId)) continue;
      yield* tx.run('INSERT INTO task_assignees (task_id, user_id, assigned_at) VALUES (?, ?, ?)', [task.id, userId, now]);
      added.push({ handle });
    }
    yield* touchTask(tx, task.id, now);
    if (added.length > 0) {
      yield* raiseEvent(
        tx,
        actor,
        project,
        'task.assigned',
        {
          ...taskEventBase(svc, project, task),
          assignees: yield* assigneesOf(tx, task.id),
          added,
          assignedBy: actor.handle,
        },
        now,
      );
    }
    return toTask(task);
  });
}

/**
 * Removes one assignee by handle, matched case-insensitively (Participant). Idempotent: a
 * handle that is not assigned (or unknown) changes nothing.
 * @returns the task.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function removeAssignee(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  handle: string,
  q: Sql = svc.store.sql,
): Query<Task> {
  return q.transaction(function* (tx) {
    const { task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'unassigning a task' });
    const removed = yield* tx.run(
      'DELETE FROM task_assignees WHERE task_id = ? AND user_id = (SELECT id FROM users WHERE lower(handle) = lower(?))',
      [task.id, handle],
    );
    if (removed.changes > 0) yield* touchTask(tx, task.id, svc.clock.now());
    return toTask(task);
  });
}
