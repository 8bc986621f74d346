/**
 * Events sent to runs (docs/automations.md "Waiting for an event"): a run waiting on a
 * `wait.event` step continues when its event is sent, with the event's payload as the step's
 * output — like Inngest's `waitForEvent` or a Temporal signal. Who may send one is the host's.
 */
import { EngineError } from './errors';
import type { Clock, RunRecord, RunStore } from './ports';

/** What a `wait.event` step journals as its input while it waits. */
export interface WaitEventInput {
  event: string;
  /** When the wait ends without the event (ms since the epoch). */
  timeoutAt?: number;
}

/** The output of a `wait.event` step: the event as it came. */
export interface RunEventOutput {
  event: string;
  /** The JSON sent with the event (`{}` when none). */
  payload: unknown;
  /** ISO 8601. */
  receivedAt: string;
  /** Who sent it: a member's handle, or `resumeUrl` for a call to the run's resume URL. */
  sentBy: string;
}

/** What sending an event needs from the engine. */
export interface RunEventDeps {
  store: RunStore;
  clock: Clock;
  /** Queues the run to continue. */
  resume(run: RunRecord): void;
}

/**
 * Sends `event` with `payload` to `runId`. `event` undefined means whatever event the run waits
 * for (a call to its resume URL).
 * @returns the run as stored after the event.
 * @throws EngineError 404 (unknown run), 409 (not waiting for an event, waiting for another
 *   one, or it came meanwhile).
 */
export async function sendRunEvent(
  deps: RunEventDeps,
  runId: string,
  event: string | undefined,
  payload: unknown,
  sentBy: string,
): Promise<RunRecord> {
  const run = await deps.store.getRun(runId);
  if (!run) throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
  if (run.status !== 'waiting' || run.waitingOn?.kind !== 'event') {
    throw new EngineError(409, 'CONFLICT', `run '${runId}' is not waiting for an event (status ${run.status})`);
  }
  const stepId = run.waitingOn.stepId;
  const step = (await deps.store.getSteps(runId)).find((s) => s.stepId === stepId);
  const waitsFor = (step?.input as WaitEventInput | undefined)?.event;
  if (waitsFor === undefined || (event !== undefined && event !== waitsFor)) {
    throw new EngineError(409, 'CONFLICT', `run '${runId}' waits for the event '${waitsFor}', not '${event}'`);
  }
  const now = deps.clock.now();
  const output: RunEventOutput = { event: waitsFor, payload, receivedAt: new Date(now).toISOString(), sentBy };
  if (!(await deps.store.resolveWait(runId, stepId, output, now))) {
    throw new EngineError(409, 'CONFLICT', `run '${runId}' is no longer waiting for '${waitsFor}'`);
  }
  deps.resume(run);
  return (await deps.store.getRun(runId))!;
}
