/**
 * The delivery verdicts (docs "Webhooks", "Retries"). The backoff, the transient statuses and
 * `Retry-After` parsing are the one policy of `@taskspace/engine` (`retry.ts`), shared with
 * automation steps.
 *
 * - 2xx: succeeded. 408, 429 and 5xx, network errors and timeouts: retried.
 *   Any other status (1xx, 3xx as redirects are not followed, other 4xx) and targets refused
 *   by the SSRF guard: failed at once.
 * - After failed attempt n (1-based) the next attempt waits `backoffMs` with the base
 *   `retryBaseMs`, factor 2 and ceiling `retryMaxMs`: a random delay in [d/2, d], raised by a
 *   receiver's `Retry-After`.
 * - After `maxAttempts` attempts the delivery is failed.
 */
import { backoffMs, isTransientStatus } from '@taskspace/engine';

/** What to do after an attempt. */
export type AttemptVerdict = 'succeeded' | 'retry' | 'failed';

/** The verdict for a received HTTP status. */
export function verdictForStatus(statusCode: number): AttemptVerdict {
  if (statusCode >= 200 && statusCode < 300) return 'succeeded';
  return isTransientStatus(statusCode) ? 'retry' : 'failed';
}

/** Retry settings (from `config.webhooks`), in ms. */
export interface RetrySettings {
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/**
 * Delay in ms before the delivery attempt after failed attempt `attempt` (1-based): the shared
 * policy with factor 2.
 * @param random a number in [0, 1) (0 gives the full delay).
 * @param retryAfterMs the receiver's Retry-After, in ms, when it sent one.
 */
export function deliveryDelayMs(attempt: number, settings: RetrySettings, random: number, retryAfterMs?: number): number {
  return backoffMs({ initialDelayMs: settings.retryBaseMs, factor: 2, maxDelayMs: settings.retryMaxMs }, attempt, retryAfterMs, random);
}
