import type { Query, Sql } from '../platform/db/query';
import type { Store } from '../platform/db/store';
import { WorkerLoop, type WorkerLog } from '../platform/worker-loop';
import type { PendingCounts, RateLimiter } from './rate-limit';

/**
 * The hourly request budgets in the database (`rate_counters`, migration 022; docs "API", "Rate
 * limits"): what a {@link RateLimiter} counted is added to the stored totals every
 * {@link RATE_FLUSH_MS} and at stop, in one statement per {@link FLUSH_ROWS} keys that answers
 * the new totals; at start the current window's totals are read back. A budget therefore outlives
 * a restart or a standby's takeover; requests of the last second before a kill -9 may go
 * uncounted.
 */

/** How often counted requests are written, in ms. */
export const RATE_FLUSH_MS = 1000;

/** Keys per statement (3 parameters each). */
const FLUSH_ROWS = 300;

/** Adds `counts` to the stored totals of `windowStart`; resolves to the new totals of those keys. */
function* addCounts(q: Sql, windowStart: number, counts: [string, number][]): Query<[string, number][]> {
  const totals: [string, number][] = [];
  for (let i = 0; i < counts.length; i += FLUSH_ROWS) {
    const rows = counts.slice(i, i + FLUSH_ROWS);
    const stored = yield* q.all<{ key: string; count: number }>(
      `INSERT INTO rate_counters (key, window_start, count) VALUES ${rows.map(() => '(?, ?, ?)').join(', ')}
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + excluded.count
       RETURNING key, count`,
      rows.flatMap(([key, count]) => [key, windowStart, count]),
    );
    for (const row of stored) totals.push([row.key, row.count]);
  }
  return totals;
}

/** Keeps a {@link RateLimiter}'s counts in the database. */
export class RateCounterSync {
  private loop: WorkerLoop | undefined;
  /** The window whose older rows were last deleted. */
  private prunedBefore = 0;

  constructor(
    private readonly store: Store,
    private readonly limiter: RateLimiter,
  ) {}

  /** Reads the stored totals of the current window into the limiter. Call before requests are served. */
  async load(): Promise<void> {
    const windowStart = this.limiter.currentWindow();
    const rows = await this.store.run(
      this.store.sql.all<{ key: string; count: number }>('SELECT key, count FROM rate_counters WHERE window_start = ?', [windowStart]),
    );
    this.limiter.stored(
      windowStart,
      rows.map((row) => [row.key, row.count] as const),
    );
  }

  /** Starts writing every {@link RATE_FLUSH_MS}; failures go to `log` and are tried again. */
  start(log: WorkerLog): void {
    this.loop ??= new WorkerLoop(
      'rate counter flush',
      async () => {
        await this.flush();
        return RATE_FLUSH_MS;
      },
      log,
    );
    this.loop.start();
  }

  /** Stops the loop and writes what is left. */
  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.flush();
  }

  /**
   * Writes the pending counts and records the totals answered; on failure they are kept for the
   * next flush. Deletes the rows of past windows once per window.
   * @throws the storage error (the loop logs it and tries again).
   */
  async flush(): Promise<void> {
    const taken: PendingCounts | undefined = this.limiter.takePending();
    if (!taken) return;
    try {
      const totals = await this.store.run(addCounts(this.store.sql, taken.windowStart, [...taken.counts]));
      this.limiter.stored(taken.windowStart, totals, taken);
    } catch (error) {
      this.limiter.restore(taken);
      throw error;
    }
    if (this.prunedBefore !== taken.windowStart) {
      await this.store.run(this.store.sql.run('DELETE FROM rate_counters WHERE window_start < ?', [taken.windowStart]));
      this.prunedBefore = taken.windowStart;
    }
  }
}
