/**
 * The delivery retry rules (README "Events and webhooks", "Retries").
 *
 * - 2xx: succeeded. 408, 429 and 5xx, network errors and timeouts: retried.
 *   Any other status (1xx, 3xx as redirects are not followed, other 4xx) and targets refused
 *   by the SSRF guard: failed at once.
 * - After failed attempt n (1-based) the next attempt waits a random delay in [d/2, d] with
 *   d = min(retryMaxMs, retryBaseMs × 2^(n−1)) ("equal jitter"). A `Retry-After` header on a
 *   408/429/503 raises the wait to at least that, still capped at retryMaxMs.
 * - After `maxAttempts` attempts the delivery is failed.
 */

/** What to do after an attempt. */
export type AttemptVerdict = 'succeeded' | 'retry' | 'failed';

/** The verdict for a received HTTP status. */
export function verdictForStatus(statusCode: number): AttemptVerdict {
  if (statusCode >= 200 && statusCode < 300) return 'succeeded';
  if (statusCode === 408 || statusCode === 429 || statusCode >= 500) return 'retry';
  return 'failed';
}

/** Retry settings (from `config.webhooks`). */
export interface RetrySettings {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/**
 * Delay in ms before the attempt after failed attempt `attempt` (1-based).
 * @param random a number in [0, 1) (default Math.random).
 * @param retryAfterMs the receiver's Retry-After, in ms, when it sent one.
 */
export function retryDelayMs(attempt: number, settings: RetrySettings, random = Math.random(), retryAfterMs?: number): number {
  const exponential = settings.retryBaseMs * 2 ** Math.min(attempt - 1, 40);
  const ceiling = Math.min(settings.retryMaxMs, exponential);
  const jittered = Math.round(ceiling / 2 + (random * ceiling) / 2);
  return Math.min(settings.retryMaxMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** Parses a `Retry-After` header (seconds or an HTTP date) into ms from `now`, or undefined. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
