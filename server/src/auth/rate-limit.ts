import type { Clock } from '../platform/clock';

/** One-hour fixed windows, aligned to the hour (UTC). */
export const RATE_WINDOW_MS = 60 * 60 * 1000;

/** The value reported in X-RateLimit-Limit/Remaining for unlimited accounts (limit 0 in configuration). */
export const UNLIMITED_REPORTED = 2147483647;

/** The outcome of counting one request. */
export interface RateDecision {
  allowed: boolean;
  /** Requests allowed in the window (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the window after this one (X-RateLimit-Remaining). */
  remaining: number;
  /** End of the window, in whole seconds since the epoch (X-RateLimit-Reset). */
  reset: number;
}

/**
 * Counts requests per key in hourly fixed windows (spec section 8, "Request rate").
 * Counters live in memory: a restart starts every account's window afresh.
 */
export class RateLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request for `key` against `limit` per hour (0 = unlimited). */
  hit(key: string, limit: number): RateDecision {
    return this.decide(key, limit, 1);
  }

  /** What {@link hit} would report for `key` before this request, without counting anything. */
  peek(key: string, limit: number): RateDecision {
    return this.decide(key, limit, 0);
  }

  private decide(key: string, limit: number, cost: 0 | 1): RateDecision {
    const now = this.clock.now();
    const windowStart = now - (now % RATE_WINDOW_MS);
    if (windowStart !== this.windowStart) {
      this.windowStart = windowStart;
      this.counts.clear();
    }
    const reset = Math.floor((windowStart + RATE_WINDOW_MS) / 1000);
    if (limit === 0) return { allowed: true, limit: UNLIMITED_REPORTED, remaining: UNLIMITED_REPORTED, reset };
    const used = (this.counts.get(key) ?? 0) + cost;
    if (cost > 0) this.counts.set(key, used);
    return { allowed: used <= limit, limit, remaining: Math.max(0, limit - used), reset };
  }
}
