import { requireProject, type ProjectAccess } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { conflict, notFound } from '../../errors';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import { pageWindow, type PageRequest } from '../../platform/paging';
import type { Services } from '../../services';
import { raiseEvent, taskEventBase, toTask, type Task } from '../tasks/records';
import { keyBetween } from '../tasks/rank';
import { bytewise, PATH_SEPARATOR } from '../tasks/tree';
import type { DeletedSubtree, DeletedTaskRow } from '../tasks/trash-capture';

/**
 * The deleted-tasks view of a project (docs "API", "Deleted tasks"; issue 29): every task
 * deletion is kept for `TASKSPACE_TRASH_RETENTION_DAYS` (default 30) and can be listed and
 * restored, with its subtasks, note, dates, assignees, field values and comments, by whoever may
 * delete tasks in the project (Participant and above). Older entries are purged by the leader
 * (./retention.ts) and are not listed or restorable meanwhile.
 */

/** One day in ms. */
export const DAY_MS = 86_400_000;

/** An entry of the deleted-tasks list (times ISO 8601). */
export interface DeletedTask {
  /** The entry id (not a task id): what restore takes. */
  id: string;
  /** The deleted task (the subtree's root); a restore brings it back with this id. */
  taskId: string;
  text: string;
  /** The former parent task, null for a top-level task (block). */
  parentId: string | null;
  /** Tasks in the subtree, the task itself included. */
  taskCount: number;
  deletedAt: string;
  /** Handle of who deleted it; null once that account is gone. */
  deletedBy: string | null;
  /** When the entry is purged; null while retention is off (`TASKSPACE_TRASH_RETENTION_DAYS=0`). */
  expiresAt: string | null;
}

/** The oldest `deleted_at` (ms) still kept at `now`, or 0 while retention is off. */
function keptSince(svc: Services, now: number): number {
  const days = svc.config.trashRetentionDays;
  return days === 0 ? 0 : now - days * DAY_MS;
}

interface EntryRow {
  id: string;
  taskId: string;
  text: string;
  parentId: string | null;
  taskCount: number;
  deletedAt: number;
  deletedBy: string | null;
}

function toDeletedTask(svc: Services, row: EntryRow): DeletedTask {
  const deletedAt = Number(row.deletedAt);
  const days = svc.config.trashRetentionDays;
  return {
    id: row.id,
    taskId: row.taskId,
    text: row.text,
    parentId: row.parentId,
    taskCount: Number(row.taskCount),
    deletedAt: isoTime(deletedAt),
    deletedBy: row.deletedBy,
    expiresAt: days === 0 ? null : isoTime(deletedAt + days * DAY_MS),
  };
}

/**
 * A page of a project's deleted tasks, newest first (Participant: who may delete and restore).
 * Allowed on completed projects (reading).
 * @throws ServiceError 404 for an unknown project, 403 for a Viewer; 400 for a bad page or limit.
 */
export function* listDeletedTasks(
  svc: Services,
  actor: Actor,
  projectId: string,
  page: PageRequest,
  q: Sql = svc.store.sql,
): Query<DeletedTask[]> {
  const [limit, offset] = pageWindow(page);
  yield* requireProject(q, actor, projectId, 'Participant', {
    action: 'seeing deleted tasks',
  });
  const rows = yield* q.all<EntryRow>(
    `SELECT d.id, d.task_id AS "taskId", d.text, d.parent_id AS "parentId", d.task_count AS "taskCount", d.deleted_at AS "deletedAt", u.handle AS "deletedBy"
       FROM deleted_tasks d LEFT JOIN users u ON u.id = d.deleted_by
      WHERE d.project_id = ? AND d.deleted_at >= ?
      ORDER BY d.deleted_at DESC, d.id DESC LIMIT ? OFFSET ?`,
    [projectId, keptSince(svc, svc.clock.now()), limit, offset],
  );
  return rows.map((row) => toDeletedTask(svc, row));
}

/** Task ids per `IN (...)` list (well under both stores' parameter limits). */
const ID_CHUNK = 500;

/** Where a restored subtree's root goes: its parent, rank and path. */
interface RestoreSlot {
  parentId: string | null;
  rank: string;
  path: string;
}

/**
 * The slot for a restored root: under its former parent when that task is still in the project
 * (else at the top level), at its former rank when no sibling holds it (so it comes back between
 * the same neighbours), else right after the sibling that does. A subtask whose parent is gone goes
 * to the end of the project.
 */
