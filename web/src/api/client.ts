import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The typed API client: every call goes to the service's public API on the same origin, signed
 * in with the session cookie (no token is ever held by the page). Whatever the app does, a
 * script can do with the same requests.
 */
export const api = createClient<paths>({ baseUrl: '/', credentials: 'same-origin' });

/** What to show for a failed request: the service's message, else a generic sentence. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong';
}

/** An error answer of the API, from the documented envelope `{ok:false, code, message, error}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Envelope {
  code?: string;
  message?: string;
  error?: { code?: string; message?: string; details?: unknown };
}

/**
 * The data of an openapi-fetch result, or an {@link ApiError} thrown from its error envelope.
 * @throws ApiError on any non-2xx answer.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = (result.error ?? {}) as Envelope;
  const code = body.error?.code ?? body.code ?? `HTTP_${result.response.status}`;
  const message = body.error?.message ?? body.message ?? result.response.statusText;
  throw new ApiError(result.response.status, code, message, body.error?.details);
}

/**
 * The result of a read whose 404 means "none yet" (a task's date or note, an agent's public page), or null.
 * @throws ApiError for any other failure.
 */
export async function orNullOn404<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}
