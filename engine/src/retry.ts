import type { ActionType, RetryPolicy } from './definition';

/**
 * The one retry policy of Taskspace, shared by automation steps (HTTP Request, agent and task
 * actions) and signed webhook deliveries (docs: "Retries"):
 * - which outcomes are transient: network errors, timeouts, HTTP 408, 429 and 5xx
 *   ({@link isTransientStatus});
 * - exponential backoff with equal jitter ({@link backoffMs});
 * - a `Retry-After` header (seconds or an HTTP date) raises the wait, capped by the policy's
 *   maximum ({@link parseRetryAfter}).
 */

/** A retry policy with every field set. */
export type ResolvedRetry = Required<RetryPolicy>;

/**
 * Default retry policy per action kind (docs "Automations", "Retries"):
 * - `http.request`: 5 attempts, 1 s, ×2, at most 60 s apart;
 * - `agent.command`: 3 attempts, 2 s, ×2, at most 60 s;
 * - task actions: 3 attempts, 500 ms, ×2, at most 10 s;
 * - branch, approval, delay: never fail transiently.
 */
export const DEFAULT_RETRY: Record<'http' | 'agent' | 'task', ResolvedRetry> = {
  http: { maxAttempts: 5, initialDelayMs: 1000, factor: 2, maxDelayMs: 60_000 },
  agent: { maxAttempts: 3, initialDelayMs: 2000, factor: 2, maxDelayMs: 60_000 },
  task: { maxAttempts: 3, initialDelayMs: 500, factor: 2, maxDelayMs: 10_000 },
};

/** The effective retry policy of an action: its own settings over the kind's defaults. */
export function retryPolicy(type: ActionType, own: RetryPolicy | undefined): ResolvedRetry {
  const defaults = type === 'http.request' ? DEFAULT_RETRY.http : type === 'agent.command' ? DEFAULT_RETRY.agent : DEFAULT_RETRY.task;
  return { ...defaults, ...own };
}

/** True for the HTTP statuses a retry may cure: 408 Request Timeout, 429 Too Many Requests and every 5xx. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Delay in ms before the attempt after failed attempt `attempt` (1-based). The ceiling is
 * min(maxDelayMs, initialDelayMs × factor^(attempt−1)); the delay is drawn from
 * [ceiling/2, ceiling] ("equal jitter": `random` 0 gives the ceiling, values near 1 half of it),
 * so that many clients failing together do not retry together. A server's `retryAfterMs` raises
 * the delay to at least that, still capped at maxDelayMs.
 * @param random a number in [0, 1) (default `Math.random()`).
 */
export function backoffMs(
  policy: Pick<ResolvedRetry, 'initialDelayMs' | 'factor' | 'maxDelayMs'>,
  attempt: number,
  retryAfterMs?: number,
  random: number = Math.random(),
): number {
  const exponent = Math.min(Math.max(0, attempt - 1), 64);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * Math.pow(policy.factor, exponent));
  const jittered = Math.round(ceiling - (random * ceiling) / 2);
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

/**
 * Parses a `Retry-After` header (RFC 9110 §10.2.3: delay-seconds or an HTTP date) into ms from
 * `now` (epoch ms); undefined when absent or unreadable. A date in the past gives 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  // HTTP dates (IMF-fixdate and the obsolete forms) start with a day name; anything else is ignored.
  if (!/^[A-Za-z]{3,9},? /.test(raw)) return undefined;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
