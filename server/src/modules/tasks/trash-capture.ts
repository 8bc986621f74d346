import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { newId } from '../../platform/ids';
import { bytewise } from './tree';

/**
 * What a task deletion keeps for the deleted-tasks view (docs "API", "Deleted tasks"): the whole
 * subtree as it was, read inside the delete's transaction just before its rows go, stored as one
 * `deleted_tasks` row (migration 029). {@link captureDeletedSubtree} is the one call the task
 * module's delete makes into this module.
 */

/** A task row of a deleted subtree, every column but `project_id` (times in ms since the epoch). */
export interface DeletedTaskRow {
  id: string;
  parentId: string | null;
  rank: string;
  path: string;
  text: string;
  contentType: string;
  completed: number;
  completedAt: number | null;
  completedBy: string | null;
  noteType: string | null;
  noteValue: string | null;
  startDate: string | null;
  startTime: string | null;
  startTz: string | null;
  endDate: string | null;
  endTime: string | null;
  endTz: string | null;
  dueAt: number | null;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * A deleted subtree as stored in `deleted_tasks.subtree_json` (format 1): its tasks in document
 * order (the root first; paths as they were, so a restore rebases them), and the rows of the
 * tables that hang off them.
 */
export interface DeletedSubtree {
  format: 1;
  tasks: DeletedTaskRow[];
  assignees: { taskId: string; userId: string; assignedAt: number }[];
  fieldValues: { taskId: string; fieldId: string; valueJson: string }[];
  comments: {
    id: string;
    taskId: string;
    authorId: string | null;
    text: string;
    createdAt: number;
  }[];
  /** Due times already handled by the due-date scheduler, so a restored task does not fire again. */
  dueFired: {
    taskId: string;
    dueAt: number;
    firedAt: number;
    eventId: string | null;
  }[];
}

const TASK_SELECT = `id, parent_id AS "parentId", rank, path, text, content_type AS "contentType", completed,
  completed_at AS "completedAt", completed_by AS "completedBy", note_type AS "noteType", note_value AS "noteValue",
  start_date AS "startDate", start_time AS "startTime", start_tz AS "startTz", end_date AS "endDate",
  end_time AS "endTime", end_tz AS "endTz", due_at AS "dueAt", created_by AS "createdBy",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A number column read back as a number (PostgreSQL BIGINT arrives as a number or string depending on the driver setup). */
function num(value: unknown): number {
  return Number(value);
}

/** The same, for a nullable column. */
function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/**
 * Reads the subtree at `range` (the root's path and `subtreeEnd(path)`, modules/tasks/tree.ts)
 * and stores it as a deleted-tasks entry deleted by `actor` at `now` (ms). Call inside the
 * delete's transaction, before the rows go.
 * @returns the entry id.
 */
export function* captureDeletedSubtree(
  q: Sql,
  actor: Actor,
  projectId: string,
  range: { path: string; end: string },
  now: number,
): Query<string> {
  const path = bytewise(q.dialect, 'path');
  const inRange = `project_id = ? AND ${path} >= ? AND ${path} < ?`;
  const args = [projectId, range.path, range.end];
  const tasks = (yield* q.all<DeletedTaskRow>(`SELECT ${TASK_SELECT} FROM tasks WHERE ${inRange} ORDER BY ${path}`, args)).map((t) => ({
    ...t,
    completed: num(t.completed),
    completedAt: numOrNull(t.completedAt),
    dueAt: numOrNull(t.dueAt),
    createdAt: num(t.createdAt),
    updatedAt: num(t.updatedAt),
  }));
  const ids = `SELECT id FROM tasks WHERE ${inRange}`;
  const assignees = yield* q.all<{
    taskId: string;
    userId: string;
    assignedAt: number;
  }>(
    `SELECT task_id AS "taskId", user_id AS "userId", assigned_at AS "assignedAt" FROM task_assignees WHERE task_id IN (${ids}) ORDER BY assigned_at, user_id`,
    args,
  );
  const fieldValues = yield* q.all<{
    taskId: string;
    fieldId: string;
    valueJson: string;
  }>(`SELECT task_id AS "taskId", field_id AS "fieldId", value_json AS "valueJson" FROM task_field_values WHERE task_id IN (${ids})`, args);
  const comments = yield* q.all<{
    id: string;
    taskId: string;
    authorId: string | null;
    text: string;
    createdAt: number;
  }>(
    `SELECT id, task_id AS "taskId", author_id AS "authorId", text, created_at AS "createdAt" FROM comments WHERE task_id IN (${ids}) ORDER BY created_at, id`,
    args,
  );
  const dueFired = yield* q.all<{
    taskId: string;
    dueAt: number;
    firedAt: number;
    eventId: string | null;
  }>(
    `SELECT task_id AS "taskId", due_at AS "dueAt", fired_at AS "firedAt", event_id AS "eventId" FROM task_due_fired WHERE task_id IN (${ids})`,
    args,
  );
  const subtree: DeletedSubtree = {
    format: 1,
    tasks,
    assignees: assignees.map((a) => ({ ...a, assignedAt: num(a.assignedAt) })),
    fieldValues,
    comments: comments.map((c) => ({ ...c, createdAt: num(c.createdAt) })),
    dueFired: dueFired.map((d) => ({
      ...d,
      dueAt: num(d.dueAt),
      firedAt: num(d.firedAt),
    })),
  };
  const root = tasks[0]!;
  const id = newId();
  yield* q.run(
    `INSERT INTO deleted_tasks (id, project_id, task_id, parent_id, rank, text, task_count, subtree_json, deleted_by, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM users WHERE id = ?), ?)`,
    [id, projectId, root.id, root.parentId, root.rank, root.text, tasks.length, JSON.stringify(subtree), actor.userId, now],
  );
  return id;
}
