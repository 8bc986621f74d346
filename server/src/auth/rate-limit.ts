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

/** Requests counted in one window and not yet stored: by key, how many. */
export interface PendingCounts {
  /** Start of the window they were counted in (ms since the epoch). */
  windowStart: number;
  counts: Map<string, number>;
}

/**
 * Counts requests per key in hourly fixed windows (spec section 8, "Request rate"), synchronously
 * on the request path. The counts are kept in the database by `RateCounterSync`
 * (auth/rate-counters.ts), which takes what was counted here ({@link RateLimiter.takePending}) and
 * hands back the stored totals ({@link RateLimiter.stored}), so a budget outlives a restart or a
 * standby's takeover. A request is judged on the last stored total plus what this process counted
 * since.
 */
export class RateLimiter {
  private windowStart = 0;
  /** Totals last read from the database in this window (every process's requests, and earlier lives'). */
  private readonly totals = new Map<string, number>();
  /** Counted here, being written now. */
  private inflight = new Map<string, number>();
  /** Counted here, not yet taken for writing. */
  private pending = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request for `key` against `limit` per hour (0 = unlimited). */
  hit(key: string, limit: number): RateDecision {
    return this.decide(key, limit, 1);
  }

  /** What {@link hit} would report for `key` before this request, without counting anything. */
  peek(key: string, limit: number): RateDecision {
    return this.decide(key, limit, 0);
  }

  /** The start of the current window (ms since the epoch); begins a new window when the hour has turned. */
  currentWindow(): number {
    const now = this.clock.now();
    const windowStart = now - (now % RATE_WINDOW_MS);
    if (windowStart !== this.windowStart) {
      this.windowStart = windowStart;
      this.totals.clear();
      this.inflight.clear();
      this.pending.clear();
    }
    return windowStart;
  }

  /** The counts not yet taken for writing, which move to "in flight"; undefined when there are none. */
  takePending(): PendingCounts | undefined {
    const windowStart = this.currentWindow();
    if (this.pending.size === 0 || this.inflight.size > 0) return undefined;
    const counts = this.pending;
    this.inflight = counts;
    this.pending = new Map();
    return { windowStart, counts };
  }

  /**
   * Records totals read from the database for `windowStart` (after `taken` was written, when
   * given): they replace what was known of those keys, and the written counts leave "in flight".
   */
  stored(windowStart: number, totals: Iterable<readonly [string, number]>, taken?: PendingCounts): void {
    if (windowStart !== this.currentWindow()) return;
    for (const [key, total] of totals) this.totals.set(key, total);
    if (taken) this.inflight = new Map();
  }

  /** Puts counts whose write failed back with the pending ones, to be written with the next. */
  restore(taken: PendingCounts): void {
    if (taken.windowStart !== this.currentWindow()) return;
    for (const [key, count] of taken.counts) this.pending.set(key, (this.pending.get(key) ?? 0) + count);
    this.inflight = new Map();
  }

  private decide(key: string, limit: number, cost: 0 | 1): RateDecision {
    const windowStart = this.currentWindow();
    const reset = Math.floor((windowStart + RATE_WINDOW_MS) / 1000);
    if (limit === 0) return { allowed: true, limit: UNLIMITED_REPORTED, remaining: UNLIMITED_REPORTED, reset };
    const mine = (this.pending.get(key) ?? 0) + cost;
    if (cost > 0) this.pending.set(key, mine);
    const used = (this.totals.get(key) ?? 0) + (this.inflight.get(key) ?? 0) + mine;
    return { allowed: used <= limit, limit, remaining: Math.max(0, limit - used), reset };
  }
}
