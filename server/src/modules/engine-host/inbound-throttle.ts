import type { Clock } from '../../platform/clock';

/**
 * Per-URL throttle for inbound calls (docs "Webhooks", "Inbound webhooks"): a token bucket of
 * `perMinute` requests per inbound URL that refills continuously
 * (`TASKSPACE_INBOUND_RATE_PER_MINUTE`). A URL's webhook calls and form posts share its bucket.
 * Kept in memory by the automation runtime: a restart refills every bucket.
 */
export class InboundThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Takes one request for `key`; returns 0 when allowed, else the ms until one is allowed. */
  take(key: string): number {
    const now = this.clock.now();
    const rate = this.perMinute / 60000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    if (this.buckets.size > 10000) this.sweep(now, rate);
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / rate);
  }

  /**
   * The bucket of `key` as the X-RateLimit-* headers report it, without taking a request:
   * `limit` per minute, whole `remaining` calls, and `reset`, the time (whole seconds since the
   * epoch) at which the bucket is full again. An unseen key reports a full bucket.
   */
  state(key: string): { limit: number; remaining: number; reset: number } {
    const now = this.clock.now();
    const rate = this.perMinute / 60000;
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * rate) : this.perMinute;
    const fullAt = rate > 0 ? now + (this.perMinute - tokens) / rate : now;
    return { limit: this.perMinute, remaining: Math.floor(tokens), reset: Math.ceil(fullAt / 1000) };
  }

  private sweep(now: number, rate: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * rate >= this.perMinute) this.buckets.delete(key);
  }
}
