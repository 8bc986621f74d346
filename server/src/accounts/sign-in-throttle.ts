import type { Clock } from '../platform/clock';

/**
 * How one kind of bucket (an account, or a caller address) slows down password guessing
 * (docs "Accounts and sign-in", "Sign-in throttling").
 */
export interface BackoffPolicy {
  /** Failed attempts that cost nothing: the next attempt may follow at once. */
  freeFailures: number;
  /** Wait after the first failure past the free ones, in ms; each further failure doubles it. */
  firstDelayMs: number;
  /** Longest wait between two checked attempts, in ms. */
  maxDelayMs: number;
}

/** Per account (every handle and email of it, and unknown logins by their lower-cased text): 5 free failures, then 1 s, 2 s, 4 s … at most 60 s. */
export const ACCOUNT_BACKOFF: Readonly<BackoffPolicy> = { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 60_000 };
/** Per caller address, over every login it tries: 20 free failures, then 1 s, 2 s, 4 s … at most 60 s. */
export const ADDRESS_BACKOFF: Readonly<BackoffPolicy> = { freeFailures: 20, firstDelayMs: 1000, maxDelayMs: 60_000 };
/** A bucket is forgotten this long after its last counted attempt, in ms (15 minutes). */
export const SIGN_IN_FORGET_MS = 15 * 60 * 1000;
/** Most buckets kept at once; past it the least recently used are dropped, so memory stays bounded. */
export const SIGN_IN_MAX_BUCKETS = 100_000;

interface Bucket {
  /** Attempts counted as failed (an attempt in flight counts until it succeeds). */
  failures: number;
  /** When the last attempt was counted, ms since the epoch. */
  lastAt: number;
  /** `lastAt` before that attempt, restored when it turns out to have succeeded. */
  priorAt: number;
}

/** Wait after `failures` counted failures under `policy`, in ms (0 while they are free). */
export function backoffDelayMs(policy: BackoffPolicy, failures: number): number {
  const past = failures - policy.freeFailures;
  if (past <= 0) return 0;
  // 2^30 s is far past any cap; stopping there keeps the arithmetic exact.
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(past - 1, 30));
}

/**
 * The account bucket's key for a sign-in attempt: the user's id when the login (handle or
 * email) names an account, so all its names share one bucket; otherwise the login as typed,
 * lower-cased, so unknown logins are throttled exactly like existing ones.
 */
export function accountKey(userId: string | undefined, login: string): string {
  return userId !== undefined ? `user:${userId}` : `login:${login.toLowerCase()}`;
}

/**
 * Exponential back-off of password checks per account and per caller address (OWASP
 * authentication cheat sheet: delays rather than a lock-out an attacker can hold). After the
 * free failures of a bucket ({@link BackoffPolicy}), each further failure makes the next
 * checked attempt wait twice as long as the previous one, up to the cap; an attempt inside the
 * wait is refused without checking the password, and one after it is checked as usual — so the
 * right password always works once the current (short) wait is over. A success forgets the
 * account's failures.
 *
 * {@link take} counts the attempt as failed before the password is checked, so many attempts
 * sent at once cannot all slip through while the first is being checked; {@link succeed} takes
 * that back. Memory only (a restart forgets every bucket), at most {@link SIGN_IN_MAX_BUCKETS}
 * buckets. One instance per server.
 */
export class SignInThrottle {
  /** Buckets by key (`user:…`, `login:…`, `ip:…`), least recently counted first. */
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly maxBuckets = SIGN_IN_MAX_BUCKETS,
  ) {}

  /**
   * Admits one password check for account bucket `account` ({@link accountKey}) from `address`.
   * @returns 0 when the attempt may go ahead (it is then counted as failed until
   *   {@link succeed}); otherwise the seconds to wait (at least 1), and nothing is counted.
   */
  take(account: string, address: string): number {
    const now = this.clock.now();
    const keys: [string, BackoffPolicy][] = [
      [account, ACCOUNT_BACKOFF],
      [`ip:${address}`, ADDRESS_BACKOFF],
    ];
    let waitMs = 0;
    for (const [key, policy] of keys) {
      const bucket = this.current(key, now);
      if (bucket) waitMs = Math.max(waitMs, bucket.lastAt + backoffDelayMs(policy, bucket.failures) - now);
    }
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    for (const [key] of keys) {
      const bucket = this.current(key, now);
      // Re-inserted so that the map's order is the order of last use.
      this.buckets.delete(key);
      this.buckets.set(key, { failures: (bucket?.failures ?? 0) + 1, lastAt: now, priorAt: bucket?.lastAt ?? now });
    }
    this.trim();
    return 0;
  }

  /**
   * The attempt admitted by {@link take} had the right password: forgets the account's failures
   * and takes the attempt back from the address's count, as if it had not been made (the
   * address's earlier failures stay, so signing in to one's own account does not clear them).
   */
  succeed(account: string, address: string): void {
    this.buckets.delete(account);
    const bucket = this.buckets.get(`ip:${address}`);
    if (bucket) {
      bucket.failures = Math.max(0, bucket.failures - 1);
      bucket.lastAt = bucket.priorAt;
    }
  }

  /** Buckets held now (for tests of the memory bound). */
  get size(): number {
    return this.buckets.size;
  }

  /** The bucket under `key`, dropped (and undefined) once {@link SIGN_IN_FORGET_MS} passed since its last count. */
  private current(key: string, now: number): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket && now - bucket.lastAt >= SIGN_IN_FORGET_MS) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  /** Drops the least recently counted buckets past {@link maxBuckets}. */
  private trim(): void {
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxBuckets) return;
      this.buckets.delete(key);
    }
  }
}
