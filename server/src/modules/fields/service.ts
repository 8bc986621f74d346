import type { Dialect, Query, Sql } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest, conflict, notFound } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { isCalendarDate } from '../tasks/dates';
import { characterCount, requireTask, touchTask } from '../tasks/records';
import { insertRows } from '../../platform/db/bulk-insert';
import { keyBetween } from '../tasks/rank';
import { raiseFieldChanged } from '../tasks/change-events';
import { createHash } from 'node:crypto';

/**
 * Custom fields of a project and their values on tasks (spec sections 4.1 field endpoints and
 * 4.2 `GET .../fields`; README "Custom fields"). Definitions need Collaborator, values
 * Participant; both are refused on a completed project (409 PROJECT_COMPLETED).
 */

/** Field types. */
export const FIELD_TYPES = ['boolean', 'number', 'text', 'select', 'date'] as const;
/** One of {@link FIELD_TYPES}. */
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * The `data.type` the real service's API document gives each of our types (its `Field` schema):
 * `text` is its `string`, `select` its `Select`, `date` its `DateTime`.
 */
export const DOCUMENT_FIELD_TYPES: Readonly<Record<FieldType, string>> = {
  boolean: 'boolean',
  number: 'number',
  text: 'string',
  select: 'Select',
  date: 'DateTime',
};

/** The document's type names, accepted on create as synonyms of ours. */
export const FIELD_TYPE_SYNONYMS: Readonly<Record<string, FieldType>> = { string: 'text', Select: 'select', DateTime: 'date' };

/** Every `type` a create body may carry: ours, then the document's synonyms. */
export const ACCEPTED_FIELD_TYPES: readonly string[] = [...FIELD_TYPES, ...Object.keys(FIELD_TYPE_SYNONYMS)];

/** Longest field name, in characters. */
export const MAX_FIELD_NAME = 100;
/** Options of a select field: 1..{@link MAX_SELECT_OPTIONS} distinct strings. */
export const MAX_SELECT_OPTIONS = 100;
/** Longest select option, in characters. */
export const MAX_OPTION_LENGTH = 200;
/** Longest value of a text field, in characters. */
export const MAX_TEXT_VALUE = 2000;

/** One option of a select field in the document's shape. */
export interface SelectOption {
  /** Stable for the option's text: derived from it (see {@link optionId}). */
  id: string;
  /** The option's text, which is also the value a task stores. */
  name: string;
  /** Orders the options (byte order), like task ranks. */
  rank: string;
}

/**
 * `data` of a field definition in the real service's `Field` shapes: boolean `{type}`; number
 * `{displayName, type, render, format}`; text `{displayName, type: 'string'}`; select
 * `{displayName, type: 'Select', options: {<id>: {id, name, rank}}}`; date
 * `{type: 'DateTime', title, format: {time: false, zone: false}}`.
 */
export type FieldData =
  | { type: 'boolean' }
  | { displayName: string; type: 'number'; render: { type: 'text' }; format: { type: 'decimal' } }
  | { displayName: string; type: 'string' }
  | { displayName: string; type: 'Select'; options: Record<string, SelectOption> }
  | { type: 'DateTime'; title: string; format: { time: boolean; zone: boolean } };

/**
 * A field definition as the API returns it: `id` and `data` as the real service has them;
 * `name`, `type` (our vocabulary) and `options` (select only: the option texts in order) are ours.
 */
export interface FieldDefinition {
  id: string;
  name: string;
  type: FieldType;
  options?: string[];
  data: FieldData;
}

/** A stored (normalized) field value: a JSON boolean, number or string by field type. */
export type FieldValue = boolean | number | string;

/** Body of `POST /api/v1/projects/{projectId}/fields`; `type` may be a synonym from {@link FIELD_TYPE_SYNONYMS}. */
export interface NewField {
  name: string;
  type: FieldType | keyof typeof FIELD_TYPE_SYNONYMS;
  options?: string[];
}

/** A row of the fields table. */
export interface FieldRow {
  id: string;
  project_id: string;
  name: string;
  type: FieldType;
  options_json: string | null;
}

