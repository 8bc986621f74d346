/**
 * One error family for the whole service (README "Errors"). Domain code throws
 * {@link ServiceError}; the app maps it once to the envelope
 * `{ ok: false, code, message, statusMessage, error: { code, message, details? } }`
 * ({@link ServiceError.toBody}, the only place an error body is built).
 */
import { STATUS_CODES } from 'node:http';

/** Details of a validation failure: which field and why (spec section 7.2). */
export interface ErrorDetails {
  field: string;
  reason: string;
  /** For INSUFFICIENT_SCOPE: the scope the request needs. */
  scope?: string;
  /** For a secret still in use (CONFLICT, reason `in_use`): the enabled automations that read it. */
  automations?: { id: string; name: string }[];
  /** For a refused form submission: every refused field (`field` and `reason` repeat the first). */
  problems?: { field: string; reason: string; message: string }[];
}

/** Machine-readable error codes. The README lists each with its HTTP status. */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'INVALID_JSON'
  | 'INVALID_TOKEN'
  | 'INVALID_SIGNATURE'
  | 'PAYMENT_REQUIRED'
  | 'FORBIDDEN'
  | 'CSRF_REJECTED'
  | 'INSUFFICIENT_SCOPE'
  | 'INVALID_CREDENTIALS'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PROJECT_COMPLETED'
  | 'AUTOMATION_DISABLED'
  | 'PRECONDITION_FAILED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BAD_REQUEST'
  | 'REQUEST_TIMEOUT'
  | 'URI_TOO_LONG'
  | 'HEADERS_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'BUSY'
  | 'UNAVAILABLE'
  | 'INSUFFICIENT_STORAGE'
  | 'INTERNAL_ERROR';

/** The error envelope: every 4xx/5xx body has this shape. */
export interface ErrorBody {
  ok: false;
  code: ErrorCode;
  message: string;
  /** The HTTP reason phrase of the status, e.g. `Not Found` (the real service's `Error.statusMessage`). */
  statusMessage: string;
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/** An error with an HTTP status, a stable code, a human message and optional field details. */
export class ServiceError extends Error {
  constructor(
    /** HTTP status code, 4xx for client errors. */
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  /**
   * The JSON body sent to the client, the one error envelope (README "Errors"): `code` and
   * `message` at the top level, as clients of the real service read them, with `statusMessage`
   * (the HTTP reason phrase, see {@link statusMessageOf}), and again under `error` with the
   * optional `details`.
   */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details) error.details = this.details;
    return { ok: false, code: this.code, message: this.message, statusMessage: statusMessageOf(this.statusCode), error };
  }
}

/** The HTTP reason phrase of a status (`404` → `Not Found`, `507` → `Insufficient Storage`); `Error` for an unknown status. */
export function statusMessageOf(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}

/** 400 VALIDATION_ERROR for one field. */
export function badRequest(field: string, reason: string, message?: string): ServiceError {
  return new ServiceError(400, 'VALIDATION_ERROR', message ?? `${field}: ${reason}`, { field, reason });
}

/** 404 NOT_FOUND for a resource kind and id. Also used for resources outside the caller's workspaces. */
export function notFound(kind: string, id?: string): ServiceError {
  return new ServiceError(404, 'NOT_FOUND', id === undefined ? `${kind} not found` : `${kind} '${id}' not found`);
}

/**
 * 503 BUSY: a change collided with concurrent ones (a PostgreSQL serialization failure or deadlock,
 * `isRetryableConflict`) on every attempt; nothing was written and the caller may retry.
 */
export function busy(): ServiceError {
  return new ServiceError(503, 'BUSY', 'the change collided with concurrent changes too often; nothing was written, retry it');
}

/** The starts of node-postgres's messages for a broken connection (they carry no code). */
const PG_CONNECTION_LOST = ['Connection terminated', 'Client has encountered a connection error and is not queryable'];

/**
 * Whether `error` (or an error it wraps, through `cause`) says the database connection was lost
 * mid-request: PostgreSQL's class 57P (`57P01` admin_shutdown: a follower ended a stalled leader's
 * connections, or the database is shutting down; `57P02` crash_shutdown; `57P03` cannot_connect_now),
 * class 08 (connection exceptions), or node-postgres's errors for a broken connection, which carry
 * no code ("Connection terminated…"; "…not queryable" for a statement sent after the break, such as
 * the COMMIT of a transaction whose statement the break ended).
 */
export function isConnectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (code === undefined && typeof message === 'string' && PG_CONNECTION_LOST.some((text) => message.startsWith(text))) return true;
  }
  return false;
}

/**
 * 503 UNAVAILABLE: the request's database connection was lost ({@link isConnectionLost}). Whether
 * a write in it was committed is unknown (as for any dropped connection): retry after `Retry-After`
 * seconds, with an `Idempotency-Key` where the route takes one.
 */
export function unavailable(): ServiceError {
  return new ServiceError(
    503,
    'UNAVAILABLE',
    'the database connection was lost (the server is stopping or the database restarted); retry the request',
  );
}

/**
 * Whether `error` (or an error it wraps, through `cause`) says the storage is full: SQLite's
 * `SQLITE_FULL` (the database file cannot grow: disk full, or `max_page_count` reached), the
 * operating system's `ENOSPC` (no space left on the device) or `EDQUOT` (disk quota exceeded),
 * PostgreSQL's `53100` (disk_full).
 */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100') return true;
  }
  return false;
}

/**
 * 507 INSUFFICIENT_STORAGE: the server's disk (or database) is full. Nothing was kept; the request
 * may succeed once an operator frees space. Not the client's fault, and logged at error level.
 */
export function insufficientStorage(): ServiceError {
  return new ServiceError(507, 'INSUFFICIENT_STORAGE', 'the server is out of storage space: nothing was saved; try again later');
}

/**
 * Whether `error` (or an error it wraps, through `cause`) is PostgreSQL refusing a text value it
 * cannot store: `22021` (character_not_in_repertoire: U+0000 in a text column) or `22P05`
 * (untranslatable_character: `\u0000` in a jsonb value). SQLite stores such text as it is.
 */
export function isUnstorableText(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === '22021' || code === '22P05') return true;
  }
  return false;
}

/** 400 VALIDATION_ERROR for text PostgreSQL cannot store ({@link isUnstorableText}); nothing was written. */
export function unstorableText(): ServiceError {
  return new ServiceError(400, 'VALIDATION_ERROR', 'a text value holds the NUL character (U+0000), which the database cannot store', {
    field: 'body',
    reason: 'invalid_value',
  });
}

/** 403 FORBIDDEN: the caller's role is below what the operation needs. */
export function forbidden(message: string): ServiceError {
  return new ServiceError(403, 'FORBIDDEN', message);
}

/** 409 CONFLICT: the request clashes with the resource's current state. */
export function conflict(message: string, details?: ErrorDetails): ServiceError {
  return new ServiceError(409, 'CONFLICT', message, details);
}
