/**
 * What the engine's run collaborators (`runs/*.ts`: intake, leases, cancellation, waiters, sub-runs,
 * execution, schedules) share: the ports, the run queue and the little state more than one of them
 * reads or writes. One context per {@link Engine}, made by its constructor; nothing here is
 * module-level. See README "Automations", "Durability".
 */
import type { AutomationDefinition } from '../definition';
import { EngineError } from '../errors';
import { FINAL_STATUSES, type Clock, type Logger, type RunRecord, type RunStore } from '../ports';
import type { RunQueue } from '../run-queue';

/** The engine's lifecycle as its collaborators read it. */
export interface Lifecycle {
  /** True from `Engine.stop()` until the next `Engine.start()`: nothing new is claimed or retried. */
  stopping: boolean;
}

/** The shared context of one engine's run collaborators. */
export interface RunContext {
  readonly store: RunStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Whether this engine executes runs (`EngineOptions.executes`); false: it only records them. */
  readonly executes: boolean;
  /** This engine's id in run leases (`EngineOptions.workerId`). */
  readonly workerId: string;
  /** Told when a non-executing engine stored work for the executing one (`EngineOptions.onWork`). */
  readonly onWork: (() => void) | undefined;
  /** Queued and executing runs (FIFO per automation, a concurrency limit). */
  readonly runs: RunQueue;
  /**
   * Runs created here, claimed as they were stored and not executed yet, by id: the record as
   * stored. Their journal is empty, so their execution need not read the store first.
   */
  readonly fresh: Map<string, RunRecord>;
  /** The `concurrency` of the automations whose runs this engine created or executed (see {@link RunQueue}). */
  readonly limits: Map<string, number>;
  readonly lifecycle: Lifecycle;
}

/** A run has settled: a final status, or waiting. */
export function settledStatus(run: RunRecord): boolean {
  return FINAL_STATUSES.has(run.status) || run.status === 'waiting';
}

/** The error of a run id that does not exist (or no longer does): EngineError 404 `NOT_FOUND`. */
export function runNotFound(runId: string): EngineError {
  return new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
}

/**
 * Queues a stored run for execution here, in its automation's turn when `automationId` is
 * known; a non-executing engine leaves it to the executing one (and calls `onWork`).
 */
export function queueRun(ctx: RunContext, runId: string, automationId?: string): void {
  if (ctx.executes) ctx.runs.add(runId, automationId);
  else ctx.onWork?.();
}

/** Remembers an automation's `concurrency` for the run queue (forgets it when the definition sets none). */
export function noteLimit(ctx: RunContext, automationId: string, definition: AutomationDefinition): void {
  if (definition.concurrency === undefined) ctx.limits.delete(automationId);
  else ctx.limits.set(automationId, definition.concurrency);
}