/** A select option's id: the first 16 base64url characters of the SHA-256 of its text, so it stays the same across reads and copies. */
export function optionId(name: string): string {
  return createHash('sha256').update(name).digest('base64url').slice(0, 16);
}

/** The document's `options` object of a select field, keyed by option id, ranked in the options' order. */
function selectOptions(options: string[]): Record<string, SelectOption> {
  const out: Record<string, SelectOption> = {};
  let rank: string | null = null;
  for (const name of options) {
    rank = keyBetween(rank, null);
    const id = optionId(name);
    out[id] = { id, name, rank };
  }
  return out;
}

/** `data` of a definition in the document's shape for its type. */
function fieldData(name: string, type: FieldType, options: string[] | undefined): FieldData {
  switch (type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number':
      return { displayName: name, type: 'number', render: { type: 'text' }, format: { type: 'decimal' } };
    case 'text':
      return { displayName: name, type: 'string' };
    case 'select':
      return { displayName: name, type: 'Select', options: selectOptions(options ?? []) };
    case 'date':
      return { type: 'DateTime', title: name, format: { time: false, zone: false } };
  }
}

/** A stored field as the API shows it. */
export function toDefinition(row: FieldRow): FieldDefinition {
  const options = row.options_json === null ? undefined : (JSON.parse(row.options_json) as string[]);
  return { id: row.id, name: row.name, type: row.type, ...(options ? { options } : {}), data: fieldData(row.name, row.type, options) };
}

/**
 * The ORDER BY terms listing the fields of table alias `f` in creation order. Fields made in the
 * same millisecond stay in the order they were added on SQLite (`rowid`); PostgreSQL rows have no
 * insertion order, so the id breaks such ties there (a copy's fields, all made at once, get ids
 * in their source order: see {@link copyFields}).
 */
function fieldOrder(dialect: Dialect, f: string): string {
  return dialect === 'postgres' ? `${f}.created_at, ${f}.id` : `${f}.created_at, ${f}.rowid`;
}

/** The query of {@link fieldRows}, per dialect. */
const FIELD_ROWS_SQL: Readonly<Record<Dialect, string>> = { sqlite: fieldRowsText('sqlite'), postgres: fieldRowsText('postgres') };

function fieldRowsText(dialect: Dialect): string {
  return `SELECT f.id, f.project_id, f.name, f.type, f.options_json FROM fields f WHERE f.project_id = ? ORDER BY ${fieldOrder(dialect, 'f')}`;
}

/** The fields of a project in creation order. */
export function fieldRows(q: Sql, projectId: string): Query<FieldRow[]> {
  return q.all<FieldRow>(FIELD_ROWS_SQL[q.dialect], [projectId]);
}

/**
 * `POST /api/v1/projects/{projectId}/fields` (Collaborator): defines a field. Names are unique
 * per project, ignoring case.
 * @throws ServiceError 404/403/409 PROJECT_COMPLETED from the access check; 400 `options`
 *   `required` (select without options), `not_allowed` (options on another type) or
 *   `duplicate_value`; 409 CONFLICT for a name already used in the project.
 */
export function createField(
  svc: Services,
  actor: Actor,
  projectId: string,
  body: NewField,
  q: Sql = svc.store.sql,
): Query<FieldDefinition> {
  const input = { ...body, type: FIELD_TYPE_SYNONYMS[body.type] ?? (body.type as FieldType) };
  if (input.type === 'select' && input.options === undefined) {
    throw badRequest('options', 'required', 'a select field needs options');
  }
  if (input.type !== 'select' && input.options !== undefined) {
    throw badRequest('options', 'not_allowed', `options apply only to select fields, not ${input.type}`);
  }
  if (input.options && new Set(input.options).size !== input.options.length) {
    throw badRequest('options', 'duplicate_value', 'select options must be distinct');
  }
  return q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { mutation: true, action: 'defining a field' });
    const wanted = input.name.toLowerCase();
    if ((yield* fieldRows(tx, projectId)).some((f) => f.name.toLowerCase() === wanted)) {
      throw conflict(`the project already has a field named '${input.name}'`, { field: 'name', reason: 'duplicate_value' });
    }
    const id = newId();
    const options = input.options ? JSON.stringify(input.options) : null;
    yield* tx.run('INSERT INTO fields (id, project_id, name, type, options_json, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      projectId,
      input.name,
      input.type,
      options,
      svc.clock.now(),
    ]);
    return toDefinition({ id, project_id: projectId, name: input.name, type: input.type, options_json: options });
  });
}

