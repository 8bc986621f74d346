import { runSync } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { transaction, type Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { badRequest, conflict, notFound } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { isCalendarDate } from '../tasks/dates';
import { characterCount, requireTask, touchTask } from '../tasks/records';

/**
 * Custom fields of a project and their values on tasks (spec sections 4.1 field endpoints and
 * 4.2 `GET .../fields`; README "Custom fields"). Definitions need Collaborator, values
 * Participant; both are refused on a completed project (409 PROJECT_COMPLETED).
 */

/** Field types. */
export const FIELD_TYPES = ['boolean', 'number', 'text', 'select', 'date'] as const;
/** One of {@link FIELD_TYPES}. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** Longest field name, in characters. */
export const MAX_FIELD_NAME = 100;
/** Options of a select field: 1..{@link MAX_SELECT_OPTIONS} distinct strings. */
export const MAX_SELECT_OPTIONS = 100;
/** Longest select option, in characters. */
export const MAX_OPTION_LENGTH = 200;
/** Longest value of a text field, in characters. */
export const MAX_TEXT_VALUE = 2000;

/** A field definition as the API returns it. `data.options` only on select fields. */
export interface FieldDefinition {
  id: string;
  name: string;
  data: { type: FieldType; options?: string[] };
}

/** A stored (normalized) field value: a JSON boolean, number or string by field type. */
export type FieldValue = boolean | number | string;

/** Body of `POST /api/v1/projects/{projectId}/fields`. */
export interface NewField {
  name: string;
  type: FieldType;
  options?: string[];
}

interface FieldRow {
  id: string;
  project_id: string;
  name: string;
  type: FieldType;
  options_json: string | null;
}

function toDefinition(row: FieldRow): FieldDefinition {
  const data: FieldDefinition['data'] = { type: row.type };
  if (row.options_json !== null) data.options = JSON.parse(row.options_json) as string[];
  return { id: row.id, name: row.name, data };
}

function fieldRows(db: Db, projectId: string): FieldRow[] {
  return sql<[string], FieldRow>(
    db,
    'SELECT id, project_id, name, type, options_json FROM fields WHERE project_id = ? ORDER BY created_at, rowid',
  ).all(projectId);
}

/**
 * `POST /api/v1/projects/{projectId}/fields` (Collaborator): defines a field. Names are unique
 * per project, ignoring case.
 * @throws ServiceError 404/403/409 PROJECT_COMPLETED from the access check; 400 `options`
 *   `required` (select without options), `not_allowed` (options on another type) or
 *   `duplicate_value`; 409 CONFLICT for a name already used in the project.
 */
export function createField(svc: Services, actor: Actor, projectId: string, input: NewField): FieldDefinition {
  if (input.type === 'select' && input.options === undefined) {
    throw badRequest('options', 'required', 'a select field needs options');
  }
  if (input.type !== 'select' && input.options !== undefined) {
    throw badRequest('options', 'not_allowed', `options apply only to select fields, not ${input.type}`);
  }
  if (input.options && new Set(input.options).size !== input.options.length) {
    throw badRequest('options', 'duplicate_value', 'select options must be distinct');
  }
  return transaction(svc.db, () => {
    runSync(requireProject(svc.db.handle, actor, projectId, 'Collaborator', { mutation: true, action: 'defining a field' }));
    const wanted = input.name.toLowerCase();
    if (fieldRows(svc.db, projectId).some((f) => f.name.toLowerCase() === wanted)) {
      throw conflict(`the project already has a field named '${input.name}'`, { field: 'name', reason: 'duplicate_value' });
    }
    const id = newId();
    const options = input.options ? JSON.stringify(input.options) : null;
    sql(svc.db, 'INSERT INTO fields (id, project_id, name, type, options_json, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      id,
      projectId,
      input.name,
      input.type,
      options,
      svc.clock.now(),
    );
    return toDefinition({ id, project_id: projectId, name: input.name, type: input.type, options_json: options });
  });
}

/**
 * `GET /api/v1/projects/{projectId}/fields` (Viewer): the project's fields in creation order.
 * @throws ServiceError 404.
 */
export function listFields(svc: Services, actor: Actor, projectId: string): FieldDefinition[] {
  runSync(requireProject(svc.db.handle, actor, projectId, 'Viewer'));
  return fieldRows(svc.db, projectId).map(toDefinition);
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function invalidType(type: FieldType, expected: string): never {
  throw badRequest('value', 'invalid_type', `a ${type} field takes ${expected}`);
}

/**
 * Checks `value` against a field and returns the value to store:
 * boolean ← `true`/`false` or `"true"`/`"false"`; number ← a finite JSON number or a numeric
 * string; text ← a string of 1..{@link MAX_TEXT_VALUE} characters; select ← one of the
 * options; date ← a real calendar date `YYYY-MM-DD`.
 * @throws ServiceError 400 (field `value`) `invalid_type`, `invalid_value`, `too_short` or `too_long`.
 */
export function normalizeFieldValue(field: Pick<FieldDefinition, 'data'>, value: unknown): FieldValue {
  const { type } = field.data;
  if (typeof value === 'string' && value.length === 0) throw badRequest('value', 'too_short', 'value must not be empty');
  switch (type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      if (typeof value === 'string') throw badRequest('value', 'invalid_value', 'a boolean field takes true or false');
      return invalidType(type, 'true or false');
    case 'number': {
      const parsed = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : undefined;
      if (parsed === undefined) {
        if (typeof value === 'string') throw badRequest('value', 'invalid_value', `'${value.slice(0, 40)}' is not a number`);
        return invalidType(type, 'a number');
      }
      if (!Number.isFinite(parsed)) throw badRequest('value', 'invalid_value', 'the number is out of range');
      return parsed;
    }
    case 'text':
      if (typeof value !== 'string') return invalidType(type, 'a string');
      if (value.length > MAX_TEXT_VALUE && characterCount(value) > MAX_TEXT_VALUE) {
        throw badRequest('value', 'too_long', `a text value has at most ${MAX_TEXT_VALUE} characters`);
      }
      return value;
    case 'select':
      if (typeof value !== 'string') return invalidType(type, 'one of its options (a string)');
      if (!field.data.options?.includes(value)) {
        throw badRequest('value', 'invalid_value', `'${value.slice(0, 40)}' is not one of the field's options`);
      }
      return value;
    case 'date': {
      if (typeof value !== 'string') return invalidType(type, "a date string 'YYYY-MM-DD'");
      if (!isCalendarDate(value)) {
        throw badRequest('value', 'invalid_value', `'${value.slice(0, 40)}' is not a calendar date 'YYYY-MM-DD'`);
      }
      return value;
    }
  }
}

/** The field `fieldId` of `projectId`. @throws ServiceError 404. */
function requireField(db: Db, projectId: string, fieldId: string): FieldRow {
  const field = sql<[string, string], FieldRow>(
    db,
    'SELECT id, project_id, name, type, options_json FROM fields WHERE id = ? AND project_id = ?',
  ).get(fieldId, projectId);
  if (!field) throw notFound('field', fieldId);
  return field;
}

/**
 * `GET .../tasks/{taskId}/fields/{fieldId}` (Viewer): `{fieldId, value}`, value null when unset.
 * @throws ServiceError 404 for an unknown project, task, or a field of another project.
 */
export function getTaskFieldValue(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  fieldId: string,
): { fieldId: string; value: FieldValue | null } {
  runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Viewer'));
  requireField(svc.db, projectId, fieldId);
  const row = sql<[string, string], { value_json: string }>(
    svc.db,
    'SELECT value_json FROM task_field_values WHERE task_id = ? AND field_id = ?',
  ).get(taskId, fieldId);
  return { fieldId, value: row ? (JSON.parse(row.value_json) as FieldValue) : null };
}

/**
 * `GET .../tasks/{taskId}/fields` (Viewer): the task's value for every field of its project, in
 * field creation order (the order of the fields list), value null where the task has none.
 * @throws ServiceError 404 for an unknown project or task (or one outside the caller's workspaces).
 */
export function listTaskFieldValues(svc: Services, actor: Actor, projectId: string, taskId: string): { fieldId: string; value: FieldValue | null }[] {
  runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Viewer'));
  const rows = sql<[string, string], { fieldId: string; value_json: string | null }>(
    svc.db,
    `SELECT f.id AS fieldId, v.value_json FROM fields f
       LEFT JOIN task_field_values v ON v.field_id = f.id AND v.task_id = ?
      WHERE f.project_id = ? ORDER BY f.created_at, f.rowid`,
  ).all(taskId, projectId);
  return rows.map((row) => ({ fieldId: row.fieldId, value: row.value_json === null ? null : (JSON.parse(row.value_json) as FieldValue) }));
}

/**
 * `PUT .../tasks/{taskId}/fields/{fieldId}` (Participant): sets a task's value for a field,
 * normalized by {@link normalizeFieldValue}.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED, 400 for a value the field does not take.
 */
export function setTaskFieldValue(svc: Services, actor: Actor, projectId: string, taskId: string, fieldId: string, value: unknown): void {
  transaction(svc.db, () => {
    runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'setting a field value' }));
    const field = requireField(svc.db, projectId, fieldId);
    const normalized = normalizeFieldValue(toDefinition(field), value);
    sql(
      svc.db,
      `INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, ?, ?)
       ON CONFLICT (task_id, field_id) DO UPDATE SET value_json = excluded.value_json`,
    ).run(taskId, fieldId, JSON.stringify(normalized));
    runSync(touchTask(svc.db.handle, taskId, svc.clock.now()));
  });
}

