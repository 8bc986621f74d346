import type { ProjectAccess } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { appendEvents } from '../events/outbox';
import { assigneesOf } from './assignees';
import { raiseEvent, taskEventBase } from './records';
import { bytewise } from './tree';

/**
 * The change events of task writes (docs "Automations", triggers `task.updated`, `task.deleted`,
 * `field.changed`): each raised in the transaction of the write that makes the change, so an
 * event exists exactly when its change commits, with the actor's depth and cause (the automation
 * and run whose step acted, if any).
 */

/** The task properties `task.updated` reports, in this order in its `changed` list. */
export const UPDATED_PROPERTIES = ['text', 'note', 'startDate', 'endDate'] as const;
/** One of {@link UPDATED_PROPERTIES}. */
export type UpdatedProperty = (typeof UPDATED_PROPERTIES)[number];

/**
 * What `task.updated` compares of a task: its text, note and the two sides of its date. A date
 * side is `YYYY-MM-DD` (all day) or `YYYY-MM-DDTHH:MM[:SS]` (wall-clock time in its zone), null
 * when unset; a change of time zone alone is not reported.
 */
export interface TaskSnapshot {
  text: string;
  note: string | null;
  startDate: string | null;
  endDate: string | null;
  parentId: string | null;
}

/** The row {@link taskSnapshot} reads. */
interface SnapshotRow {
  text: string;
  note: string | null;
  startDate: string | null;
  startTime: string | null;
  endDate: string | null;
  endTime: string | null;
  parentId: string | null;
}

/** A date side as `task.updated` reports it (see {@link TaskSnapshot}). */
function dateSide(date: string | null, time: string | null): string | null {
  return date === null ? null : time === null ? date : `${date}T${time}`;
}

/** The {@link TaskSnapshot} of task `taskId` as `q` sees it now (call inside the write's transaction, before and after the change). */
export function* taskSnapshot(q: Sql, taskId: string): Query<TaskSnapshot> {
  const row = (yield* q.get<SnapshotRow>(
    `SELECT text, note_value AS note, start_date AS "startDate", start_time AS "startTime", end_date AS "endDate", end_time AS "endTime",
            parent_id AS "parentId"
       FROM tasks WHERE id = ?`,
    [taskId],
  ))!;
  return {
    text: row.text,
    note: row.note,
    startDate: dateSide(row.startDate, row.startTime),
    endDate: dateSide(row.endDate, row.endTime),
    parentId: row.parentId,
  };
}

/**
 * Raises `task.updated` for a write that took task `taskId` from `before` to its current state,
 * when its text, note or date changed (nothing when the write changed none of them). Payload:
 * the task event base (with the new text), `nodeNote`, `startDate`, `endDate` (null when unset),
 * `assignees` (`[{handle}]`), `parentId` (null for a block), `updatedBy` (the actor's
 * handle), `changed` (the changed names among {@link UPDATED_PROPERTIES}) and `changes` (per
 * changed name, `{from, to}`). Call inside the write's transaction, after the change.
 */
export function* raiseTaskUpdated(
  q: Sql,
  svc: Services,
  actor: Actor,
  project: ProjectAccess,
  taskId: string,
  before: TaskSnapshot,
  now: number,
): Query<void> {
  const after = yield* taskSnapshot(q, taskId);
  const changed = UPDATED_PROPERTIES.filter((name) => before[name] !== after[name]);
  if (changed.length === 0) return;
  const changes: Record<string, { from: string | null; to: string | null }> = {};
  for (const name of changed) changes[name] = { from: before[name], to: after[name] };
  yield* raiseEvent(
    q,
    actor,
    project,
    'task.updated',
    {
      ...taskEventBase(svc, project, { id: taskId, text: after.text }),
      nodeNote: after.note,
      startDate: after.startDate,
      endDate: after.endDate,
      assignees: (yield* assigneesOf(q, taskId)).map((a) => ({ handle: a.handle })),
      parentId: after.parentId,
      updatedBy: actor.handle,
      changed,
      changes,
    },
    now,
  );
}

/**
 * Raises `task.deleted` for every task of the subtree at `path` (the task first, then its
 * subtasks in document order), with the task event base, `parentId` (null for a block),
 * `deletedBy` (the actor's handle) and `deletedAt` (ISO). Call inside the delete's transaction,
 * before the rows go; `end` is the subtree's path bound (`subtreeEnd(path)`).
 */
export function* raiseTasksDeleted(
  q: Sql,
  svc: Services,
  actor: Actor,
  project: ProjectAccess,
  range: { path: string; end: string },
  now: number,
): Query<void> {
  const path = bytewise(q.dialect, 'path');
  const rows = yield* q.all<{ id: string; text: string; parentId: string | null }>(
    `SELECT id, text, parent_id AS "parentId" FROM tasks WHERE project_id = ? AND ${path} >= ? AND ${path} < ? ORDER BY ${path}`,
    [project.id, range.path, range.end],
  );
  const deletedAt = isoTime(now);
  yield* appendEvents(
    q,
    rows.map((row) => ({
      type: 'task.deleted' as const,
      workspaceId: project.workspaceId,
      payload: { ...taskEventBase(svc, project, row), parentId: row.parentId, deletedBy: actor.handle, deletedAt },
      depth: actor.depth,
      causedBy: actor.cause,
    })),
    now,
  );
}

/**
 * Raises `field.changed` when a task's value of a field went from `from` to `to` (field values,
 * null when unset; nothing when they are equal). Payload: the task event base, `fieldId`,
 * `fieldName`, `from`, `to` and `changedBy` (the actor's handle). Call inside the write's transaction.
 */
export function* raiseFieldChanged(
  q: Sql,
  svc: Services,
  actor: Actor,
  project: ProjectAccess,
  task: { id: string; text: string },
  field: { id: string; name: string },
  values: { from: unknown; to: unknown },
  now: number,
): Query<void> {
  if (JSON.stringify(values.from) === JSON.stringify(values.to)) return;
  yield* raiseEvent(
    q,
    actor,
    project,
    'field.changed',
    {
      ...taskEventBase(svc, project, task),
      fieldId: field.id,
      fieldName: field.name,
      from: values.from,
      to: values.to,
      changedBy: actor.handle,
    },
    now,
  );
}
