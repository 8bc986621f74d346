/**
 * The step journal of a run's execution (README "Automations", "Durability"): the types the
 * executor's parts share, and how a step is recorded — secrets masked, the output put in scope.
 */
import type { ActionContext, ActionKind } from '../kinds/executor';
import type { SubRunParams } from '../kinds/flow/sub-run';
import type { Action } from '../definition';
import { classifyError, type ErrorInfo } from '../errors';
import type { Clock, Http, RunRecord, RunStatus, RunStore, Service, StepRecord, WaitInfo } from '../ports';
import type { McpClient } from '../mcp-client';
import type { SecretMask, SecretSource } from '../secrets';
import type { Scope, Templates } from '../templates';

/** What the executor needs from the engine. */
export interface ExecutorDeps {
  store: RunStore;
  service: Service;
  http: Http;
  /** The host's MCP client (`EngineOptions.mcp`). */
  mcp?: McpClient;
  clock: Clock;
  /** Source of retry jitter, a number in [0, 1) (see `backoffMs`). */
  random: () => number;
  templates: Templates;
  /** Where `code` steps run. */
  sandbox: ActionContext['sandbox'];
  /** The kinds that do work, by type (the engine's `KindRegistry.workActions`). */
  workActions: Readonly<Record<string, ActionKind<never, unknown>>>;
  /** True when the run was cancelled while executing: stop at the next step boundary. */
  isCancelled(runId: string): boolean;
  /** True when the engine is stopping: leave the run as it is (resumed at the next start). */
  isStopping(): boolean;
  /** The workspace's secrets for `{{ secrets.NAME }}`; none when absent. */
  secrets?: SecretSource;
  /** The URL that sends a run the event it waits for (`{{ run.resumeUrl }}`); none when absent. */
  resumeUrl?: (runId: string) => string;
  /**
   * Starts (or, for the same parent step, finds again) the child run of an `automation.run` step.
   * @throws ActionError (permanent) when the automation is unknown, outside the workspace or disabled.
   */
  startChild(parent: RunRecord, stepKey: string, params: SubRunParams): Promise<RunRecord>;
}

/** How a walk over an action list ended. */
export type Outcome =
  | { kind: 'continue' }
  | { kind: 'end'; status: 'failed' | 'rejected' | 'cancelled'; error?: ErrorInfo }
  | { kind: 'suspend'; wakeAt?: number; waitingOn: WaitInfo }
  | { kind: 'interrupted' };

export const CONTINUE: Outcome = { kind: 'continue' };

/**
 * What an execution recorded but has not written yet, written with the next journal entry (before
 * the next step does anything) or with the run's next status, in one write.
 */
export interface Unwritten {
  /** Journal entries (a step's success, after which nothing was done yet), by journal key. */
  steps: Map<string, StepRecord>;
  /** The run's `running` write, for a run that was queued (see `Executor.execute`). */
  run?: Partial<RunRecord>;
}

/** One execution of one run: what the walk over its actions carries. */
export interface RunState {
  run: RunRecord;
  scope: Scope;
  journal: Map<string, StepRecord>;
  /** What this execution recorded but has not written yet; shared by its states (parallel branches, loop iterations). */
  pending: Unwritten;
  /** Journal key prefix of the actions being walked: '' at the top, `<loopKey>[<index>].` inside a loop iteration. */
  prefix: string;
  /** The secret values this execution has read, masked in everything it records. */
  mask: SecretMask;
  /** Whether the definition mentions `secrets` at all; if not, no step reads them. */
  readsSecrets: boolean;
  /** Aborted when the run is cancelled or passes its deadline. */
  signal: AbortSignal;
  /** The run's `timeoutMs` and the time it runs out (clock ms), when the definition sets one. */
  deadline?: { timeoutMs: number; at: number };
}

/**
 * The journal key of an action in the current walk: its id at the top level, and
 * `<loop key>[<index>].<id>` inside loop iterations (e.g. `each[2].create`), so that every
 * iteration is journalled on its own and a resumed run skips the iterations that finished.
 */
export function stepKey(st: RunState, action: Action): string {
  return st.prefix + action.id;
}

/** The result of one execution of a run: its new status, or `interrupted` (engine stopping). */
export type ExecutionResult = RunStatus | 'interrupted';

/**
 * One execution of a run: its {@link ExecutionResult}, and for a final status the run as the
 * executor wrote it (nobody else writes a run while its executing engine holds it, and a final
 * run never changes again), so that the engine need not read it back.
 */
