/**
 * Walks a run's action list, journalling every step through the store before the next one
 * starts (README "Automations", "Durability").
 *
 * Resuming is replay: the executor walks the definition from the top; a step the journal shows
 * `succeeded` is not run again, its recorded output is put back into `steps.<id>` (and a
 * branch's or approval's recorded outcome picks the same path), so a resumed run continues at
 * its first unfinished step. A step found `running` was interrupted mid-attempt: that attempt
 * is repeated (task actions are exactly-once when the host honours the idempotency key; HTTP
 * requests are at-least-once in that window).
 */
import type { ActionContext } from '../kinds/executor';
import type { ConditionResult } from '../conditions';
import type { ApprovalDecision } from '../kinds/flow/control';
import type { Action, AutomationDefinition } from '../definition';
import { classifyError, permanent, type ErrorInfo } from '../errors';
import type { RunRecord, StepRecord } from '../ports';
import { backoffMs, retryPolicy } from '../retry';
import { SECRET_READS } from '../templates';
import { SecretMask } from '../secrets';
import { attemptSignal, raceAbort, RunAborts, RunCancelled, runTimeout } from '../aborts';
import { ControlSteps, type ParallelOutput } from './control-steps';
import { CONTINUE, iso, plain, stepKey, type Execution, type ExecutorDeps, type Outcome, type RunState } from './step-journal';

export type { Execution, ExecutionResult, ExecutorDeps } from './step-journal';

/** Runs the actions of one run. Stateless between runs; one instance serves the engine. */
export class Executor extends ControlSteps {
  /** The abort signals of the runs executing here. */
  private readonly aborts = new RunAborts();

  constructor(deps: ExecutorDeps) {
    super(deps);
  }

  /** `run.resumeUrl` when the host makes one and the definition reads it. */
  private links(run: RunRecord, definition: AutomationDefinition): { resumeUrl?: string } {
    if (!this.deps.resumeUrl || !JSON.stringify(definition.actions).includes('resumeUrl')) return {};
    return { resumeUrl: this.deps.resumeUrl(run.id) };
  }

  /** Aborts the step in flight of a run executing here (a cancel); the run ends `cancelled`. */
  abort(runId: string): void {
    this.aborts.cancel(runId);
  }

