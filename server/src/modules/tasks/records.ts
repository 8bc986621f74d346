import { PROJECT_ACCESS_COLUMNS, projectAccessFromRow, type ProjectAccess, type ProjectAccessRow } from '../../auth/access';
import type { Role } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { badRequest, notFound } from '../../errors';
import { appendEvent, type EventType, type NewEvent } from '../events/outbox';
import type { Services } from '../../services';
import { TASK_COLUMNS, taskColumns, taskRowOf, toTask, type Block, type Task, type TaskRow } from './item';

/**
 * What every task module shares (spec section 4.1): the Task item (declared in `item.ts`), the
 * task lookup with its access check, single-line text checks and the context of task events.
 */

export { TASK_COLUMNS, toTask, type Block, type Task, type TaskRow };

/** The task `taskId` of `projectId`, or undefined (also for a task of another project). */
export function findTask(q: Sql, projectId: string, taskId: string): Query<TaskRow | undefined> {
  return q.get<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ? AND project_id = ?`, [taskId, projectId]);
}

/** The task columns {@link requireTask} joins to the project row, each named `task.<property>` (all null when the task is missing). */
const JOINED_TASK_COLUMNS = taskColumns('t', 'task.');

/** A task together with its project, after the access check. */
export interface TaskAccess {
  project: ProjectAccess;
  task: TaskRow;
}

/**
 * Checks the caller's access to the project (role at least `min`; with `mutation`, the project
 * must not be completed) and loads the task.
 * @throws ServiceError 404 for an unknown project or task (or a task of another project, or a
 *   project outside the caller's workspaces), 403 when the role is too low, 409
 *   PROJECT_COMPLETED for a write on a completed project.
 */
export function* requireTask(
  q: Sql,
  actor: Actor,
  projectId: string,
  taskId: string,
  min: Role,
  opts: { mutation?: boolean; action?: string } = {},
): Query<TaskAccess> {
  // One query for the project, the caller's role and the task: every task route's hot path.
  const row = yield* q.get<ProjectAccessRow & Record<string, unknown>>(
    `SELECT ${PROJECT_ACCESS_COLUMNS}, ${JOINED_TASK_COLUMNS}
       FROM projects p
       LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?
       LEFT JOIN tasks t ON t.id = ? AND t.project_id = p.id
      WHERE p.id = ?`,
    [actor.userId, taskId, projectId],
  );
  const project = projectAccessFromRow(row, projectId, min, opts);
  const task = taskRowOf(row!, 'task.');
  if (!task) throw notFound('task', taskId);
  return { project, task };
}

/** Marks a task as changed now (ms since the epoch). */
export function* touchTask(q: Sql, taskId: string, now: number): Query<void> {
  yield* q.run('UPDATE tasks SET updated_at = ? WHERE id = ?', [now, taskId]);
}

/**
 * The length of `text` in characters as the route schemas count them (Unicode code points, so
 * an emoji made of a surrogate pair is one character).
 */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Checks a text the way the route schemas do (`singleLine(max)`; with `multiline`, line breaks
 * are allowed), for callers that do not come through HTTP (the automation engine).
 * @throws ServiceError 400 with reason `invalid_type`, `too_short`, `too_long` (over `max`
 *   characters, counted as {@link characterCount}) or `contains_line_break`.
 */
export function checkText(field: string, value: string, max: number, opts: { multiline?: boolean } = {}): void {
  if (typeof value !== 'string') throw badRequest(field, 'invalid_type', `${field} must be a string`);
  if (value.length < 1) throw badRequest(field, 'too_short', `${field} must not be empty`);
  if (value.length > max && characterCount(value) > max) throw badRequest(field, 'too_long', `${field} must be at most ${max} characters`);
  if (!opts.multiline && /[\r\n]/.test(value)) {
    throw badRequest(field, 'contains_line_break', `${field} must not contain line breaks (CR or LF)`);
  }
}

/** The keys every task event payload starts with (README "Events and webhooks"). */
export interface TaskEventBase {
  projectId: string;
  projectTitle: string;
  projectLink: string;
  nodeId: string;
  nodeText: string;
}

/** `{projectId, projectTitle, projectLink, nodeId, nodeText}` for a task of a project. */
export function taskEventBase(svc: Services, project: ProjectAccess, task: { id: string; text: string }): TaskEventBase {
  return {
    projectId: project.id,
    projectTitle: project.name,
    projectLink: svc.links.project(project.id),
    nodeId: task.id,
    nodeText: task.text,
  };
}

/**
 * Appends a task event to the outbox of the project's workspace, carrying the actor's
 * automation depth and cause (the automation and run whose step acts). Call inside the
 * transaction of the change.
 */
export function* raiseEvent(q: Sql, actor: Actor, project: ProjectAccess, type: EventType, payload: object, now: number): Query<void> {
  yield* appendEvent(q, taskEvent(actor, project, type, payload), now);
}

/** A task event of the project's workspace, carrying the actor's automation depth and cause (see {@link raiseEvent}). */
export function taskEvent(actor: Actor, project: ProjectAccess, type: EventType, payload: object): NewEvent {
  return { type, workspaceId: project.workspaceId, payload: payload as Record<string, unknown>, depth: actor.depth, causedBy: actor.cause };
}
