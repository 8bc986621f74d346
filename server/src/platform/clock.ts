/** The source of time wherever time decides behaviour, so tests can control it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** An ISO 8601 timestamp (UTC, milliseconds) for `ms` since the epoch. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