export interface Execution {
  result: ExecutionResult;
  /** The run as written, when `result` is a final status. */
  run?: RunRecord;
}

/** A time (ms since the epoch) as ISO 8601. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A JSON copy, so that outputs look the same in this execution and after a resume. */
export function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** Recording steps: the base of the executor. */
export abstract class StepJournal {
  constructor(protected readonly deps: ExecutorDeps) {}

  /** Reads the workspace's secrets again before a step, so a rotated value is used from the next step on. */
  protected async readSecrets(st: RunState): Promise<void> {
    if (!st.readsSecrets) return;
    const secrets = await this.deps.secrets!(st.run.workspaceId);
    st.mask.add(secrets);
    st.scope.secrets = secrets;
  }

  /**
   * Journals a step with every secret value masked; returns what was recorded. What
   * {@link RunState.pending} holds is written with it, in one write. With `defer` (a step's
   * success: nothing was done after it yet) the entry is only added to it: it is written with the
   * next entry, before the next step does anything, or with the run's next status.
   */
  protected async record(st: RunState, step: StepRecord, defer = false): Promise<StepRecord> {
    const saved: StepRecord = { ...step };
    if (step.input !== undefined) saved.input = st.mask.apply(step.input);
    if (step.output !== undefined) saved.output = st.mask.apply(step.output);
    if (step.error !== undefined) saved.error = st.mask.apply(step.error);
    if (defer) {
      st.pending.steps.set(saved.stepId, saved);
    } else {
      st.pending.steps.delete(saved.stepId);
      await this.write(st, [saved]);
    }
    st.journal.set(saved.stepId, saved);
    return saved;
  }

  /** Writes what {@link RunState.pending} holds now, when it holds anything. */
  protected async flush(st: RunState): Promise<void> {
    await this.write(st, []);
  }

  /**
   * Writes what {@link RunState.pending} holds followed by `steps`, in one write (one commit). It
   * is taken before the write (a parallel branch recording meanwhile does not write it again) and
   * put back when the write fails.
   */
  private async write(st: RunState, steps: StepRecord[]): Promise<void> {
    const { pending } = st;
    const taken = [...pending.steps.values()];
    const run = pending.run;
    const batch = [...taken, ...steps];
    if (batch.length === 0 && run === undefined) return;
    pending.steps.clear();
    delete pending.run;
    try {
      if (run !== undefined) await this.deps.store.updateRunWithSteps(st.run.id, run, batch);
      else if (batch.length === 1) await this.deps.store.saveStep(batch[0]!);
      else await this.deps.store.saveSteps(batch);
    } catch (error) {
      for (const entry of taken) if (!pending.steps.has(entry.stepId)) pending.steps.set(entry.stepId, entry);
      if (run !== undefined) pending.run = run;
      throw error;
    }
  }

  /**
   * Writes the run's fields (`patch`, its status) with what {@link RunState.pending} holds, in one
   * write. Nothing is held after it, also when it fails (the run's execution ends there).
   */
  protected async writeRun(st: RunState, patch: Partial<RunRecord>): Promise<void> {
    const steps = [...st.pending.steps.values()];
    const merged = { ...st.pending.run, ...patch };
    st.pending.steps.clear();
    delete st.pending.run;
    if (steps.length === 0) await this.deps.store.updateRun(st.run.id, merged);
    else await this.deps.store.updateRunWithSteps(st.run.id, merged, steps);
  }

  /** Records a step that failed before doing anything (template error...) and ends the run. */
  protected async failEarly(action: Action, st: RunState, error: unknown, attempts: number, startedAt: number): Promise<Outcome> {
    const info = classifyError(error);
    delete info.retryAfterMs;
    const at = this.deps.clock.now();
    await this.record(st, {
      runId: st.run.id,
      stepId: stepKey(st, action),
      type: action.type,
      status: 'failed',
      error: info,
      attempts,
      startedAt,
      finishedAt: at,
      durationMs: at - startedAt,
    });
    return { kind: 'end', status: 'failed', error: { ...info, stepId: stepKey(st, action) } };
  }

  protected async succeed(action: Action, st: RunState, base: Omit<StepRecord, 'status' | 'output'>, output: unknown): Promise<void> {
    const at = this.deps.clock.now();
    const value = plain(output);
    const done: StepRecord = { ...base, status: 'succeeded', output: value, finishedAt: at, durationMs: at - base.startedAt };
    delete done.error;
    delete done.nextAttemptAt;
    // Later steps see the output as recorded (secrets masked), the same as after a resume.
    st.scope.steps[action.id] = (await this.record(st, done, true)).output;
  }
}
