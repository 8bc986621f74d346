/**
 * Cancelling runs (README "Automations", "Cancelling runs"), also across processes: a run executing
 * here stops at once (its step in flight aborted); a queued or waiting run this engine can claim is
 * cancelled in the store; a run another engine holds gets a cancel request in the store, which
 * that engine carries out ({@link Cancellation.carryOutRequests}) while this one watches for it.
 * The child runs a cancelled run waited for go with it.
 */
import type { SubRunInput } from '../kinds/flow/sub-run';
import { EngineError } from '../errors';
import { FINAL_STATUSES, type RunRecord } from '../ports';
import { runNotFound, type RunContext } from './context';
import type { Leases } from './leases';
import type { RunWaiters } from './waiters';

/** How long a non-executing engine's `cancelRun` waits for the executing engine to cancel, in ms. */
export const CANCEL_WAIT_MS = 10_000;

/** What {@link Cancellation} needs besides the context. */
export interface CancellationDeps {
  leases: Leases;
  waiters: RunWaiters;
  /** Aborts the step in flight of a run executing here (the executor's `abort`). */
  abort(runId: string): void;
  /** Tells the engine a run settled (cancelled here). */
  settled(run: RunRecord): void;
}

/** One engine's cancellations. */
export class Cancellation {
  /** Runs executing here asked to stop: the executor stops them at their next step boundary. */
  private readonly requested = new Set<string>();

  constructor(
    private readonly ctx: RunContext,
    private readonly deps: CancellationDeps,
  ) {}

  /** Whether the run (executing here) was asked to stop. */
  isRequested(runId: string): boolean {
    return this.requested.has(runId);
  }

  /** Forgets the cancel request of a run whose execution here ended. */
  forget(runId: string): void {
    this.requested.delete(runId);
  }

  /** Cancels a run executing here: it stops at once, its step in flight aborted (an HTTP call included). */
  requestLocal(runId: string): void {
    this.requested.add(runId);
    this.deps.abort(runId);
  }

  /**
   * Cancels a run that has not finished: queued and waiting runs at once, an executing run at its
   * next step boundary; the child runs it waits for go with it. A run another engine holds (and
   * every run, on a non-executing engine) gets a cancel request in the store, and is watched for
   * up to {@link CANCEL_WAIT_MS} until that engine cancelled it. Resolves to the run as stored
   * (unchanged when already final, as last read when the wait ran out).
   * @throws EngineError 404 when the run does not exist.
   */
  async cancelRun(runId: string): Promise<RunRecord> {
    const { store, runs } = this.ctx;
    const run = await store.getRun(runId);
    if (!run) throw runNotFound(runId);
    if (FINAL_STATUSES.has(run.status)) return run;
    if (!this.ctx.executes) return this.requestElsewhere(runId);
    if (runs.isExecuting(runId)) {
      this.requestLocal(runId);
      return run;
    }
    // Executing or claimed in another process: that engine cancels it.
    if (!(await store.claimRun(runId, this.deps.leases.lease()))) return this.requestElsewhere(runId);
    const now = this.ctx.clock.now();
    await store.updateRun(runId, { status: 'cancelled', finishedAt: now, wakeAt: undefined });
    runs.remove(runId);
    this.ctx.fresh.delete(runId);
    const cancelled: RunRecord = { ...run, status: 'cancelled', finishedAt: now };
    delete cancelled.wakeAt;
    this.deps.settled(cancelled);
    return cancelled;
  }

  /** Records a cancel request for the engine that executes the run, and watches for it to be carried out. */
  private async requestElsewhere(runId: string): Promise<RunRecord> {
    await this.ctx.store.requestCancel(runId);
    this.ctx.onWork?.();
    return this.deps.waiters.watch(runId, CANCEL_WAIT_MS, (r) => FINAL_STATUSES.has(r.status));
  }

  /**
   * Cancels every unfinished run of an automation (it was disabled or deleted): those executing
   * here at once, the pending ones this engine can claim in the store, and a cancel request for
   * the rest (executing in other processes, they stop at their next step there).
   */
  async cancelRunsOf(automationId: string): Promise<void> {
    const { store } = this.ctx;
    const local = new Set(this.ctx.runs.executingOf(automationId));
    for (const runId of local) this.requestLocal(runId);
    for (const run of await store.listPendingRuns(automationId)) {
      if (this.ctx.executes && (await store.claimRun(run.id, this.deps.leases.lease()))) await this.cancelRun(run.id);
      else await store.requestCancel(run.id);
    }
    for (const run of await store.listRuns({ automationId, status: 'running', limit: 1000 })) {
      if (!local.has(run.id)) await store.requestCancel(run.id);
    }
    this.ctx.onWork?.();
  }

  /**
   * Carries out the cancel requests in the store of runs executing or claimed here, or free (part
   * of `Engine.discover`); a run another engine holds is that engine's to cancel.
   */
  async carryOutRequests(): Promise<void> {
    const { store } = this.ctx;
    for (const runId of await store.listCancelRequests()) {
      if (this.requested.has(runId)) continue;
      if (this.ctx.runs.isExecuting(runId)) this.requestLocal(runId);
      else if (await store.claimRun(runId, this.deps.leases.lease())) await this.cancelRun(runId);
    }
  }

  /**
   * Cancels the child runs a cancelled run was waiting for (its `automation.run` steps with
   * `wait: true` still `waiting`), and theirs in turn: nobody would read their result.
   * Children started with `wait: false` go on. A child already deleted (with its automation) is skipped.
   */
  async cancelChildren(parentId: string): Promise<void> {
    for (const step of await this.ctx.store.getSteps(parentId)) {
      if (step.type !== 'automation.run' || step.status !== 'waiting') continue;
      const childId = (step.input as SubRunInput | undefined)?.runId;
      if (childId === undefined) continue;
      try {
        await this.cancelRun(childId);
      } catch (error) {
        // The child's automation was deleted with its runs.
        if (!(error instanceof EngineError && error.status === 404)) throw error;
      }
    }
  }
}
