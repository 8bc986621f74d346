import type { Dialect, Query, Sql } from '../../platform/db/query';
import { likeClause, likeContains } from '../../platform/db/like';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import { badRequest } from '../../errors';
import type { Services } from '../../services';
import { assigneesOf } from './assignees';
import { raiseTaskUpdated, raiseTasksDeleted, taskSnapshot } from './change-events';
import { captureDeletedSubtree } from './trash-capture';
import { checkPageLimit, CURSOR_DEFAULT_LIMIT } from '../../platform/paging';
import { bytewise, moveSubtree, subtreeEnd } from './tree';
import type { MoveTarget, TaskContent } from './schemas';
import { findTask, raiseEvent, requireTask, taskEventBase, toTask, touchTask, type Block, type Task, type TaskRow } from './records';
import { TASK_COLUMNS, toBlock } from './item';

/**
 * Tasks (spec section 4.1) and the two cursor lists of a project (section 4.2: blocks and
 * tasks). A project is a tree of tasks; top-level tasks are blocks. Writes need the
 * Participant role and an uncompleted project; reads need Viewer.
 */

export { CONTENT_TYPES, MAX_CONTENT_LENGTH, MAX_TASKS_PER_CREATE, type ContentType } from './limits';
export { createTasks } from './create';

/** A page request of a cursor list: at most `limit` items after or before a task id (not both). */
export interface Cursor {
  limit?: number;
  after?: string;
  before?: string;
}

/**
 * Filters of the task list, combined with AND: `search` (text contains, case-insensitive),
 * `completed`, `assignee` (handle, `@` optional), `dueBefore` (due strictly before) and
 * `dueAfter` (due at or after), both ISO 8601 dates or date-times (a date is its midnight UTC).
 */
export interface TaskFilter {
  search?: string;
  completed?: boolean;
  assignee?: string;
  dueBefore?: string;
  dueAfter?: string;
}

/** The SQL conditions and parameters of a task filter for `dialect` (an empty string when none is set). */
function filterClause(dialect: Dialect, filter: TaskFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.search !== undefined) {
    parts.push(likeClause(dialect, 'text'));
    params.push(likeContains(filter.search));
  }
  if (filter.completed !== undefined) {
    parts.push('completed = ?');
    params.push(filter.completed ? 1 : 0);
  }
  if (filter.assignee !== undefined) {
    parts.push(
      'EXISTS (SELECT 1 FROM task_assignees a JOIN users u ON u.id = a.user_id WHERE a.task_id = tasks.id AND lower(u.handle) = lower(?))',
    );
    params.push(filter.assignee.replace(/^@/, ''));
  }
  if (filter.dueBefore !== undefined) {
    parts.push('due_at < ?');
    params.push(Date.parse(filter.dueBefore));
  }
  if (filter.dueAfter !== undefined) {
    parts.push('due_at >= ?');
    params.push(Date.parse(filter.dueAfter));
  }
  return { sql: parts.map((p) => `AND ${p}`).join(' '), params };
}

/**
 * One task (Viewer).
 * @throws ServiceError 404 for an unknown project or task.
 */
export function* getTask(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<Task> {
  return toTask((yield* requireTask(q, actor, projectId, taskId, 'Viewer')).task);
}

/**
 * Replaces a task's content (Participant). `input` must match `updateTaskBody` (schemas.ts),
 * checked by the route or the engine's adapter. Raises `task.updated` (changed `text`) when the
 * text changed.
 * @returns the updated task.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function updateTask(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  input: TaskContent,
  q: Sql = svc.store.sql,
): Query<Task> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'editing a task' });
    const before = yield* taskSnapshot(tx, task.id);
    const now = svc.clock.now();
    yield* tx.run('UPDATE tasks SET text = ?, content_type = ?, updated_at = ? WHERE id = ?', [
      input.content,
      input.contentType,
      now,
      task.id,
    ]);
    yield* raiseTaskUpdated(tx, svc, actor, project, task.id, before, now);
    return toTask({ ...task, text: input.content });
  });
}

/** The statement of {@link deleteTask} removing a subtree (one range of the (project_id, path) index), per dialect. */
const DELETE_SUBTREE_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: deleteSubtreeText('sqlite'),
  postgres: deleteSubtreeText('postgres'),
};

function deleteSubtreeText(dialect: Dialect): string {
  const path = bytewise(dialect, 'path');
  return `DELETE FROM tasks WHERE project_id = ? AND ${path} >= ? AND ${path} < ?`;
}

