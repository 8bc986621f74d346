import { runSync } from '../../platform/db/query';
import { likeClause, likeContains } from '../../platform/db/like';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { badRequest } from '../../errors';
import { newTaskId } from '../../platform/ids';
import type { Services } from '../../services';
import { assigneesOf } from './assignees';
import { checkPageLimit, type MAX_PAGE_SIZE } from '../../platform/paging';
import { moveSubtree, slotAfter, slotAtEnd, slotFor, subtreeEnd, type Slot } from './tree';
import type { MoveTarget, NewTask, TaskContent } from './schemas';
import {
  findTask,
  raiseEvent,
  requireTask,
  taskEventBase,
  toTask,
  touchTask,
  type Block,
  type Task,
  type TaskRow,
} from './records';

/**
 * Tasks (spec section 4.1) and the two cursor lists of a project (section 4.2: blocks and
 * tasks). A project is a tree of tasks; top-level tasks are blocks. Writes need the
 * Participant role and an uncompleted project; reads need Viewer.
 */

/** Task content types (spec section 4.8 leaves them open; README "Tasks"). Both are stored verbatim. */
export const CONTENT_TYPES = ['text/markdown', 'text/plain'] as const;
/** One of {@link CONTENT_TYPES}. */
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Longest task content, in characters (spec section 8); also the limit of each imported task (modules/projects/markdown-import.ts). */
export const MAX_CONTENT_LENGTH = 2000;

/** Most tasks one create request may carry. */
export const MAX_TASKS_PER_CREATE = 100;

/** Default and largest page size of the cursor lists (spec section 8; README "Pagination"). */
export const CURSOR_DEFAULT_LIMIT = 100;

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

