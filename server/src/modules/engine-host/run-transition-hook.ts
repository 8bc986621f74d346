import type { RunRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';

/**
 * The run store's extension point on run writes (`RunStore.updateRun`): the store stores, and
 * whoever constructs it (the engine host, `runtime.ts`) decides what else a run's transition
 * writes, in the same transaction as the run, so that nothing it writes is lost or written for a
 * run write that rolled back.
 */

/** One write of a run's fields, as the store hands it to its {@link RunTransitionHook}. */
export interface RunTransition {
  /** The run written. */
  runId: string;
  /** The run as stored before the write, read in the write's transaction; `undefined` when there is no such run. */
  before: RunRecord | undefined;
  /** The fields written (`RunStore.updateRun`'s patch): the run after the write is `before` with these. */
  patch: Partial<RunRecord>;
}

/**
 * Called by the run store on the run writes it observes, inside each write's transaction. The
 * store calls it in this order: {@link observes} (before anything is written), then, for an
 * observed write, {@link onRunWritten} in the transaction after the run's row is written, then
 * {@link afterCommit} once that transaction committed, if `onRunWritten` wrote anything.
 */
export interface RunTransitionHook {
  /**
   * Whether a write of `patch` concerns the hook. An observed write is one transaction that reads
   * the run first; any other may be a single statement. Pure and synchronous.
   */
  observes(patch: Partial<RunRecord>): boolean;
  /**
   * Writes what the transition brings, through `tx` (the run write's transaction; an error thrown
   * rolls the run write back too).
   * @returns whether anything was written (then {@link afterCommit} runs after the commit).
   */
  onRunWritten(tx: Sql, transition: RunTransition): Query<boolean>;
  /** After the commit of a write whose {@link onRunWritten} returned true (e.g. to wake its readers). Must not throw. */
  afterCommit(): void;
}
