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
import type { ActionContext } from './actions';
import { WORK_ACTIONS } from './actions';
import { approvalInput, delayUntil, loopItems, type ApprovalDecision, type ApprovalInput, type LoopInput } from './actions/control';
import { evaluateConditions, type ConditionResult } from './conditions';
import { SUB_RUN_RECHECK_MS, subRunOutput, subRunParams, type SubRunInput, type SubRunParams } from './actions/sub-run';
import type { Action, ApprovalAction, AutomationDefinition, BranchAction, DelayAction, LoopAction, RunAutomationAction } from './definition';
import { classifyError, permanent, type ErrorInfo } from './errors';
import { FINAL_STATUSES, type Clock, type Http, type RunRecord, type RunStatus, type RunStore, type Service, type StepRecord, type WaitInfo } from './ports';
import { backoffMs, retryPolicy } from './retry';
import type { Scope, Templates } from './templates';
import { SecretMask, type SecretSource } from './secrets';

/** What the executor needs from the engine. */
export interface ExecutorDeps {
  store: RunStore;
  service: Service;
  http: Http;
  clock: Clock;
  /** Source of retry jitter, a number in [0, 1) (see `backoffMs`). */
  random: () => number;
  templates: Templates;
  /** True when the run was cancelled while executing: stop at the next step boundary. */
  isCancelled(runId: string): boolean;
  /** True when the engine is stopping: leave the run as it is (resumed at the next start). */
  isStopping(): boolean;
  /** The workspace's secrets for `{{ secrets.NAME }}`; none when absent. */
  secrets?: SecretSource;
  /**
   * Starts (or, for the same parent step, finds again) the child run of an `automation.run` step.
   * @throws ActionError (permanent) when the automation is unknown, outside the workspace or disabled.
   */
  startChild(parent: RunRecord, stepKey: string, params: SubRunParams): Promise<RunRecord>;
}

/** How a walk over an action list ended. */
type Outcome =
  | { kind: 'continue' }
  | { kind: 'end'; status: 'failed' | 'rejected' | 'cancelled'; error?: ErrorInfo }
  | { kind: 'suspend'; wakeAt?: number; waitingOn: WaitInfo }
  | { kind: 'interrupted' };

const CONTINUE: Outcome = { kind: 'continue' };

interface RunState {
  run: RunRecord;
  scope: Scope;
  journal: Map<string, StepRecord>;
  /** Journal key prefix of the actions being walked: '' at the top, `<loopKey>[<index>].` inside a loop iteration. */
  prefix: string;
  /** The secret values this execution has read, masked in everything it records. */
  mask: SecretMask;
  /** Whether the definition mentions `secrets` at all; if not, no step reads them. */
  readsSecrets: boolean;
}

/**
 * The journal key of an action in the current walk: its id at the top level, and
 * `<loop key>[<index>].<id>` inside loop iterations (e.g. `each[2].create`), so that every
 * iteration is journalled on its own and a resumed run skips the iterations that finished.
 */
function stepKey(st: RunState, action: Action): string {
  return st.prefix + action.id;
}

/** The result of one execution of a run: its new status, or `interrupted` (engine stopping). */
export type ExecutionResult = RunStatus | 'interrupted';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A JSON copy, so that outputs look the same in this execution and after a resume. */
function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** Runs the actions of one run. Stateless between runs; one instance serves the engine. */
export class Executor {
  constructor(private readonly deps: ExecutorDeps) {}