/**
 * `GET /api/v1/projects/{projectId}/fields` (Viewer): the project's fields in creation order.
 * @throws ServiceError 404.
 */
export function* listFields(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<FieldDefinition[]> {
  yield* requireProject(q, actor, projectId, 'Viewer');
  return (yield* fieldRows(q, projectId)).map(toDefinition);
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
export function normalizeFieldValue(field: Pick<FieldDefinition, 'type' | 'options'>, value: unknown): FieldValue {
  const { type } = field;
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
      if (!field.options?.includes(value)) {
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
export function* requireField(q: Sql, projectId: string, fieldId: string): Query<FieldRow> {
  const field = yield* q.get<FieldRow>('SELECT id, project_id, name, type, options_json FROM fields WHERE id = ? AND project_id = ?', [
    fieldId,
    projectId,
  ]);
  if (!field) throw notFound('field', fieldId);
  return field;
}

/** A task's stored value of a field, or null when unset. */
function* storedValue(q: Sql, taskId: string, fieldId: string): Query<FieldValue | null> {
  const row = yield* q.get<{ value_json: string }>('SELECT value_json FROM task_field_values WHERE task_id = ? AND field_id = ?', [
    taskId,
    fieldId,
  ]);
  return row ? (JSON.parse(row.value_json) as FieldValue) : null;
}

/**
 * `GET .../tasks/{taskId}/fields/{fieldId}` (Viewer): `{fieldId, value}`, value null when unset.
 * @throws ServiceError 404 for an unknown project, task, or a field of another project.
 */
export function* getTaskFieldValue(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  fieldId: string,
  q: Sql = svc.store.sql,
): Query<{ fieldId: string; value: FieldValue | null }> {
  yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  yield* requireField(q, projectId, fieldId);
  const row = yield* q.get<{ value_json: string }>('SELECT value_json FROM task_field_values WHERE task_id = ? AND field_id = ?', [
    taskId,
    fieldId,
  ]);
  return { fieldId, value: row ? (JSON.parse(row.value_json) as FieldValue) : null };
}

/** The query of {@link listTaskFieldValues}, per dialect. */
const TASK_VALUES_SQL: Readonly<Record<Dialect, string>> = { sqlite: taskValuesText('sqlite'), postgres: taskValuesText('postgres') };

function taskValuesText(dialect: Dialect): string {
  return `SELECT f.id AS "fieldId", v.value_json FROM fields f
       LEFT JOIN task_field_values v ON v.field_id = f.id AND v.task_id = ?
      WHERE f.project_id = ? ORDER BY ${fieldOrder(dialect, 'f')}`;
}

/**
 * `GET .../tasks/{taskId}/fields` (Viewer): the task's value for every field of its project, in
 * field creation order (the order of the fields list), value null where the task has none.
 * @throws ServiceError 404 for an unknown project or task (or one outside the caller's workspaces).
 */
export function* listTaskFieldValues(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  q: Sql = svc.store.sql,
): Query<{ fieldId: string; value: FieldValue | null }[]> {
  yield* requireTask(q, actor, projectId, taskId, 'Viewer');
  const rows = yield* q.all<{ fieldId: string; value_json: string | null }>(TASK_VALUES_SQL[q.dialect], [taskId, projectId]);
  return rows.map((row) => ({ fieldId: row.fieldId, value: row.value_json === null ? null : (JSON.parse(row.value_json) as FieldValue) }));
}

/**
 * `PUT .../tasks/{taskId}/fields/{fieldId}` (Participant): sets a task's value for a field,
 * normalized by {@link normalizeFieldValue}. Raises `field.changed` when the value changed.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED, 400 for a value the field does not take.
 */
export function setTaskFieldValue(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  fieldId: string,
  value: unknown,
  q: Sql = svc.store.sql,
): Query<void> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'setting a field value',
    });
    const field = yield* requireField(tx, projectId, fieldId);
    const normalized = normalizeFieldValue(toDefinition(field), value);
    const from = yield* storedValue(tx, taskId, fieldId);
    const now = svc.clock.now();
    yield* tx.run(
      `INSERT INTO task_field_values (task_id, field_id, value_json) VALUES (?, ?, ?)
       ON CONFLICT (task_id, field_id) DO UPDATE SET value_json = excluded.value_json`,
      [taskId, fieldId, JSON.stringify(normalized)],
    );
    yield* touchTask(tx, taskId, now);
    yield* raiseFieldChanged(tx, svc, actor, project, task, field, { from, to: normalized }, now);
  });
}

