/**
 * Stopping work in flight (docs/automations.md "Timeouts", "Cancelling"): one abort signal per
 * executing run, fired by a cancel or by the run's deadline, and one per step attempt that also
 * fires at the step's time limit. The reason of an abort says which it was.
 */
import { ActionError } from './errors';

/** The abort reason of a cancelled run. */
export class RunCancelled extends Error {
  constructor() {
    super('the run was cancelled');
    this.name = 'RunCancelled';
  }
}

/** The abort reason of a `parallel` branch stopped because another one settled the step first. */
export class BranchAbandoned extends RunCancelled {
  constructor(reason: string) {
    super();
    this.message = reason;
    this.name = 'BranchAbandoned';
  }
}

/** The permanent error of a run past its `timeoutMs`. */
export function runTimeout(timeoutMs: number): ActionError {
  return new ActionError('RUN_TIMEOUT', `the run took longer than its timeoutMs (${timeoutMs} ms)`, false);
}

/** The transient error of a step attempt past its `timeoutMs`. */
export function stepTimeout(timeoutMs: number): ActionError {
  return new ActionError('STEP_TIMEOUT', `the step took longer than its timeoutMs (${timeoutMs} ms)`, true);
}

/** The abort signals of the runs executing in one engine. */
export class RunAborts {
  private readonly runs = new Map<string, { controller: AbortController; timer?: NodeJS.Timeout }>();

  /**
   * The signal of one execution of `runId`: aborted by {@link cancel}, or with {@link runTimeout}
   * after `remainingMs` (wall time) when given. Call {@link end} when the execution ends.
   */
  begin(runId: string, deadline?: { remainingMs: number; timeoutMs: number }): AbortSignal {
    const controller = new AbortController();
    const entry: { controller: AbortController; timer?: NodeJS.Timeout } = { controller };
    if (deadline) {
      entry.timer = setTimeout(() => controller.abort(runTimeout(deadline.timeoutMs)), Math.max(0, deadline.remainingMs));
      entry.timer.unref();
    }
    this.runs.set(runId, entry);
    return controller.signal;
  }

  /** Forgets an execution's signal. */
  end(runId: string): void {
    const entry = this.runs.get(runId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.runs.delete(runId);
  }

  /** Aborts the step in flight of `runId`, if it executes here, as cancelled. */
  cancel(runId: string): void {
    this.runs.get(runId)?.controller.abort(new RunCancelled());
  }
}

/**
 * The signal of one step attempt: `run`'s, and {@link stepTimeout} after `limitMs` when given.
 * `dispose` clears the timer.
 */
export function attemptSignal(run: AbortSignal, limitMs: number | undefined): { signal: AbortSignal; dispose: () => void } {
  if (limitMs === undefined) return { signal: run, dispose: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(stepTimeout(limitMs)), limitMs);
  timer.unref();
  return { signal: AbortSignal.any([run, controller.signal]), dispose: () => clearTimeout(timer) };
}

/**
 * `work`, or a rejection with the signal's reason as soon as it aborts: the step stops waiting
 * for work that cannot be interrupted (a service call runs on; its idempotency key makes a
 * retry safe), and work that can (HTTP) is aborted through the same signal.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
