/**
 * The engine's errors: step failures ({@link ActionError}: an action fails by throwing; the
 * executor classifies the error as transient, retried with backoff, or permanent, failing the step
 * and the run at once) and refused calls to the engine ({@link EngineError}: bad definitions,
 * unknown automations or runs, conflicts).
 */
import { isTransientStatus } from './retry';

/** A failure as recorded in the journal (step and run `error`). */
export interface ErrorInfo {
  /** Machine-readable code, e.g. `TEMPLATE_ERROR`, `HTTP_STATUS`, `NETWORK_ERROR`, `NOT_FOUND`. */
  code: string;
  message: string;
  /** True when the failure was judged transient (a retry may succeed). */
  transient: boolean;
  /** HTTP status behind the failure, when there is one. */
  status?: number;
  /** Extra data (e.g. the response of a failed HTTP request, a validation field). */
  details?: unknown;
  /** The step that failed (run errors only). */
  stepId?: string;
}

/**
 * An error thrown by an action or a port with an explicit classification. `retryAfterMs`
 * (from a `Retry-After` header) raises the next backoff delay, capped by the policy's maximum.
 */
export class ActionError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient: boolean,
    readonly extra: { status?: number; details?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

/** A permanent failure (never retried). */
export function permanent(code: string, message: string, details?: unknown): ActionError {
  return new ActionError(code, message, false, { details });
}

/** Error codes of Node and undici network failures: transient. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * Classifies anything thrown by an action:
 * - {@link ActionError}: as it says;
 * - an error with a numeric `statusCode` or `status` (e.g. the server's ServiceError): 408, 429
 *   and 5xx are transient ({@link isTransientStatus}), anything else permanent; its `code` and `details` are kept;
 * - network error codes (ECONNREFUSED, ECONNRESET, ETIMEDOUT, undici socket/timeouts) and
 *   `AbortError`/`TimeoutError`: transient;
 * - anything else: permanent (`ACTION_FAILED`).
 */
export function classifyError(error: unknown): ErrorInfo & { retryAfterMs?: number } {
  if (error instanceof ActionError) {
    const info: ErrorInfo & { retryAfterMs?: number } = { code: error.code, message: error.message, transient: error.transient };
    if (error.extra.status !== undefined) info.status = error.extra.status;
    if (error.extra.details !== undefined) info.details = error.extra.details;
    if (error.extra.retryAfterMs !== undefined) info.retryAfterMs = error.extra.retryAfterMs;
    return info;
  }
  const e = (error ?? {}) as {
    message?: unknown;
    code?: unknown;
    statusCode?: unknown;
    status?: unknown;
    details?: unknown;
    name?: unknown;
    cause?: unknown;
  };
  const message = typeof e.message === 'string' ? e.message : String(error);
  const status = typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined;
  if (status !== undefined && status >= 400) {
    const info: ErrorInfo = {
      code: typeof e.code === 'string' ? e.code : 'ACTION_FAILED',
      message,
      transient: isTransientStatus(status),
      status,
    };
    if (e.details !== undefined) info.details = e.details;
    return info;
  }
  const code = typeof e.code === 'string' ? e.code : undefined;
  const causeCode = (e.cause as { code?: unknown } | undefined)?.code;
  if ((code && NETWORK_CODES.has(code)) || (typeof causeCode === 'string' && NETWORK_CODES.has(causeCode))) {
    return { code: 'NETWORK_ERROR', message: `${message} (${code ?? String(causeCode)})`, transient: true };
  }
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return { code: 'TIMEOUT', message, transient: true };
  return { code: code ?? 'ACTION_FAILED', message, transient: false };
}

/**
 * A refused call to the engine (`createAutomation`, `startRun`, `decide`...), with an HTTP-like
 * status and a code the server reuses; `details` names the offending field for VALIDATION_ERROR.
 */
export class EngineError extends Error {
  constructor(
    readonly status: number,
    readonly code: 'VALIDATION_ERROR' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN',
    message: string,
    readonly details?: { field: string; reason: string },
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
