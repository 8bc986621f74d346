/**
 * What follows a run settling (a final status, or waiting) wherever it settled here — executed,
 * cancelled, or created `skipped`: its parent is woken when it was a child that ended, its waiting
 * children are cancelled when it was cancelled, its waiters here are resolved, and the host's
 * `onRunSettled` is called.
 */
import { FINAL_STATUSES, type Logger, type RunRecord } from '../ports';
import type { Cancellation } from './cancellation';
import type { SubRuns } from './sub-runs';
import type { RunWaiters } from './waiters';

/** What {@link settleRun} tells. */
export interface SettleDeps {
  logger: Logger;
  subRuns: SubRuns;
  cancellation: Cancellation;
  waiters: RunWaiters;
  /** The host's hook (`EngineOptions.onRunSettled`). */
  onRunSettled: ((run: RunRecord) => void) | undefined;
}

/**
 * Tells everyone concerned that `run` settled. Never throws: the failures of what it sets off
 * (waking a parent, cancelling children, the host's hook) are logged.
 */
export function settleRun(deps: SettleDeps, run: RunRecord): void {
  const { logger } = deps;
  if (run.trigger.parent && FINAL_STATUSES.has(run.status)) {
    void deps.subRuns.wakeParent(run).catch((error: unknown) => logger.warn({ err: error, runId: run.id }, 'waking the parent run failed'));
  }
  if (run.status === 'cancelled') {
    void deps.cancellation
      .cancelChildren(run.id)
      .catch((error: unknown) => logger.warn({ err: error, runId: run.id }, 'cancelling the child runs failed'));
  }
  deps.waiters.resolve(run);
  if (deps.onRunSettled) {
    try {
      deps.onRunSettled(run);
    } catch (error) {
      logger.warn({ err: error }, 'onRunSettled failed');
    }
  }
}
