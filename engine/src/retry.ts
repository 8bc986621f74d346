import type { ActionType, RetryPolicy } from './definition';

/** A retry policy with every field set. */
export type ResolvedRetry = Required<RetryPolicy>;

/**
 * Default retry policy per action kind (README "Automations", "Retries"). Only transient
 * failures are retried: network errors, timeouts, HTTP 5xx and 429.
 * - `http.request`: 5 attempts, 1 s, ×2, at most 60 s apart (1 s, 2 s, 4 s, 8 s);
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

/**
 * Delay in ms before the attempt after `attempt` (1-based) failed:
 * min(maxDelayMs, initialDelayMs × factor^(attempt−1)), raised to `retryAfterMs` when the
 * server asked for more (still capped by maxDelayMs).
 */
export function backoffMs(policy: ResolvedRetry, attempt: number, retryAfterMs?: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.initialDelayMs * Math.pow(policy.factor, Math.max(0, attempt - 1)));
  return retryAfterMs === undefined ? exp : Math.min(policy.maxDelayMs, Math.max(exp, retryAfterMs));
}
