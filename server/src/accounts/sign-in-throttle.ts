import type { Clock } from '../platform/clock';

/** Failed sign-ins allowed per account within {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_IN_MAX_FAILURES_PER_ACCOUNT = 5;
/** Failed sign-ins allowed per caller address within {@link SIGN_IN_WINDOW_MS}. */
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = 20;
/** Length of the sign-in failure window, in ms: 15 minutes, counted from the first failure. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

interface Window {
  start: number;
  failures: number;
}

/**
 * Counts failed sign-ins per account (the login as typed, lower-cased, whether or not it exists)
 * and per caller address, in fixed windows from the first failure. Once either is used up,
 * further attempts are refused without checking the password until the window ends. Memory
 * only: a restart forgets the counts. One instance per server.
 */
export class SignInThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  /** Seconds until `login` from `address` may try again, or 0 when it may try now. */
  retryAfter(login: string, address: string): number {
    const now = this.clock.now();
    let wait = 0;
    for (const [key, max] of this.keys(login, address)) {
      const w = this.windows.get(key);
      if (!w) continue;
      if (now - w.start >= SIGN_IN_WINDOW_MS) {
        this.windows.delete(key);
        continue;
      }
      if (w.failures >= max) wait = Math.max(wait, Math.ceil((w.start + SIGN_IN_WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  /** Records a failed attempt. */
  fail(login: string, address: string): void {
    const now = this.clock.now();
    if (this.windows.size > 100_000) this.windows.clear();
    for (const [key] of this.keys(login, address)) {
      const w = this.windows.get(key);
      if (!w || now - w.start >= SIGN_IN_WINDOW_MS) this.windows.set(key, { start: now, failures: 1 });
      else w.failures += 1;
    }
  }

  /** Forgets the account's failures after a successful sign-in. */
  succeed(login: string): void {
    this.windows.delete(`a:${login.toLowerCase()}`);
  }

  private keys(login: string, address: string): [string, number][] {
    return [
      [`a:${login.toLowerCase()}`, SIGN_IN_MAX_FAILURES_PER_ACCOUNT],
      [`ip:${address}`, SIGN_IN_MAX_FAILURES_PER_ADDRESS],
    ];
  }
}