/**
 * `DELETE .../tasks/{taskId}/fields/{fieldId}` (Participant): clears a task's value.
 * Idempotent.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED.
 */
export function clearTaskFieldValue(svc: Services, actor: Actor, projectId: string, taskId: string, fieldId: string): void {
  transaction(svc.db, () => {
    runSync(requireTask(svc.db.handle, actor, projectId, taskId, 'Participant', { mutation: true, action: 'clearing a field value' }));
    requireField(svc.db, projectId, fieldId);
    const removed = sql(svc.db, 'DELETE FROM task_field_values WHERE task_id = ? AND field_id = ?').run(taskId, fieldId);
    if (removed.changes > 0) runSync(touchTask(svc.db.handle, taskId, svc.clock.now()));
  });
}

/**
 * Copies every field definition of `sourceProjectId` into `targetProjectId` (new ids, same
 * order), then the values of the copied tasks (`taskIds` maps source task id → copy's id).
 * Call inside the copying transaction.
 */
export function copyFields(db: Db, sourceProjectId: string, targetProjectId: string, taskIds: Map<string, string>, now: number): void {
  const fieldIds = new Map<string, string>();
  const insertField = sql(db, 'INSERT INTO fields (id, project_id, name, type, options_json, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const field of fieldRows(db, sourceProjectId)) {
    const id = newId();
    fieldIds.set(field.id, id);
    insertField.run(id, targetProjectId, field.name, field.type, field.options_json, now);
  }
  if (fieldIds.size === 0) return;
  const insertValue = sql(db, 'INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, ?, ?)');
  const values = sql<[string], { task_id: string; field_id: string; value_json: string }>(
    db,
    `SELECT v.task_id, v.field_id, v.value_json FROM task_field_values v JOIN fields f ON f.id = v.field_id
      WHERE f.project_id = ?`,
  ).all(sourceProjectId);
  for (const value of values) {
    const taskId = taskIds.get(value.task_id);
    const fieldId = fieldIds.get(value.field_id);
    if (taskId && fieldId) insertValue.run(taskId, fieldId, value.value_json);
  }
}
