/**
 * JSON schemas shared by route plugins: envelopes, paging queries, text constraints.
 * Route-specific schemas live beside their routes; input schemas written with TypeBox also
 * serve calls that do not come through a route (see `validate-input.ts`).
 */
import { Type, type SchemaOptions, type Static, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

/** The pattern that forbids CR and LF (spec section 8). The error mapper reports it as `contains_line_break`. */
export const NO_LINE_BREAKS = '^[^\\r\\n]*$';

export { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../platform/paging';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../platform/paging';
import { CURSOR_DEFAULT_LIMIT } from '../modules/tasks/service';

/** A string of 1..`max` characters without CR or LF. */
export function singleLine(max?: number): TString {
  return Type.String({ minLength: 1, ...(max === undefined ? {} : { maxLength: max }), pattern: NO_LINE_BREAKS });
}

/**
 * A string that is one of `values`, written as `{type: 'string', enum}` (not TypeBox's union of
 * literals), so the API document shows one enum; typed as the union of the values.
 */
export function stringEnum<T extends string>(values: readonly T[], options: SchemaOptions = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ ...options, type: 'string', enum: values });
}

/** `schema` that also takes null (OpenAPI 3.0's `nullable: true`), with extra `options` such as a description. */
export function nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, nullable: true, ...options });
}

/** A non-empty string. */
export const nonEmptyString = { type: 'string', minLength: 1 } as const;

/**
 * The error envelope (README "Errors"): `code`, `message` and `statusMessage` at the top level (the
 * real service's `Error`, as its clients read it) and `code` and `message` again, with `details`
 * for validation failures, under `error`.
 */
export const errorEnvelope = {
  $id: 'ErrorEnvelope',
  type: 'object',
  required: ['ok', 'code', 'message', 'statusMessage', 'error'],
  properties: {
    ok: { type: 'boolean', enum: [false] },
    code: { type: 'string', description: 'Machine-readable error code, e.g. VALIDATION_ERROR (same as error.code)' },
    message: { type: 'string', description: 'Human-readable message (same as error.message)' },
    statusMessage: { type: 'string', description: 'The HTTP reason phrase of the status, e.g. Not Found' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'object',
          properties: {
            field: { type: 'string' },
            reason: { type: 'string' },
            scope: { type: 'string' },
            automations: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
            problems: {
              type: 'array',
              items: { type: 'object', properties: { field: { type: 'string' }, reason: { type: 'string' }, message: { type: 'string' } } },
            },
          },
        },
      },
    },
  },
} as const;

/** Error responses most routes can give, for the OpenAPI document. */
export const commonErrors = {
  400: { $ref: 'ErrorEnvelope#' },
  401: { $ref: 'ErrorEnvelope#' },
  403: { $ref: 'ErrorEnvelope#' },
  404: { $ref: 'ErrorEnvelope#' },
  429: { $ref: 'ErrorEnvelope#' },
} as const;

/** `{ok: true}`. */
export const okOnly = {
  type: 'object',
  required: ['ok'],
  properties: { ok: { type: 'boolean' } },
} as const;

/** `{ok: true, item}` for an item schema. */
export function itemEnvelope(item: object) {
  return { type: 'object', required: ['ok', 'item'], properties: { ok: { type: 'boolean' }, item } } as const;
}

/** `{ok: true, items}` for an item schema. */
export function itemsEnvelope(item: object) {
  return {
    type: 'object',
    required: ['ok', 'items'],
    properties: { ok: { type: 'boolean' }, items: { type: 'array', items: item } },
  } as const;
}

/** Route responses: 200 with `ok` plus the common errors. */
export function responses(ok: object, extra: Record<number, object> = {}) {
  return { 200: ok, ...commonErrors, ...extra };
}

/** Page-based list query: `limit` (default per endpoint, max {@link MAX_PAGE_SIZE}) and `page` (1..{@link MAX_PAGE_NUMBER}, default 1). */
export function pageQuery(defaultLimit: number) {
  return {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: defaultLimit },
      page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 },
    },
  } as const;
}

/** Longest `search` text filter, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The `search` query parameter of the project, task and agent lists: a case-insensitive
 * substring of the name (projects, agents) or text (tasks), 1..200 characters.
 */
export const searchParam = { type: 'string', minLength: 1, maxLength: MAX_SEARCH_LENGTH } as const;

/** A page query with the `search` text filter. */
export function searchablePageQuery(defaultLimit: number) {
  const base = pageQuery(defaultLimit);
  return { ...base, properties: { ...base.properties, search: searchParam } } as const;
}

/** The parsed page query. */
export interface PageQuery {
  limit: number;
  page: number;
}

/** Cursor list query: `limit` (default {@link CURSOR_DEFAULT_LIMIT}) and `after`/`before` task ids (spec section 4.2). */
export const cursorQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: CURSOR_DEFAULT_LIMIT },
    after: { type: 'string', format: 'uuid' },
    before: { type: 'string', format: 'uuid' },
  },
} as const;

/** The parsed cursor query. */
export interface CursorQuery {
  limit: number;
  after?: string;
  before?: string;
}

/** ISO 8601 date (`2026-05-01`) or date-time (`2026-05-01T09:00:00Z`), for the due-date filters. */
const dateOrDateTime = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
} as const;

/**
 * The query of the task list: the cursor plus filters, all optional and combined with AND
 * (docs "API notes", "Cursor lists"): `search` (text contains, case-insensitive), `completed`,
 * `assignee` (a handle, `@` optional), `dueBefore` (due strictly before) and `dueAfter` (due at
 * or after; a date means its midnight UTC). Tasks without a due date never match a due filter.
 */
export const taskListQuery = {
  type: 'object',
  properties: {
    ...cursorQuery.properties,
    search: searchParam,
    completed: { type: 'boolean' },
    assignee: { type: 'string', minLength: 1, maxLength: 101 },
    dueBefore: dateOrDateTime,
    dueAfter: dateOrDateTime,
  },
} as const;

/** The parsed task list query. */
export interface TaskListQuery extends CursorQuery {
  search?: string;
  completed?: boolean;
  assignee?: string;
  dueBefore?: string;
  dueAfter?: string;
}

/** Path parameters schema for the given names, each a non-empty string. */
export function params(...names: string[]) {
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', minLength: 1 }])),
  } as const;
}