/**
 * `DELETE .../tasks/{taskId}/fields/{fieldId}` (Participant): clears a task's value.
 * Idempotent. Raises `field.changed` (to null) when there was a value.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED.
 */
export function clearTaskFieldValue(
  svc: Services,
  actor: Actor,
  projectId: string,
  taskId: string,
  fieldId: string,
  q: Sql = svc.store.sql,
): Query<void> {
  return q.transaction(function* (tx) {
    const { project, task } = yield* requireTask(tx, actor, projectId, taskId, 'Participant', {
      mutation: true,
      action: 'clearing a field value',
    });
    const field = yield* requireField(tx, projectId, fieldId);
    const from = yield* storedValue(tx, taskId, fieldId);
    const removed = yield* tx.run('DELETE FROM task_field_values WHERE task_id = ? AND field_id = ?', [taskId, fieldId]);
    if (removed.changes === 0) return;
    const now = svc.clock.now();
    yield* touchTask(tx, taskId, now);
    yield* raiseFieldChanged(tx, svc, actor, project, task, field, { from, to: null }, now);
  });
}

/**
 * Copies every field definition of `sourceProjectId` into `targetProjectId` (new ids, same
 * order), then the values of the copied tasks (`taskIds` maps source task id → copy's id), with
 * multi-row INSERTs. The copies share one creation time, so their new ids are handed out in
 * ascending order along the source's field order: PostgreSQL, which breaks creation-time ties
 * by id, then lists them in the source's order, as SQLite does by insertion order. Call inside
 * the copying transaction, with its handle.
 */
export function* copyFields(
  q: Sql,
  sourceProjectId: string,
  targetProjectId: string,
  taskIds: Map<string, string>,
  now: number,
): Query<void> {
  const fields = yield* fieldRows(q, sourceProjectId);
  if (fields.length === 0) return;
  // Ids are ASCII: JavaScript's sort order is PostgreSQL's "C" byte order.
  const newIds = fields.map(() => newId()).sort();
  const fieldIds = new Map(fields.map((field, i) => [field.id, newIds[i]!]));
  yield* insertRows(
    q,
    'fields',
    ['id', 'project_id', 'name', 'type', 'options_json', 'created_at'],
    fields.map((field) => [fieldIds.get(field.id)!, targetProjectId, field.name, field.type, field.options_json, now]),
  );
  const values = yield* q.all<{ task_id: string; field_id: string; value_json: string }>(
    `SELECT v.task_id, v.field_id, v.value_json FROM task_field_values v JOIN fields f ON f.id = v.field_id
      WHERE f.project_id = ?`,
    [sourceProjectId],
  );
  const rows: unknown[][] = [];
  for (const value of values) {
    const taskId = taskIds.get(value.task_id);
    const fieldId = fieldIds.get(value.field_id);
    if (taskId && fieldId) rows.push([taskId, fieldId, value.value_json]);
  }
  yield* insertRows(q, 'task_field_values', ['task_id', 'field_id', 'value_json'], rows);
}
