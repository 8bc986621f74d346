/** Waiting on real conditions instead of fixed sleeps. */

/** `T` without its falsy members. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Polls `check` every 25 ms until it returns a truthy value; throws after `timeoutMs` (default 15 s).
 * `what` names the condition in the error (a function is called only then, to describe the state).
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string | (() => string), timeoutMs = 15000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