/** The SQL conditions and parameters of a task filter (an empty string when none is set). */
function filterClause(filter: TaskFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.search !== undefined) {
    parts.push(likeClause('text'));
    params.push(likeContains(filter.search));
  }
  if (filter.completed !== undefined) {
    parts.push('completed = ?');
    params.push(filter.completed ? 1 : 0);
  }
  if (filter.assignee !== undefined) {
    parts.push('EXISTS (SELECT 1 FROM task_assignees a JOIN users u ON u.id = a.user_id WHERE a.task_id = tasks.id AND u.handle = ?)');
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
export function getTask(svc: Services, actor: Actor, projectId: string, taskId: string): Task {
  return toTask(runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Viewer')).task);
}

/**
 * Creates tasks in request order, all or nothing (Participant). A task without a reference is
 * appended at the end of the project as a block; with one, it goes to `placement` (default
 * `afterend`) relative to it. Tasks of one request that share a reference and a placement keep
 * their request order: each after the first goes right after the previous one. Raises
 * `task.added` for each task. `inputs` must match `createTasksBody` (schemas.ts): the route and
 * the engine's adapter validate it before the call.
 * @throws ServiceError 400 for a reference task not in the project (field `tasks[i].taskId`,
 *   reason `not_found`); 404, 403, 409 as for every task write.
 */
export function createTasks(svc: Services, actor: Actor, projectId: string, inputs: NewTask[]): Task[] {
  const { db, clock } = svc;
  return transaction(db, () => {
    const project = runSync(requireProject(db.handle, actor, projectId, 'Participant', { mutation: true, action: 'creating tasks' }));
    const now = clock.now();
    /** `reference position` → id of the last task this request put there. */
    const chained = new Map<string, string>();
    /** The previous task's place and slot: the next one at the same place goes right after it without a read. */
    let previous: { key: string; slot: Slot } | undefined;
    const created: Task[] = [];
    inputs.forEach((input, i) => {
      const id = newTaskId();
      const reference = input.taskId ?? null;
      const key = reference === null ? '' : `${reference} ${input.placement ?? 'afterend'}`;
      let slot: Slot;
      if (previous?.key === key) slot = slotAfter(previous.slot);
      else if (reference === null) slot = slotAtEnd(db, projectId, null);
      else {
        const last = chained.get(key);
        slot = last
          ? slotFor(db, projectId, last, 'afterend')
          : slotFor(db, projectId, reference, input.placement ?? 'afterend', `tasks[${i}].taskId`);
      }
      if (reference !== null) chained.set(key, id);
      previous = { key, slot };
      sql(
        db,
        `INSERT INTO tasks (id, project_id, parent_id, rank, path, text, content_type, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, projectId, slot.parentId, slot.rank, slot.path, input.content, input.contentType, actor.userId, now, now);
      const task = toTask({ id, parentId: slot.parentId, text: input.content, completed: 0, path: slot.path });
      runSync(raiseEvent(svc.db.handle, actor, project, 'task.added', {
        ...taskEventBase(svc, project, task),
        ...(task.parentId ? { parentId: task.parentId } : {}),
        assignees: [],
        createdBy: actor.handle,
      }, now));
      created.push(task);
    });
    return created;
  });
}

/**
 * Replaces a task's content (Participant). `input` must match `updateTaskBody` (schemas.ts),
 * checked by the route or the engine's adapter.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function updateTask(svc: Services, actor: Actor, projectId: string, taskId: string, input: TaskContent): Task {
  const { db, clock } = svc;
  return transaction(db, () => {
    const { task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'editing a task' }));
    sql(db, 'UPDATE tasks SET text = ?, content_type = ?, updated_at = ? WHERE id = ?').run(input.content, input.contentType, clock.now(), task.id);
    return toTask({ ...task, text: input.content });
  });
}

/**
 * Deletes a task with its whole subtree, and with them their assignees, field values and
 * comments (Participant).
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function deleteTask(svc: Services, actor: Actor, projectId: string, taskId: string): void {
  const { db } = svc;
  transaction(db, () => {
    const { task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'deleting a task' }));
    sql(db, 'DELETE FROM tasks WHERE project_id = ? AND path >= ? AND path < ?').run(projectId, task.path, subtreeEnd(task.path));
  });
}

/**
 * Moves a task with its subtree to `target.position` relative to `target.taskId` (Participant).
 * `target` must match `moveTaskBody.target` (schemas.ts), checked by the route or the engine's adapter.
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
): Task {
  const { db, clock } = svc;
  return transaction(db, () => {
    const { task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'moving a task' }));
    const slot = moveSubtree(db, projectId, task, target.taskId, target.position);
    runSync(touchTask(db.handle, task.id, clock.now()));
    return toTask({ ...task, parentId: slot.parentId, path: slot.path });
  });
}

/** Custom field values of a task keyed by field name (for `task.completed`). */
function fieldValuesOf(db: Db, taskId: string): { name: string; value: unknown }[] {
  return sql<[string], { name: string; valueJson: string }>(
    db,
    `SELECT f.name, v.value_json AS valueJson FROM task_field_values v JOIN fields f ON f.id = v.field_id
      WHERE v.task_id = ? ORDER BY f.created_at, f.id`,
  )
    .all(taskId)
    .map((r) => ({ name: r.name, value: JSON.parse(r.valueJson) as unknown }));
}

/**
 * Sets a task's completion (Participant; spec section 3). Idempotent: completing a completed
 * task (or reopening an open one) changes nothing. Completing records when and by whom and
 * raises `task.completed`; reopening clears both. Subtasks are not touched.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function setTaskCompleted(svc: Services, actor: Actor, projectId: string, taskId: string, completed: boolean): Task {
  const { db, clock } = svc;
  return transaction(db, () => {
    const { project, task } = runSync(requireTask(db.handle, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: completed ? 'completing a task' : 'reopening a task',
    }));
    if ((task.completed === 1) === completed) return toTask(task);
    const now = clock.now();
    if (completed) {
      sql(db, 'UPDATE tasks SET completed = 1, completed_at = ?, completed_by = ?, updated_at = ? WHERE id = ?').run(now, actor.userId, now, task.id);
      const payload: Record<string, unknown> = {
        ...taskEventBase(svc, project, task),
        completedBy: actor.handle,
        completedAt: isoTime(now),
        triggerTime: isoTime(now),
        assignees: assigneesOf(db, task.id).map((a) => ({ handle: a.handle })),
      };
      for (const { name, value } of fieldValuesOf(db, task.id)) {
        // defineProperty: a field named like an Object.prototype member ('__proto__') stays plain data.
        if (!Object.hasOwn(payload, name)) Object.defineProperty(payload, name, { value, enumerable: true, writable: true, configurable: true });
      }
      runSync(raiseEvent(svc.db.handle, actor, project, 'task.completed', payload, now));
    } else {
      sql(db, 'UPDATE tasks SET completed = 0, completed_at = NULL, completed_by = NULL, updated_at = ? WHERE id = ?').run(now, task.id);
    }
    return toTask({ ...task, completed: completed ? 1 : 0 });
  });
}

/** Resolves a cursor id to its task row, or throws 400 (field `after`/`before`, reason `not_found`). */
function cursorTask(db: Db, projectId: string, field: 'after' | 'before', id: string): TaskRow {
  const row = runSync(findTask(db.handle, projectId, id));
  if (!row) throw badRequest(field, 'not_found', `${field}: task '${id}' is not in this project`);
  return row;
}

/**
 * The page size of a cursor request (default {@link CURSOR_DEFAULT_LIMIT}).
 * @throws ServiceError 400 for a limit outside 1..{@link MAX_PAGE_SIZE} or both cursors.
 */
function pageLimit(cursor: Cursor): number {
  const limit = checkPageLimit(cursor.limit ?? CURSOR_DEFAULT_LIMIT);
  if (cursor.after !== undefined && cursor.before !== undefined) {
    throw badRequest('before', 'conflicts_with_after', 'give either after or before, not both');
  }
  return limit;
}

/**
 * A list row as an array `[id, parentId, text, completed]`: the lists read rows in better-sqlite3's
 * raw mode, which skips building an object per row (the lists are on the benchmark's hot path).
 */
type ListRow = [string, string | null, string, number];

/**
 * The cached statement for one list query, in raw mode. The texts below are used only here, so
 * switching their statements to raw mode affects no other caller.
 */
function listStatement<P extends unknown[]>(db: Db, text: string) {
  return sql<P, ListRow>(db, text).raw(true);
}

/** A page of list rows in ascending order: first page, after `key` or before `key`; `where` narrows it. */
function listPage(
  db: Db,
  from: string,
  order: string,
  key: { op: '>' | '<'; value: string } | undefined,
  projectId: string,
  limit: number,
  where: { sql: string; params: (string | number)[] } = { sql: '', params: [] },
): ListRow[] {
  const select = `SELECT id, parent_id, text, completed FROM tasks WHERE project_id = ? ${from} ${where.sql}`;
  if (!key) return listStatement<unknown[]>(db, `${select} ORDER BY ${order} LIMIT ?`).all(projectId, ...where.params, limit);
  const direction = key.op === '>' ? 'ASC' : 'DESC';
  const rows = listStatement<unknown[]>(db, `${select} AND ${order} ${key.op} ? ORDER BY ${order} ${direction} LIMIT ?`).all(
    projectId,
    ...where.params,
    key.value,
    limit,
  );
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
export function listTasks(svc: Services, actor: Actor, projectId: string, cursor: Cursor, filter: TaskFilter = {}): Task[] {
  const { db } = svc;
  const limit = pageLimit(cursor);
  const { version } = runSync(requireProject(db.handle, actor, projectId, 'Viewer'));
  const read = () => {
    let key: { op: '>' | '<'; value: string } | undefined;
    if (cursor.after !== undefined) key = { op: '>', value: cursorTask(db, projectId, 'after', cursor.after).path };
    else if (cursor.before !== undefined) key = { op: '<', value: cursorTask(db, projectId, 'before', cursor.before).path };
    return listPage(db, '', 'path', key, projectId, limit, filterClause(filter)).map((r) =>
      r[1] === null ? { id: r[0], text: r[2], completed: r[3] === 1 } : { id: r[0], text: r[2], completed: r[3] === 1, parentId: r[1] },
    );
  };
  // Filtered pages are read directly; the cache holds the unfiltered ones the outline reads.
  return Object.values(filter).some((v) => v !== undefined) ? read() : cachedPage(svc, 'tasks', version, projectId, cursor, limit, read);
}

/** A list page through the app's page cache, keyed by list, project, cursor and size. */
function cachedPage<T extends Task | Block>(svc: Services, list: 'tasks' | 'blocks', version: number, projectId: string, cursor: Cursor, limit: number, read: () => T[]): T[] {
  return svc.taskPages.page(`${list}|${projectId}|${cursor.after ?? ''}|${cursor.before ?? ''}|${limit}`, version, read);
}

/** The rank of a block used as a cursor. @throws ServiceError 400 `not_found` or `not_a_block`. */
function blockCursor(db: Db, projectId: string, field: 'after' | 'before', id: string): string {
  const row = sql<[string, string], { parentId: string | null; rank: string }>(
    db,
    'SELECT parent_id AS parentId, rank FROM tasks WHERE id = ? AND project_id = ?',
  ).get(id, projectId);
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
export function listBlocks(svc: Services, actor: Actor, projectId: string, cursor: Cursor): Block[] {
  const { db } = svc;
  const limit = pageLimit(cursor);
  const { version } = runSync(requireProject(db.handle, actor, projectId, 'Viewer'));
  return cachedPage(svc, 'blocks', version, projectId, cursor, limit, () => {
    let key: { op: '>' | '<'; value: string } | undefined;
    if (cursor.after !== undefined) key = { op: '>', value: blockCursor(db, projectId, 'after', cursor.after) };
    else if (cursor.before !== undefined) key = { op: '<', value: blockCursor(db, projectId, 'before', cursor.before) };
    return listPage(db, 'AND parent_id IS NULL', 'rank', key, projectId, limit).map((r) => ({ id: r[0], text: r[2], completed: r[3] === 1 }));
  });
}
