/**
 * The X-RateLimit-* headers (spec section 8), shared by the request meter (`auth/hook.ts`), the
 * error envelope of framework errors (`error-handler.ts`) and the per-URL throttle of inbound
 * calls. Kept in `http/`, below `auth/`, so that `http/` never imports `auth/`.
 */

/** A rate budget as the headers report it. */
export interface RateLimitState {
  /** Requests allowed in the window (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the window (X-RateLimit-Remaining). */
  remaining: number;
  /** End of the window, in whole seconds since the epoch (X-RateLimit-Reset). */
  reset: number;
}

/** The X-RateLimit-* headers of a decision (spec section 8), by name. */
export function rateLimitHeaders(decision: RateLimitState): Record<string, number> {
  return { 'X-RateLimit-Limit': decision.limit, 'X-RateLimit-Remaining': decision.remaining, 'X-RateLimit-Reset': decision.reset };
}