  /**
   * Executes (or resumes) `run` with the definition of its version and records the result on
   * the run: its status, written with the journal entries not written yet (one write). Resolves to
   * the result, with the run as written when it is final. `fresh` (a run this engine just created)
   * skips reading the empty journal. `pinned` (a step test, `step-test.ts`): outputs of steps not
   * in `definition`, put in `steps.*` first. Rejects on a store error outside any step.
   */
  async execute(run: RunRecord, definition: AutomationDefinition, fresh: boolean, pinned?: Record<string, unknown>): Promise<Execution> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const startedAt = run.startedAt ?? now;
    const starting: Partial<RunRecord> = { status: 'running', startedAt, wakeAt: undefined, waitingOn: undefined };
    // A queued run is written `running` with its first journal entry (before its first step does
    // anything) or its next status: while this engine holds it nobody else writes it (an event,
    // a decision or a child's end only resolve or wake a waiting run). A waiting run is written
    // `running` now, so that such a writer finds it no longer waiting.
    const queued = run.status === 'queued';
    if (!queued) await store.updateRun(run.id, starting);
    const steps = fresh ? [] : await store.getSteps(run.id);
    const deadline =
      definition.timeoutMs === undefined ? undefined : { timeoutMs: definition.timeoutMs, at: run.createdAt + definition.timeoutMs };
    const state: RunState = {
      signal: this.aborts.begin(run.id, deadline && { remainingMs: deadline.at - now, timeoutMs: deadline.timeoutMs }),
      ...(deadline ? { deadline } : {}),
      run,
      journal: new Map(steps.map((s) => [s.stepId, s])),
      pending: { steps: new Map(), ...(queued ? { run: starting } : {}) },
      prefix: '',
      mask: new SecretMask(),
      // An agent's own MCP servers may name secrets too (`agent.command`, docs/mcp.md).
      readsSecrets: this.deps.secrets !== undefined && /secrets|"agent\.command"/.test(JSON.stringify(definition.actions)),
      scope: {
        trigger: run.trigger.variables,
        steps: { ...pinned },
        run: {
          id: run.id,
          createdAt: iso(run.createdAt),
          startedAt: iso(startedAt),
          depth: run.depth,
          test: run.test,
          triggerType: run.trigger.type,
          ...this.links(run, definition),
        },
        automation: { id: run.automationId, name: definition.name, version: run.version, workspaceId: run.workspaceId },
      },
    };
    if (state.readsSecrets) state.scope[SECRET_READS] = state.mask.observe;
    let outcome: Outcome;
    try {
      outcome = await this.walk(definition.actions, state);
    } catch (error) {
      // A store failure or a bug; when stopping (store closing) leave the run to be resumed.
      if (this.deps.isStopping()) {
        // What succeeded is kept if the store still takes it; if not, those steps run again on resume.
        await this.flush(state).catch(() => undefined);
        return { result: 'interrupted' };
      }
      const info = classifyError(error);
      outcome = { kind: 'end', status: 'failed', error: { code: 'ENGINE_ERROR', message: info.message, transient: false } };
    } finally {
      this.aborts.end(run.id);
    }
    // A wait ends at the run's deadline at the latest, to fail it then.
    if (outcome.kind === 'suspend' && state.deadline) outcome.wakeAt = Math.min(outcome.wakeAt ?? Infinity, state.deadline.at);
    const at = clock.now();
    switch (outcome.kind) {
      case 'interrupted':
        await this.flush(state);
        return { result: 'interrupted' };
      case 'continue':
        return this.finish(state, startedAt, { status: 'completed', finishedAt: at });
      case 'end': {
        const patch: Partial<RunRecord> & Pick<RunRecord, 'status'> = { status: outcome.status, finishedAt: at };
        if (outcome.error) patch.error = state.mask.apply(outcome.error);
        return this.finish(state, startedAt, patch);
      }
      case 'suspend':
        await this.writeRun(state, { status: 'waiting', wakeAt: outcome.wakeAt, waitingOn: outcome.waitingOn });
        return { result: 'waiting' };
    }
  }

  /** Writes a final status (`patch`) with the pending journal entries; resolves to it with the run as written. */
  private async finish(st: RunState, startedAt: number, patch: Partial<RunRecord> & Pick<RunRecord, 'status'>): Promise<Execution> {
    await this.writeRun(st, patch);
    // As `running` left it (no timer, no wait) with the final fields.
    const written: RunRecord = { ...st.run, startedAt, ...patch };
    delete written.wakeAt;
    delete written.waitingOn;
    return { result: patch.status, run: written };
  }

  protected async walk(actions: Action[] | undefined, st: RunState): Promise<Outcome> {
    for (const action of actions ?? []) {
      const outcome = await this.step(action, st);
      if (outcome.kind !== 'continue') return outcome;
    }
    return CONTINUE;
  }

  protected async step(action: Action, st: RunState): Promise<Outcome> {
    if (action.disabled) return CONTINUE;
    if (this.deps.isStopping()) return { kind: 'interrupted' };
    const key = stepKey(st, action);
    const rec = st.journal.get(key);
    if (rec?.status === 'succeeded') {
      st.scope.steps[action.id] = rec.output;
      return this.descend(action, rec.output, st);
    }
    if (rec?.status === 'failed') return this.failed(action, rec.error!, st);
    if (this.deps.isCancelled(st.run.id) || st.signal.reason instanceof RunCancelled) return { kind: 'end', status: 'cancelled' };
    if (st.deadline && this.deps.clock.now() >= st.deadline.at)
      return { kind: 'end', status: 'failed', error: { ...classifyError(runTimeout(st.deadline.timeoutMs)), stepId: key } };
    await this.readSecrets(st);
    const outcome = await this.dispatch(action, rec, st);
    // This step's own failure (not one inside a branch it chose): its error path decides.
    if (outcome.kind === 'end' && outcome.status === 'failed' && st.journal.get(key)?.status === 'failed')
      return this.failed(action, st.journal.get(key)!.error!, st);
    return outcome;
  }

  /**
   * A step failed (now, or in the journal): its `onError` decides. `fail` (default) ends the run;
   * `continue` goes on with `steps.<id>` = `{error}`; `{then}` walks the error path with `error`
   * in scope, then goes on. A run past its deadline fails whatever the step says.
   */
  protected async failed(action: Action, error: ErrorInfo, st: RunState): Promise<Outcome> {
    // A failure inside the step (a loop's or parallel's inner step) keeps naming that step.
    const info: ErrorInfo = { ...error, stepId: error.stepId ?? stepKey(st, action) };
    const onError = action.onError ?? 'fail';
    if (onError === 'fail' || info.code === 'RUN_TIMEOUT') return { kind: 'end', status: 'failed', error: info };
    const seen = { ...info } as unknown as Record<string, unknown>;
    st.scope.steps[action.id] = { error: seen };
    if (onError === 'continue') return CONTINUE;
    const outer = st.scope.error;
    st.scope.error = seen;
    try {
      return await this.walk(onError.then, st);
    } finally {
      if (outer === undefined) delete st.scope.error;
      else st.scope.error = outer;
    }
  }

  private dispatch(action: Action, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    switch (action.type) {
      case 'branch':
        return this.branch(action, st);
      case 'approval':
        return this.approval(action, rec, st);
      case 'delay':
        return this.delay(action, rec, st);
      case 'wait.event':
        return this.waitEvent(action, rec, st);
      case 'parallel':
        return this.parallel(action, rec, st);
      case 'loop':
        return this.loop(action, rec, st);
      case 'automation.run':
        return this.subRun(action, rec, st);
      default:
        return this.work(action, rec, st);
    }
  }

  /** After a control step succeeded (now or in the journal): follow the path it chose. */
  protected descend(action: Action, output: unknown, st: RunState): Promise<Outcome> | Outcome {
    if (action.type === 'branch') return this.walk((output as ConditionResult).result ? action.then : action.else, st);
    if (action.type === 'approval') {
      const decision = output as ApprovalDecision;
      if (decision.decision === 'approved') return this.walk(action.then, st);
      if ((action.onReject ?? 'end') === 'else') return this.walk(action.else, st);
      return { kind: 'end', status: 'rejected' };
    }
    if (action.type === 'parallel') this.joinBranches(st, output as ParallelOutput);
    return CONTINUE;
  }

  private async work(action: Action, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const { clock, templates } = this.deps;
    const now = clock.now();
    if (rec?.status === 'retrying' && rec.nextAttemptAt !== undefined && rec.nextAttemptAt > now) {
      return { kind: 'suspend', wakeAt: rec.nextAttemptAt, waitingOn: { kind: 'retry', stepId: stepKey(st, action) } };
    }
    const kind = this.deps.workActions[action.type];
    if (!kind)
      return this.failEarly(
        action,
        st,
        permanent('UNKNOWN_ACTION', `this engine has no action kind '${action.type}'`),
        (rec?.attempts ?? 0) + 1,
        rec?.startedAt ?? now,
      );
    const attempt = (rec?.attempts ?? 0) + 1;
    const startedAt = rec?.startedAt ?? now;
    let params: unknown;
    try {
      params = kind.prepare(action as never, st.scope, templates);
    } catch (error) {
      return this.failEarly(action, st, error, attempt, startedAt);
    }
    const running: StepRecord = {
      runId: st.run.id,
      stepId: stepKey(st, action),
      type: action.type,
      status: 'running',
      input: plain(kind.journalInput ? kind.journalInput(params) : params),
      attempts: attempt,
      startedAt,
    };
    if (rec?.error) running.error = rec.error;
    await this.record(st, running);
    const ctx: ActionContext = {
      run: st.run,
      scope: st.scope,
      templates,
      service: this.deps.service,
      http: this.deps.http,
      ...(this.deps.mcp ? { mcp: this.deps.mcp } : {}),
      clock,
      sandbox: this.deps.sandbox,
      mask: (value) => st.mask.apply(value),
      serviceContext: {
        workspaceId: st.run.workspaceId,
        ownerId: st.run.ownerId,
        automationId: st.run.automationId,
        runId: st.run.id,
        stepId: stepKey(st, action),
        depth: st.run.depth,
        idempotencyKey: `${st.run.id}:${stepKey(st, action)}`,
      },
    };
    let output: unknown;
    const limit = action.type === 'http.request' || action.type === 'code' ? undefined : (action as { timeoutMs?: number }).timeoutMs;
    const attempt$ = attemptSignal(st.signal, limit);
    ctx.signal = attempt$.signal;
    try {
      output = await raceAbort(kind.execute(ctx, params, action as never), attempt$.signal);
    } catch (thrown) {
      const aborted = attempt$.signal.aborted ? (attempt$.signal.reason as Error) : undefined;
      const error = aborted ?? thrown;
      const info = classifyError(error);
      if (error instanceof RunCancelled || info.code === 'RUN_TIMEOUT') {
        const at = clock.now();
        const recorded = error instanceof RunCancelled ? { code: 'CANCELLED', message: error.message, transient: false } : info;
        await this.record(st, { ...running, status: 'failed', error: recorded, finishedAt: at, durationMs: at - startedAt });
        return error instanceof RunCancelled
          ? { kind: 'end', status: 'cancelled' }
          : { kind: 'end', status: 'failed', error: { ...info, stepId: stepKey(st, action) } };
      }
      const retryAfter = info.retryAfterMs;
      delete info.retryAfterMs;
      const policy = retryPolicy(action.type, action.retry);
      const at = clock.now();
      if (info.transient && attempt < policy.maxAttempts) {
        const nextAttemptAt = at + backoffMs(policy, attempt, retryAfter, this.deps.random());
        await this.record(st, { ...running, status: 'retrying', error: info, nextAttemptAt });
        return { kind: 'suspend', wakeAt: nextAttemptAt, waitingOn: { kind: 'retry', stepId: stepKey(st, action) } };
      }
      await this.record(st, { ...running, status: 'failed', error: info, finishedAt: at, durationMs: at - startedAt });
      return { kind: 'end', status: 'failed', error: { ...info, stepId: stepKey(st, action) } };
    } finally {
      attempt$.dispose();
    }
    await this.succeed(action, st, running, output);
    return CONTINUE;
  }
}