function* restoreSlot(q: Sql, projectId: string, root: DeletedTaskRow): Query<RestoreSlot> {
  let parent: { id: string; path: string } | undefined;
  if (root.parentId !== null) {
    parent = yield* q.get<{ id: string; path: string }>('SELECT id, path FROM tasks WHERE id = ? AND project_id = ?', [
      root.parentId,
      projectId,
    ]);
  }
  const parentId = parent?.id ?? null;
  const prefix = parent ? parent.path + PATH_SEPARATOR : '';
  const rank = bytewise(q.dialect, 'rank');
  const siblings = parentId === null ? 'parent_id IS NULL' : 'parent_id = ?';
  const scope = parentId === null ? [projectId] : [projectId, parentId];
  const neighbour = (op: '<=' | '>' | '', order: 'ASC' | 'DESC', value?: string) =>
    q.get<{ rank: string }>(
      `SELECT rank FROM tasks WHERE project_id = ? AND ${siblings}${op ? ` AND ${rank} ${op} ?` : ''} ORDER BY ${rank} ${order} LIMIT 1`,
      value === undefined ? scope : [...scope, value],
    );
  let slotRank: string;
  if (root.parentId !== null && parent === undefined) {
    // The former parent is gone: the end of the project.
    slotRank = keyBetween((yield* neighbour('', 'DESC'))?.rank ?? null, null);
  } else {
    const lower = (yield* neighbour('<=', 'DESC', root.rank))?.rank ?? null;
    const upper = (yield* neighbour('>', 'ASC', root.rank))?.rank ?? null;
    slotRank = lower === root.rank ? keyBetween(lower, upper) : root.rank;
  }
  return { parentId, rank: slotRank, path: prefix + slotRank };
}

/** The insert of one restored task; user columns become null for accounts that are gone. */
const INSERT_TASK = `INSERT INTO tasks (id, project_id, parent_id, rank, path, text, content_type, completed, completed_at, completed_by,
  note_type, note_value, start_date, start_time, start_tz, end_date, end_time, end_tz, due_at, created_by, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM users WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM users WHERE id = ?), ?, ?)`;

/**
 * Puts a deleted subtree back (Participant, on an uncompleted project): with the same task ids,
 * under its former parent if that task still exists (else at the top level), at its former
 * position among its siblings when possible (see {@link restoreSlot}), with its note, dates,
 * completion, field values (of fields that still exist), assignees (still members of the
 * workspace), comments and due-trigger marks. Raises `task.added` for each task, in document
 * order, the restored task first. The entry leaves the list.
 * @returns the restored task.
 * @throws ServiceError 404 for an unknown project or an unknown, restored or expired entry; 403
 *   below Participant; 409 PROJECT_COMPLETED on a completed project; 409 CONFLICT when a task
 *   of the subtree exists again (reason `task_exists`).
 */
export function restoreDeletedTask(svc: Services, actor: Actor, projectId: string, entryId: string, q: Sql = svc.store.sql): Query<Task> {
  return q.transaction(function* (tx) {
    const project = yield* requireProject(tx, actor, projectId, 'Participant', {
      mutation: true,
      action: 'restoring a deleted task',
    });
    const now = svc.clock.now();
    const entry = yield* tx.get<{ subtreeJson: string }>(
      'SELECT subtree_json AS "subtreeJson" FROM deleted_tasks WHERE id = ? AND project_id = ? AND deleted_at >= ?',
      [entryId, projectId, keptSince(svc, now)],
    );
    if (!entry) throw notFound('deleted task', entryId);
    const subtree = JSON.parse(entry.subtreeJson) as DeletedSubtree;
    const root = subtree.tasks[0]!;
    const ids = subtree.tasks.map((t) => t.id);
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      const clash = yield* tx.get<{ id: string }>(`SELECT id FROM tasks WHERE id IN (${chunk.map(() => '?').join(', ')}) LIMIT 1`, chunk);
      if (clash) throw conflict(`task '${clash.id}' of the deleted subtree exists again`, { field: 'id', reason: 'task_exists' });
    }
    const slot = yield* restoreSlot(tx, projectId, root);
    for (const t of subtree.tasks) {
      const isRoot = t.id === root.id;
      const path = slot.path + t.path.slice(root.path.length);
      yield* tx.run(INSERT_TASK, [
        t.id,
        projectId,
        isRoot ? slot.parentId : t.parentId,
        isRoot ? slot.rank : t.rank,
        path,
        t.text,
        t.contentType,
        t.completed,
        t.completedAt,
        t.completedBy,
        t.noteType,
        t.noteValue,
        t.startDate,
        t.startTime,
        t.startTz,
        t.endDate,
        t.endTime,
        t.endTz,
        t.dueAt,
        t.createdBy,
        t.createdAt,
        t.updatedAt,
      ]);
    }
    yield* restoreAttachments(tx, project, subtree);
    yield* raiseRestoredEvents(tx, svc, actor, project, subtree, slot.parentId, now);
    yield* tx.run('DELETE FROM deleted_tasks WHERE id = ?', [entryId]);
    return toTask({
      id: root.id,
      parentId: slot.parentId,
      text: root.text,
      completed: root.completed,
      path: slot.path,
    });
  });
}