/**
 * Deletes a task with its whole subtree, and with them their assignees, field values and
 * comments (Participant). Raises `task.deleted` for each deleted task, the task first. The
 * subtree is kept, restorable, in the project's deleted tasks (modules/trash).
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function deleteTask(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<void> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'deleting a task',
    });
    const range = { path: task.path, end: subtreeEnd(task.path) };
    const now = svc.clock.now();
    yield* captureDeletedSubtree(tx, actor, projectId, range, now);
    yield* raiseTasksDeleted(tx, svc, actor, project, range, now);
    yield* tx.run(DELETE_SUBTREE_SQL[tx.dialect], [projectId, range.path, range.end]);
  });
}

/**
 * Moves a task with its subtree to `target.position` relative to `target.taskId` (Participant).
 * `target` must match `moveTaskBody.target` (schemas.ts), checked by the route or the engine's adapter.
 * @returns the moved task (with its new parent).
 * @throws ServiceError 400 for a target not in the project (field `target.taskId`, reason
 *   `not_found`) or a target inside the moved subtree (reason `inside_moved_task`); 404, 403,
 *   409 as for every task write.
 */
export function moveTask(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  target: MoveTarget,
  q: Sql = svc.store.sql,
): Query<Task> {
  return q.transaction(function* (tx) {
    const { task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'moving a task' });
    const slot = yield* moveSubtree(tx, projectId, task, target.taskId, target.position);
    yield* touchTask(tx, task.id, svc.clock.now());
    return toTask({ ...task, parentId: slot.parentId, path: slot.path });
  });
}

/** Custom field values of a task keyed by field name (for `task.completed`). */
function* fieldValuesOf(q: Sql, taskId: string): Query<{ name: string; value: unknown }[]> {
  const rows = yield* q.all<{ name: string; valueJson: string }>(
    `SELECT f.name, v.value_json AS "valueJson" FROM task_field_values v JOIN fields f ON f.id = v.field_id
      WHERE v.task_id = ? ORDER BY f.created_at, f.id`,
    [taskId],
  );
  return rows.map((r) => ({ name: r.name, value: JSON.parse(r.valueJson) as unknown }));
}

/**
 * Sets a task's completion (Participant; spec section 3). Idempotent: completing a completed
 * task (or reopening an open one) changes nothing. Completing records when and by whom and
 * raises `task.completed`; reopening clears both. Subtasks are not touched.
 * @returns the task as it is after the call.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function setTaskCompleted(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  completed: boolean,
  q: Sql = svc.store.sql,
): Query<Task> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: completed ? 'completing a task' : 'reopening a task',
    });
    if ((task.completed === 1) === completed) return toTask(task);
    const now = svc.clock.now();
    if (completed) {
      yield* tx.run('UPDATE tasks SET completed = 1, completed_at = ?, completed_by = ?, updated_at = ? WHERE id = ?', [
        now,
        actor.userId,
        now,
        task.id,
      ]);
      const payload: Record<string, unknown> = {
        ...taskEventBase(svc, project, task),
        completedBy: actor.handle,
        completedAt: isoTime(now),
        triggerTime: isoTime(now),
        assignees: (yield* assigneesOf(tx, task.id)).map((a) => ({ handle: a.handle })),
      };
      for (const { name, value } of yield* fieldValuesOf(tx, task.id)) {
        // defineProperty: a field named like an Object.prototype member ('__proto__') stays plain data.
        if (!Object.hasOwn(payload, name))
          Object.defineProperty(payload, name, { value, enumerable: true, writable: true, configurable: true });
      }
      yield* raiseEvent(tx, actor, project, 'task.completed', payload, now);
    } else {
      yield* tx.run('UPDATE tasks SET completed = 0, completed_at = NULL, completed_by = NULL, updated_at = ? WHERE id = ?', [
        now,
        task.id,
      ]);
    }
    return toTask({ ...task, completed: completed ? 1 : 0 });
  });
}

/** Resolves a cursor id to its task row, or throws 400 (field `after`/`before`, reason `not_found`). */
function* cursorTask(q: Sql, projectId: string, field: 'after' | 'before', id: string): Query<TaskRow> {
  const row = yield* findTask(q, projectId, id);
  if (!row) throw badRequest(field, 'not_found', `${field}: task '${id}' is not in this project`);
  return row;
}

/**
 * The page size of a cursor request (default {@link CURSOR_DEFAULT_LIMIT}).
 * @throws ServiceError 400 for a limit outside 1..`MAX_PAGE_SIZE` (platform/paging.ts) or both cursors.
 */
function pageLimit(cursor: Cursor): number {
  const limit = checkPageLimit(cursor.limit ?? CURSOR_DEFAULT_LIMIT);
  if (cursor.after !== undefined && cursor.before !== undefined) {
    throw badRequest('before', 'conflicts_with_after', 'give either after or before, not both');
  }
  return limit;
}

/**
 * A page of task rows in ascending order of `order` (`path` or `rank`, compared bytewise): first
 * page, after `key` or before `key`; `where` narrows it.
 */