  /**
   * Executes (or resumes) `run` with the definition of its version and records the result on
   * the run. `fresh` (a run this engine just created) skips reading the empty journal.
   */
  async execute(run: RunRecord, definition: AutomationDefinition, fresh: boolean): Promise<ExecutionResult> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const startedAt = run.startedAt ?? now;
    await store.updateRun(run.id, { status: 'running', startedAt, wakeAt: undefined, waitingOn: undefined });
    const steps = fresh ? [] : await store.getSteps(run.id);
    const state: RunState = {
      run,
      journal: new Map(steps.map((s) => [s.stepId, s])),
      prefix: '',
      mask: new SecretMask(),
      readsSecrets: this.deps.secrets !== undefined && JSON.stringify(definition.actions).includes('secrets'),
      scope: {
        trigger: run.trigger.variables,
        steps: {},
        run: { id: run.id, createdAt: iso(run.createdAt), startedAt: iso(startedAt), depth: run.depth, test: run.test, triggerType: run.trigger.type },
        automation: { id: run.automationId, name: definition.name, version: run.version, workspaceId: run.workspaceId },
      },
    };
    let outcome: Outcome;
    try {
      outcome = await this.walk(definition.actions, state);
    } catch (error) {
      // A store failure or a bug; when stopping (store closing) leave the run to be resumed.
      if (this.deps.isStopping()) return 'interrupted';
      const info = classifyError(error);
      outcome = { kind: 'end', status: 'failed', error: { code: 'ENGINE_ERROR', message: info.message, transient: false } };
    }
    const at = clock.now();
    switch (outcome.kind) {
      case 'interrupted':
        return 'interrupted';
      case 'continue':
        await store.updateRun(run.id, { status: 'completed', finishedAt: at });
        return 'completed';
      case 'end': {
        const patch: Partial<RunRecord> = { status: outcome.status, finishedAt: at };
        if (outcome.error) patch.error = state.mask.apply(outcome.error);
        await store.updateRun(run.id, patch);
        return outcome.status;
      }
      case 'suspend':
        await store.updateRun(run.id, { status: 'waiting', wakeAt: outcome.wakeAt, waitingOn: outcome.waitingOn });
        return 'waiting';
    }
  }

  private async walk(actions: Action[] | undefined, st: RunState): Promise<Outcome> {
    for (const action of actions ?? []) {
      const outcome = await this.step(action, st);
      if (outcome.kind !== 'continue') return outcome;
    }
    return CONTINUE;
  }

  private async step(action: Action, st: RunState): Promise<Outcome> {
    if (this.deps.isStopping()) return { kind: 'interrupted' };
    const rec = st.journal.get(stepKey(st, action));
    if (rec?.status === 'succeeded') {
      st.scope.steps[action.id] = rec.output;
      return this.descend(action, rec.output, st);
    }
    if (rec?.status === 'failed') return { kind: 'end', status: 'failed', error: { ...rec.error!, stepId: stepKey(st, action) } };
    if (this.deps.isCancelled(st.run.id)) return { kind: 'end', status: 'cancelled' };
    await this.readSecrets(st);
    switch (action.type) {
      case 'branch':
        return this.branch(action, st);
      case 'approval':
        return this.approval(action, rec, st);
      case 'delay':
        return this.delay(action, rec, st);
      case 'loop':
        return this.loop(action, rec, st);
      case 'automation.run':
        return this.subRun(action, rec, st);
      default:
        return this.work(action, rec, st);
    }
  }

  /** After a control step succeeded (now or in the journal): follow the path it chose. */
  private descend(action: Action, output: unknown, st: RunState): Promise<Outcome> | Outcome {
    if (action.type === 'branch') return this.walk((output as ConditionResult).result ? action.then : action.else, st);
    if (action.type === 'approval') {
      const decision = output as ApprovalDecision;
      if (decision.decision === 'approved') return this.walk(action.then, st);
      if ((action.onReject ?? 'end') === 'else') return this.walk(action.else, st);
      return { kind: 'end', status: 'rejected' };
    }
    return CONTINUE;
  }

  /** Reads the workspace's secrets again before a step, so a rotated value is used from the next step on. */
  private async readSecrets(st: RunState): Promise<void> {
    if (!st.readsSecrets) return;
    const secrets = await this.deps.secrets!(st.run.workspaceId);
    st.mask.add(secrets);
    st.scope.secrets = secrets;
  }

  /** Journals a step with every secret value masked; returns what was recorded. */
  private async record(st: RunState, step: StepRecord): Promise<StepRecord> {
    const saved: StepRecord = { ...step };
    if (step.input !== undefined) saved.input = st.mask.apply(step.input);
    if (step.output !== undefined) saved.output = st.mask.apply(step.output);
    if (step.error !== undefined) saved.error = st.mask.apply(step.error);
    await this.deps.store.saveStep(saved);
    st.journal.set(saved.stepId, saved);
    return saved;
  }

  /** Records a step that failed before doing anything (template error...) and ends the run. */
  private async failEarly(action: Action, st: RunState, error: unknown, attempts: number, startedAt: number): Promise<Outcome> {
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

  private async succeed(action: Action, st: RunState, base: Omit<StepRecord, 'status' | 'output'>, output: unknown): Promise<void> {
    const at = this.deps.clock.now();
    const value = plain(output);
    const done: StepRecord = { ...base, status: 'succeeded', output: value, finishedAt: at, durationMs: at - base.startedAt };
    delete done.error;
    delete done.nextAttemptAt;
    // Later steps see the output as recorded (secrets masked), the same as after a resume.
    st.scope.steps[action.id] = (await this.record(st, done)).output;
  }

  private async branch(action: BranchAction, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    let result: ConditionResult;
    try {
      result = evaluateConditions(this.deps.templates, action.conditions, st.scope);
    } catch (error) {
      return this.failEarly(action, st, error, 1, now);
    }
    const { evaluated, ...output } = result;
    await this.succeed(action, st, { runId: st.run.id, stepId: stepKey(st, action), type: action.type, input: { rules: evaluated }, attempts: 1, startedAt: now }, output);
    return this.descend(action, output, st);
  }

  private async approval(action: ApprovalAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    const waitingOn: WaitInfo = { kind: 'approval', stepId: stepKey(st, action) };
    if (!rec) {
      let input: ApprovalInput;
      try {
        input = approvalInput(action, st.scope, this.deps.templates, now);
      } catch (error) {
        return this.failEarly(action, st, error, 1, now);
      }
      await this.record(st, { runId: st.run.id, stepId: stepKey(st, action), type: action.type, status: 'waiting', input, attempts: 1, startedAt: now });
      return { kind: 'suspend', wakeAt: input.timeoutAt, waitingOn };
    }
    const input = rec.input as ApprovalInput;
    if (input.timeoutAt !== undefined && now >= input.timeoutAt) {
      const decision: ApprovalDecision = {
        decision: input.onTimeout === 'approve' ? 'approved' : 'rejected',
        decidedBy: null,
        decidedAt: iso(now),
        timedOut: true,
      };
      await this.succeed(action, st, rec, decision);
      return this.descend(action, decision, st);
    }
    return { kind: 'suspend', wakeAt: input.timeoutAt, waitingOn };
  }

  private async delay(action: DelayAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    let step = rec;
    if (!step) {
      let until: number;
      try {
        until = delayUntil(action, st.scope, this.deps.templates, now);
      } catch (error) {
        return this.failEarly(action, st, error, 1, now);
      }
      step = { runId: st.run.id, stepId: stepKey(st, action), type: action.type, status: 'waiting', input: { until: iso(until) }, attempts: 1, startedAt: now };
      if (until > now) await this.record(st, step);
    }
    const until = Date.parse((step.input as { until: string }).until);
    if (now >= until) {
      await this.succeed(action, st, step, { until: iso(until), resumedAt: iso(now) });
      return CONTINUE;
    }
    return { kind: 'suspend', wakeAt: until, waitingOn: { kind: 'delay', stepId: stepKey(st, action) } };
  }

  /**
   * A loop: journals its items once (a resumed run iterates the same list), then walks its
   * actions once per item under the keys `<key>[<index>].` with `loop` in scope. Iterations whose
   * steps all succeeded are replayed from the journal, not run again. A step failing inside an
   * iteration fails the loop step and the run.
   */
  private async loop(action: LoopAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const key = stepKey(st, action);
    let step = rec;
    if (!step) {
      const now = this.deps.clock.now();
      let items: unknown[];
      try {
        items = loopItems(action, st.scope, this.deps.templates);
      } catch (error) {
        return this.failEarly(action, st, error, 1, now);
      }
      const input: LoopInput = { count: items.length, items: plain(items) as unknown[] };
      step = { runId: st.run.id, stepId: key, type: action.type, status: 'running', input, attempts: 1, startedAt: now };
      await this.record(st, step);
    }
    const { items } = step.input as LoopInput;
    const outer = { prefix: st.prefix, loop: st.scope.loop, steps: st.scope.steps };
    const iterations: Record<string, unknown>[] = [];
    let outcome: Outcome = CONTINUE;
    try {
      for (let index = 0; index < items.length && outcome.kind === 'continue'; index++) {
        st.prefix = `${key}[${index}].`;
        st.scope.loop = { item: items[index], index, count: items.length };
        st.scope.steps = { ...outer.steps };
        outcome = await this.walk(action.actions, st);
        if (outcome.kind === 'continue') iterations.push(Object.fromEntries(action.actions.map((a) => [a.id, st.scope.steps[a.id] ?? null])));
      }
    } finally {
      st.prefix = outer.prefix;
      st.scope.steps = outer.steps;
      if (outer.loop === undefined) delete st.scope.loop;
      else st.scope.loop = outer.loop;
    }
    if (outcome.kind === 'end' && outcome.status === 'failed') {
      const at = this.deps.clock.now();
      await this.record(st, { ...step, status: 'failed', error: outcome.error, finishedAt: at, durationMs: at - step.startedAt });
    }
    if (outcome.kind !== 'continue') return outcome;
    await this.succeed(action, st, step, { count: items.length, iterations });
    return CONTINUE;
  }

  /**
   * Run another automation: journals the step as `running`, starts the child (de-duplicated per
   * parent step, so a step interrupted here finds the same child on resume), then either succeeds
   * at once (`wait: false`) or waits until the child ends. The child's end wakes this run; a
   * periodic re-check ({@link SUB_RUN_RECHECK_MS}) covers a crash in between.
   */
  private async subRun(action: RunAutomationAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const key = stepKey(st, action);
    let step = rec;
    if (step?.status !== 'waiting') {
      const startedAt = step?.startedAt ?? this.deps.clock.now();
      let params: SubRunParams;
      let child: RunRecord;
      try {
        params = subRunParams(action, st.scope, this.deps.templates);
        if (!step) await this.record(st, { runId: st.run.id, stepId: key, type: action.type, status: 'running', input: params, attempts: 1, startedAt });
        child = await this.deps.startChild(st.run, key, params);
        if (child.status === 'skipped' || !params.wait) {
          const output = child.status === 'skipped' ? subRunOutput(child, []) : { runId: child.id, status: child.status };
          await this.succeed(action, st, { runId: st.run.id, stepId: key, type: action.type, input: { ...params, runId: child.id }, attempts: 1, startedAt }, output);
          return CONTINUE;
        }
      } catch (error) {
        return this.failEarly(action, st, error, 1, startedAt);
      }
      step = { runId: st.run.id, stepId: key, type: action.type, status: 'waiting', input: { ...params, runId: child.id }, attempts: 1, startedAt };
      await this.record(st, step);
    }
    const waitingOn: WaitInfo = { kind: 'automation', stepId: key };
    const child = await this.deps.store.getRun((step.input as SubRunInput).runId);
    if (child && !FINAL_STATUSES.has(child.status)) return { kind: 'suspend', wakeAt: this.deps.clock.now() + SUB_RUN_RECHECK_MS, waitingOn };
    let output: unknown;
    try {
      if (!child) throw permanent('NOT_FOUND', `the run ${(step.input as SubRunInput).runId} no longer exists (its automation was deleted)`);
      output = subRunOutput(child, await this.deps.store.getSteps(child.id));
    } catch (error) {
      const info = classifyError(error);
      const at = this.deps.clock.now();
      await this.record(st, { ...step, status: 'failed', error: info, finishedAt: at, durationMs: at - step.startedAt });
      return { kind: 'end', status: 'failed', error: { ...info, stepId: key } };
    }
    await this.succeed(action, st, step, output);
    return CONTINUE;
  }

  private async work(action: Action, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const { clock, templates } = this.deps;
    const now = clock.now();
    if (rec?.status === 'retrying' && rec.nextAttemptAt !== undefined && rec.nextAttemptAt > now) {
      return { kind: 'suspend', wakeAt: rec.nextAttemptAt, waitingOn: { kind: 'retry', stepId: stepKey(st, action) } };
    }
    const kind = WORK_ACTIONS[action.type]!;
    const attempt = (rec?.attempts ?? 0) + 1;
    const startedAt = rec?.startedAt ?? now;
    let params: unknown;
    try {
      params = kind.prepare(action, st.scope, templates);
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
      service: this.deps.service,
      http: this.deps.http,
      clock,
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
    try {
      output = await kind.execute(ctx, params, action);
    } catch (error) {
      const info = classifyError(error);
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
    }
    await this.succeed(action, st, running, output);
    return CONTINUE;
  }
}