/** Restores the rows that hang off the restored tasks, dropping those whose user or field is gone. */
function* restoreAttachments(q: Sql, project: ProjectAccess, subtree: DeletedSubtree): Query<void> {
  for (const a of subtree.assignees) {
    yield* q.run(
      `INSERT INTO task_assignees (task_id, user_id, assigned_at)
       SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM workspace_members WHERE workspace_id = ? AND user_id = ?)`,
      [a.taskId, a.userId, a.assignedAt, project.workspaceId, a.userId],
    );
  }
  for (const v of subtree.fieldValues) {
    yield* q.run(
      `INSERT INTO task_field_values (task_id, field_id, value_json)
       SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM fields WHERE id = ? AND project_id = ?)`,
      [v.taskId, v.fieldId, v.valueJson, v.fieldId, project.id],
    );
  }
  for (const c of subtree.comments) {
    yield* q.run(
      `INSERT INTO comments (id, task_id, project_id, author_id, text, created_at)
       SELECT ?, ?, ?, (SELECT id FROM users WHERE id = ?), ?, ? WHERE NOT EXISTS (SELECT 1 FROM comments WHERE id = ?)`,
      [c.id, c.taskId, project.id, c.authorId, c.text, c.createdAt, c.id],
    );
  }
  for (const d of subtree.dueFired) {
    yield* q.run('INSERT INTO task_due_fired (task_id, due_at, fired_at, event_id) VALUES (?, ?, ?, ?)', [
      d.taskId,
      d.dueAt,
      d.firedAt,
      d.eventId,
    ]);
  }
}

/** `task.added` for each restored task, as a create raises it, with the assignees that came back. */
function* raiseRestoredEvents(
  q: Sql,
  svc: Services,
  actor: Actor,
  project: ProjectAccess,
  subtree: DeletedSubtree,
  rootParentId: string | null,
  now: number,
): Query<void> {
  const handles = new Map<string, string[]>();
  const ids = [...new Set(subtree.assignees.map((a) => a.taskId))];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    const assigned = yield* q.all<{ taskId: string; handle: string }>(
      `SELECT a.task_id AS "taskId", u.handle FROM task_assignees a JOIN users u ON u.id = a.user_id
        WHERE a.task_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY lower(u.handle)`,
      chunk,
    );
    for (const row of assigned) handles.set(row.taskId, [...(handles.get(row.taskId) ?? []), row.handle]);
  }
  for (const t of subtree.tasks) {
    const parentId = t.id === subtree.tasks[0]!.id ? rootParentId : t.parentId;
    yield* raiseEvent(
      q,
      actor,
      project,
      'task.added',
      {
        ...taskEventBase(svc, project, t),
        ...(parentId ? { parentId } : {}),
        assignees: (handles.get(t.id) ?? []).map((handle) => ({ handle })),
        createdBy: actor.handle,
      },
      now,
    );
  }
}

/** Entries purged per transaction. */
export const TRASH_PURGE_BATCH = 500;

/**
 * Deletes one batch (at most {@link TRASH_PURGE_BATCH}) of deleted-tasks entries older than the
 * retention (nothing while it is off).
 * @returns how many entries went.
 */
export function* purgeExpiredTrash(svc: Services, q: Sql = svc.store.sql): Query<number> {
  if (svc.config.trashRetentionDays === 0) return 0;
  const before = keptSince(svc, svc.clock.now());
  return yield* q.transaction(function* (tx) {
    const deleted = yield* tx.run(
      'DELETE FROM deleted_tasks WHERE id IN (SELECT id FROM deleted_tasks WHERE deleted_at < ? ORDER BY deleted_at LIMIT ?)',
      [before, TRASH_PURGE_BATCH],
    );
    return deleted.changes;
  });
}
