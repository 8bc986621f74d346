/**
 * TypeBox schemas shared by route plugins: envelopes, the error envelope, paging queries, text constraints.
 * Route-specific schemas live beside their routes; input schemas written with TypeBox also
 * serve calls that do not come through a route (see `validate-input.ts`).
 */
import {
  Type,
  type SchemaOptions,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TString,
  type TUnsafe,
} from '@sinclair/typebox';

/** The pattern that forbids CR and LF (spec section 8). The error mapper reports it as `contains_line_break`. */
export const NO_LINE_BREAKS = '^[^\\r\\n]*$';

export { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../platform/paging';
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../platform/paging';

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

/** An optional string (the error envelope's detail fields). */
const optionalString = () => Type.Optional(Type.String());

/**
 * The error envelope (README "Errors"): `code`, `message` and `statusMessage` at the top level (the
 * real service's `Error`, as its clients read it) and `code` and `message` again, with `details`
 * for validation failures, under `error`. Registered once as the shared schema `ErrorEnvelope`
 * (app.ts), which routes' error responses reference ({@link ErrorRef}). Not exact: the
 * objects leave `additionalProperties` unset, as the document always had them.
 */
export const errorEnvelope = Type.Object(
  {
    ok: Type.Unsafe<false>({ type: 'boolean', enum: [false] }),
    code: Type.String({ description: 'Machine-readable error code, e.g. VALIDATION_ERROR (same as error.code)' }),
    message: Type.String({ description: 'Human-readable message (same as error.message)' }),
    statusMessage: Type.String({ description: 'The HTTP reason phrase of the status, e.g. Not Found' }),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(
        Type.Object({
          field: optionalString(),
          reason: optionalString(),
          scope: optionalString(),
          automations: Type.Optional(Type.Array(Type.Object({ id: optionalString(), name: optionalString() }))),
          problems: Type.Optional(
            Type.Array(Type.Object({ field: optionalString(), reason: optionalString(), message: optionalString() })),
          ),
        }),
      ),
    }),
  },
  { $id: 'ErrorEnvelope' },
);

/** The parsed error envelope (see {@link errorEnvelope}). */
export type ErrorEnvelopeBody = Static<typeof errorEnvelope>;

/** A reference to the shared {@link errorEnvelope} schema, typed as its body. */
export const ErrorRef = Type.Unsafe<ErrorEnvelopeBody>({ $ref: 'ErrorEnvelope#' });

/** Longest `search` text filter, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/*
 * Route schemas, for route plugins typed with `withTypeProvider<TypeBoxTypeProvider>()` (issue 23):
 * the handler's params, query, body and reply types come from these schemas. Objects we own are
 * exact (`additionalProperties: false`).
 */

/** `{ok: true}`, exact. */
export const OkOnly = Type.Object({ ok: Type.Boolean() }, { additionalProperties: false });

/** `{ok: true, item}` for a TypeBox item schema, exact. */
export function ItemEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ ok: Type.Boolean(), item }, { additionalProperties: false });
}

/** `{ok: true, items}` for a TypeBox item schema, exact. */
export function ItemsEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ ok: Type.Boolean(), items: Type.Array(item) }, { additionalProperties: false });
}

/** Route responses: 200 with `ok` plus the common errors (400, 401, 403, 404, 429) and `extra` statuses. */
export function Responses<T extends TSchema, E extends Record<number, TSchema> = Record<never, never>>(ok: T, extra?: E) {
  return { 200: ok, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 429: ErrorRef, ...(extra as E) };
}

/** Path parameters, each a non-empty string. */
export function Params<K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((n) => [n, Type.String({ minLength: 1 })])) as Record<K, TString>);
}

/**
 * An object query whose properties all have defaults or are optional: the document lists none as
 * required (clients may omit them), while the handler's type has the defaulted ones, which the
 * validator fills in (`useDefaults`).
 */
function defaultedQuery<P extends TProperties>(properties: P) {
  const { required: _required, ...schema } = Type.Object(properties);
  return Type.Unsafe<Static<TObject<P>>>(schema);
}

function pageProperties(defaultLimit: number) {
  return {
    limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: defaultLimit }),
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1 }),
  };
}

/** Page-based list query (see {@link pageQuery}), with the `limit` default of the endpoint. */
export function PageQuerySchema(defaultLimit: number) {
  return defaultedQuery(pageProperties(defaultLimit));
}

/** A page query with the `search` text filter (see {@link searchParam}). */
export function SearchablePageQuerySchema(defaultLimit: number) {
  return defaultedQuery({
    ...pageProperties(defaultLimit),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SEARCH_LENGTH })),
  });
}

/** A page query with extra `properties` (optional ones), e.g. a status filter. */
export function PageQueryWith<P extends TProperties>(defaultLimit: number, properties: P) {
  return defaultedQuery({ ...pageProperties(defaultLimit), ...properties });
}
