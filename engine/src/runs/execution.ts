/**
 * Executing the runs of the queue (README "Automations", "Durability"): a run executes only where
 * its lease is held; a run left unfinished (waiting, or interrupted by a stop) is released for any
 * engine to take; a run whose execution failed on a store error is released at once and tried
 * again here after a wait that doubles. What executing one run's steps means is the
 * {@link Executor}'s.
 */
import type { Executor } from '../steps/executor';
import { FINAL_STATUSES, type RunRecord } from '../ports';
import type { AutomationRegistry } from '../kinds/automations';
import { abandonStepTest, isStepTestRun } from '../steps/step-test';
import type { Ticker } from '../ticker';
import { noteLimit, type RunContext } from './context';
import type { Cancellation } from './cancellation';
import type { Leases } from './leases';
import type { SubRuns } from './sub-runs';
import type { RunWaiters } from './waiters';

/** Tries again in a row of a run whose execution failed on a store error (see {@link RunExecution.runOne}). */
export const MAX_FAILED_TRIES = 6;
/** Wait before the first try again of such a run, in ms; it doubles with each further try. */
export const FAILED_RETRY_BASE_MS = 500;

/** What {@link RunExecution} needs besides the context. */
export interface ExecutionDeps {
  executor: Executor;
  registry: AutomationRegistry;
  ticker: Ticker;
  leases: Leases;
  cancellation: Cancellation;
  waiters: RunWaiters;
  subRuns: SubRuns;
  /** Tells the engine a run settled. */
  settled(run: RunRecord): void;
  /** Claims stored runs (and does what is due) when room freed up after a claim that filled the queue (`Engine.discover`). */
  discover(): Promise<void>;
}

/** The run queue's `execute` and `finished` of one engine. */
export class RunExecution {
  /** Runs whose execution failed on a store error, by the number of tries again so far. */
  private readonly failedTries = new Map<string, number>();

  constructor(
    private readonly ctx: RunContext,
    private readonly deps: ExecutionDeps,
  ) {}

  /**
   * Executes one run of the queue ({@link RunExecution.executeOne}). When that fails (a store error
   * outside any step: the run's status, its journal, its lease), the run is released at once, so
   * that another engine may take it up, and queued here again after a wait that doubles (from
   * {@link FAILED_RETRY_BASE_MS}, at most {@link MAX_FAILED_TRIES} times in a row), instead of
   * sitting claimed and idle until its lease runs out. It resumes at its first unfinished step.
   * Rethrows only while the engine is stopping.
   */
  async runOne(runId: string, entry: { automationId: string }): Promise<void> {
    const { ctx } = this;
    try {
      await this.executeOne(runId, entry);
      this.failedTries.delete(runId);
    } catch (error) {
      if (ctx.lifecycle.stopping) throw error;
      // Its automation was deleted while it executed: the run went with it and nothing is left to
      // write or to try again (a store that cannot answer now is a failure like any other).
      if ((await ctx.store.getRun(runId).catch(() => null)) === undefined) {
        this.failedTries.delete(runId);
        return;
      }
      const tries = (this.failedTries.get(runId) ?? 0) + 1;
      ctx.logger.warn({ err: error, runId, tries }, 'run execution failed on a store error; released to be tried again');
      await ctx.store
        .releaseRun(runId, ctx.workerId)
        .catch((release: unknown) => ctx.logger.warn({ err: release, runId }, 'releasing a run failed'));
      if (tries > MAX_FAILED_TRIES) {
        // Left to whichever engine claims it next (discovery, or the next start).
        this.failedTries.delete(runId);
        return;
      }
      this.failedTries.set(runId, tries);
      const timer = setTimeout(
        () => {
          if (!ctx.lifecycle.stopping) ctx.runs.add(runId);
        },
        FAILED_RETRY_BASE_MS * 2 ** (tries - 1),
      );
      timer.unref?.();
    }
  }

  /**
   * Executes one run, when this engine holds its lease (a run created here is claimed as it is
   * stored; any other is claimed now, and left alone when another engine holds it). A run left
   * unfinished (waiting, or interrupted by a stop) is released for any engine to take.
   * Sets `entry.automationId` once the run is read. Rejects on a store error.
   */
  private async executeOne(runId: string, entry: { automationId: string }): Promise<void> {
    const { ctx, deps } = this;
    const { store, clock, workerId } = ctx;
    let run = ctx.fresh.get(runId);
    const fresh = run !== undefined;
    ctx.fresh.delete(runId);
    // Claimed and read in one operation (a run not stored is never claimed).
    if (!run) run = await store.claimAndGetRun(runId, deps.leases.lease());
    if (!run) {
      deps.waiters.handOver(runId);
      return;
    }
    entry.automationId = run.automationId;
    const now = clock.now();
    if (FINAL_STATUSES.has(run.status)) return;
    if (isStepTestRun(run)) return abandonStepTest(store, clock, run);
    if (run.status === 'waiting' && (run.wakeAt === undefined || run.wakeAt > now)) {
      await store.releaseRun(runId, workerId);
      return;
    }
    if (deps.cancellation.isRequested(runId)) {
      await store.updateRun(runId, { status: 'cancelled', finishedAt: now, wakeAt: undefined });
      deps.settled({ ...run, status: 'cancelled', finishedAt: now });
      return;
    }
    const definition = await deps.registry.definitionOf(run);
    noteLimit(ctx, run.automationId, definition);
    const { result, run: written } = await deps.executor.execute(run, definition, fresh);
    if (result === 'interrupted') {
      await store.releaseRun(runId, workerId);
      return;
    }
    // A final run is as the executor wrote it: nobody else writes a run this engine holds, and a
    // final run never changes. A waiting one is read again: an event, a decision or a child's end
    // (in another process) may have resolved or woken it since the executor wrote it.
    const after = written ?? (await store.getRun(runId));
    if (!after) return;
    if (!FINAL_STATUSES.has(after.status)) await store.releaseRun(runId, workerId);
    deps.settled(after);
    if (after.status === 'waiting' && after.wakeAt !== undefined) deps.ticker.arm(after.wakeAt);
    await deps.subRuns.checkChild(after);
  }

  /**
   * After a run's execution here (also when it threw): forgets its cancel request, claims again
   * when an earlier claim left runs behind and there is room now, and wakes the run again if a
   * child it waits on ended meanwhile.
   */
  finished(runId: string): void {
    const { ctx, deps } = this;
    deps.cancellation.forget(runId);
    if (!ctx.lifecycle.stopping && deps.leases.takeBacklog()) {
      void deps.discover().catch((error: unknown) => ctx.logger.warn({ err: error }, 'claiming runs failed'));
    }
    deps.subRuns.executionEnded(runId);
  }
}