function* listPage(
  q: Sql,
  from: string,
  order: 'path' | 'rank',
  key: { op: '>' | '<'; value: string } | undefined,
  projectId: string,
  limit: number,
  where: { sql: string; params: (string | number)[] } = { sql: '', params: [] },
): Query<TaskRow[]> {
  const select = `SELECT ${TASK_COLUMNS} FROM tasks WHERE project_id = ? ${from} ${where.sql}`;
  const column = bytewise(q.dialect, order);
  if (!key) return yield* q.all<TaskRow>(`${select} ORDER BY ${column} LIMIT ?`, [projectId, ...where.params, limit]);
  const direction = key.op === '>' ? 'ASC' : 'DESC';
  const rows = yield* q.all<TaskRow>(`${select} AND ${column} ${key.op} ? ORDER BY ${column} ${direction} LIMIT ?`, [
    projectId,
    ...where.params,
    key.value,
    limit,
  ]);
  return key.op === '>' ? rows : rows.reverse();
}

/**
 * One page of a project's tasks in document order (a task, then its subtasks, then its next
 * sibling), subtasks included (Viewer; spec section 4.2). `after`/`before` are task ids of the
 * project; the page is the `limit` tasks right after or right before that task that match
 * `filter` (the cursor task itself need not match). One range of the (project_id, path) index.
 * @throws ServiceError 400 for both cursors (field `before`, reason `conflicts_with_after`), an
 *   unknown cursor task (reason `not_found`) or a limit outside 1..500; 404 for an unknown project.
 */
export function* listTasks(
  svc: Services,
  actor: Actor,
  projectId: string,
  cursor: Cursor,
  filter: TaskFilter = {},
  q: Sql = svc.store.sql,
): Query<Task[]> {
  const limit = pageLimit(cursor);
  const { version } = yield* requireProject(q, actor, projectId, 'Viewer');
  const read = function* (): Query<Task[]> {
    let key: { op: '>' | '<'; value: string } | undefined;
    if (cursor.after !== undefined) key = { op: '>', value: (yield* cursorTask(q, projectId, 'after', cursor.after)).path };
    else if (cursor.before !== undefined) key = { op: '<', value: (yield* cursorTask(q, projectId, 'before', cursor.before)).path };
    const rows = yield* listPage(q, '', 'path', key, projectId, limit, filterClause(q.dialect, filter));
    return rows.map(toTask);
  };
  // Filtered pages are read directly; the cache holds the unfiltered ones the outline reads.
  return Object.values(filter).some((v) => v !== undefined)
    ? yield* read()
    : yield* cachedPage(svc, 'tasks', version, projectId, cursor, limit, read);
}

/** A list page through the app's page cache, keyed by list, project, cursor and size. */
function cachedPage<T extends Task | Block>(
  svc: Services,
  list: 'tasks' | 'blocks',
  version: number,
  projectId: string,
  cursor: Cursor,
  limit: number,
  read: () => Query<T[]>,
): Query<T[]> {
  return svc.taskPages.page(`${list}|${projectId}|${cursor.after ?? ''}|${cursor.before ?? ''}|${limit}`, version, read);
}

/** The rank of a block used as a cursor. @throws ServiceError 400 `not_found` or `not_a_block`. */
function* blockCursor(q: Sql, projectId: string, field: 'after' | 'before', id: string): Query<string> {
  const row = yield* q.get<{ parentId: string | null; rank: string }>(
    'SELECT parent_id AS "parentId", rank FROM tasks WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
  if (!row) throw badRequest(field, 'not_found', `${field}: task '${id}' is not in this project`);
  if (row.parentId !== null) throw badRequest(field, 'not_a_block', `${field}: task '${id}' is a subtask, not a block`);
  return row.rank;
}

/**
 * One page of a project's blocks (top-level tasks) in order (Viewer; spec section 4.2).
 * Cursors must be blocks of the project. One range of the (parent_id, project_id, rank) index.
 * @throws ServiceError 400 as {@link listTasks}, plus reason `not_a_block` for a subtask cursor;
 *   404 for an unknown project.
 */
export function* listBlocks(svc: Services, actor: Actor, projectId: string, cursor: Cursor, q: Sql = svc.store.sql): Query<Block[]> {
  const limit = pageLimit(cursor);
  const { version } = yield* requireProject(q, actor, projectId, 'Viewer');
  return yield* cachedPage(svc, 'blocks', version, projectId, cursor, limit, function* (): Query<Block[]> {
    let key: { op: '>' | '<'; value: string } | undefined;
    if (cursor.after !== undefined) key = { op: '>', value: yield* blockCursor(q, projectId, 'after', cursor.after) };
    else if (cursor.before !== undefined) key = { op: '<', value: yield* blockCursor(q, projectId, 'before', cursor.before) };
    const rows = yield* listPage(q, 'AND parent_id IS NULL', 'rank', key, projectId, limit);
    return rows.map(toBlock);
  });
}
