import type { Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { ServiceError } from '../../errors';
import type { Services } from '../../services';
import { requireTask } from './records';
import { raiseTaskUpdated, taskSnapshot } from './change-events';
import type { NoteInput } from './schemas';
import { MAX_NOTE_LENGTH, NOTE_WRITE_TYPES } from './limits';

export { MAX_NOTE_LENGTH, NOTE_WRITE_TYPES };

/**
 * Task notes (spec section 4.1, `.../tasks/{taskId}/note`): one single-line note per task.
 * Writes name the type as a media type (`text/plain`, `text/markdown`) or as the short name a
 * read returns (`text`, `markdown`); reads always return the short name (README "Tasks").
 */

/** One of {@link NOTE_WRITE_TYPES}. */
export type NoteWriteType = (typeof NOTE_WRITE_TYPES)[number];

/** Note types as read back. */
export type NoteType = 'text' | 'markdown';

/** A task's note. */
export interface Note {
  type: NoteType;
  /** 1..{@link MAX_NOTE_LENGTH} characters, no CR or LF. */
  value: string;
}

/** The stored (read) type for a write type. */
export function noteType(type: NoteWriteType): NoteType {
  return type === 'text/markdown' || type === 'markdown' ? 'markdown' : 'text';
}

/**
 * A task's note (Viewer).
 * @throws ServiceError 404 for an unknown project or task, or when the task has no note.
 */
export function* getNote(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<Note> {
  yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  const row = (yield* q.get<{ type: NoteType | null; value: string | null }>(
    'SELECT note_type AS type, note_value AS value FROM tasks WHERE id = ?',
    [taskId],
  ))!;
  if (row.value === null) throw new ServiceError(404, 'NOT_FOUND', `task '${taskId}' has no note`);
  return { type: row.type ?? 'text', value: row.value };
}

/**
 * Creates or replaces a task's note (Participant). `input` must match `taskNoteBody`
 * (schemas.ts), checked by the route or the engine's adapter. Raises `task.updated` (changed
 * `note`) when the note changed.
 * @returns the note as stored.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function setNote(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  input: NoteInput,
  q: Sql = svc.store.sql,
): Query<Note> {
  const type = noteType(input.type);
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', { mutation: true, action: 'editing a note' });
    const before = yield* taskSnapshot(tx, task.id);
    const now = svc.clock.now();
    yield* tx.run('UPDATE tasks SET note_type = ?, note_value = ?, updated_at = ? WHERE id = ?', [type, input.value, now, task.id]);
    yield* raiseTaskUpdated(tx, svc, actor, project, task.id, before, now);
    return { type, value: input.value };
  });
}

/**
 * Removes a task's note (Participant). Idempotent: a task without a note stays so. Raises
 * `task.updated` (changed `note`, to null) when there was a note.
 * @throws ServiceError 404, 403, 409 as for every task write.
 */
export function deleteNote(svc: Services, actor: Actor, projectId: string, taskId: string, q: Sql = svc.store.sql): Query<void> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'removing a note',
    });
    const before = yield* taskSnapshot(tx, task.id);
    const now = svc.clock.now();
    yield* tx.run('UPDATE tasks SET note_type = NULL, note_value = NULL, updated_at = ? WHERE id = ? AND note_value IS NOT NULL', [
      now,
      task.id,
    ]);
    yield* raiseTaskUpdated(tx, svc, actor, project, task.id, before, now);
  });
}
