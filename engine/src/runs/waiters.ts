/**
 * Waiting for runs to settle (README "Automations"): an executing engine resolves the waiters of a
 * run it executes when the run settles; a run executed elsewhere (another process, or a
 * non-executing engine's) is watched in the store, read every {@link RUN_POLL_MS}.
 */
import { FINAL_STATUSES, type RunRecord } from '../ports';
import { runNotFound, settledStatus, type RunContext } from './context';

/** How often a non-executing engine looks at a run it waits for, in ms. */
export const RUN_POLL_MS = 50;

/** How long waiters of a run that another engine claimed watch the store for it to settle, in ms. */
export const HAND_OVER_WATCH_MS = 60_000;

/** The waiters of one engine's runs. */
export class RunWaiters {
  /** Who waits for a run executing here to settle, by run id. */
  private readonly waiters = new Map<string, ((run: RunRecord) => void)[]>();

  constructor(private readonly ctx: RunContext) {}

  /**
   * Reads the run every {@link RUN_POLL_MS} until `done` holds or `timeoutMs` (wall time) has
   * passed; resolves to the run as last read.
   * @throws EngineError 404 when the run does not exist (or no longer does).
   */
  async watch(runId: string, timeoutMs: number, done: (run: RunRecord) => boolean): Promise<RunRecord> {
    // Wall time, as the timers of waitFor.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.ctx.store.getRun(runId);
      if (!run) throw runNotFound(runId);
      if (done(run) || Date.now() >= deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
    }
  }

  /**
   * Resolves when the run has settled (a final status, or waiting) — at once if it already has —
   * or after `timeoutMs` with the run as then stored. A run not queued or executing here is
   * watched in the store.
   * @throws EngineError 404 when the run does not exist.
   */
  async waitFor(runId: string, timeoutMs: number): Promise<RunRecord> {
    if (!this.ctx.executes) return this.watch(runId, timeoutMs, settledStatus);
    const settledRun = new Promise<RunRecord>((resolve) => {
      const list = this.waiters.get(runId) ?? [];
      list.push(resolve);
      this.waiters.set(runId, list);
    });
    const run = await this.ctx.store.getRun(runId);
    if (!run) {
      this.waiters.delete(runId);
      throw runNotFound(runId);
    }
    if (!this.ctx.runs.has(runId)) {
      this.waiters.delete(runId);
      if (FINAL_STATUSES.has(run.status) || run.status === 'waiting') return run;
      // Not here: another process executes it, or will claim it.
      return this.watch(runId, timeoutMs, settledStatus);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<RunRecord>((resolve) => {
      timer = setTimeout(() => void this.ctx.store.getRun(runId).then((r) => resolve(r ?? run)), timeoutMs);
    });
    try {
      return await Promise.race([settledRun, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves the waiters of a run that settled here with the run. */
  resolve(run: RunRecord): void {
    const list = this.waiters.get(run.id);
    if (!list) return;
    this.waiters.delete(run.id);
    for (const resolve of list) resolve(run);
  }

  /**
   * A run queued here turned out claimed by another engine: whoever waits for it here watches the
   * store instead, for up to {@link HAND_OVER_WATCH_MS}.
   */
  handOver(runId: string): void {
    const list = this.waiters.get(runId);
    if (!list) return;
    this.waiters.delete(runId);
    this.watch(runId, HAND_OVER_WATCH_MS, settledStatus).then(
      (run) => {
        for (const resolve of list) resolve(run);
      },
      (error: unknown) => this.ctx.logger.warn({ err: error, runId }, 'watching a run executed elsewhere failed'),
    );
  }
}
