/**
 * The control steps of a run (README "Automations"): branch, approval, delay, loop and
 * `automation.run`. They walk nested action lists through the executor's `walk` and journal
 * themselves like any step, so a resumed run takes the same path.
 */
import { approvalInput, delayUntil, loopItems, type ApprovalDecision, type ApprovalInput, type LoopInput } from '../kinds/flow/control';
import { SUB_RUN_RECHECK_MS, subRunOutput, subRunParams, type SubRunInput, type SubRunParams } from '../kinds/flow/sub-run';
import { evaluateConditions, type ConditionResult } from '../conditions';
import type { Action } from '../definition';
import type {
  ApprovalAction,
  BranchAction,
  DelayAction,
  LoopAction,
  ParallelAction,
  RunAutomationAction,
  WaitEventAction,
} from '../kinds/flow/types';
import { BranchAbandoned } from '../aborts';
import type { WaitEventInput } from '../events';
import { classifyError, permanent } from '../errors';
import { FINAL_STATUSES, type RunRecord, type StepRecord, type WaitInfo } from '../ports';
import { CONTINUE, iso, plain, StepJournal, stepKey, type Outcome, type RunState } from './step-journal';

/** The output of a `parallel` step: each (finished) branch's step outputs, and the winner of a `first` join. */
export interface ParallelOutput {
  branches: Record<string, Record<string, unknown>>;
  first?: string;
}

/** The control steps; the executor supplies the walk over nested lists. */
export abstract class ControlSteps extends StepJournal {
  /** Walks an action list in order until one step does not continue. */
  protected abstract walk(actions: Action[] | undefined, st: RunState): Promise<Outcome>;
  /** After a control step succeeded (now or in the journal): follows the path it chose. */
  protected abstract descend(action: Action, output: unknown, st: RunState): Promise<Outcome> | Outcome;

  protected async branch(action: BranchAction, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    let result: ConditionResult;
    try {
      result = evaluateConditions(this.deps.templates, action.conditions, st.scope);
    } catch (error) {
      return this.failEarly(action, st, error, 1, now);
    }
    const { evaluated, ...output } = result;
    await this.succeed(
      action,
      st,
      { runId: st.run.id, stepId: stepKey(st, action), type: action.type, input: { rules: evaluated }, attempts: 1, startedAt: now },
      output,
    );
    return this.descend(action, output, st);
  }

  protected async approval(action: ApprovalAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    const waitingOn: WaitInfo = { kind: 'approval', stepId: stepKey(st, action) };
    if (!rec) {
      let input: ApprovalInput;
      try {
        input = approvalInput(action, st.scope, this.deps.templates, now);
      } catch (error) {
        return this.failEarly(action, st, error, 1, now);
      }
      await this.record(st, {
        runId: st.run.id,
        stepId: stepKey(st, action),
        type: action.type,
        status: 'waiting',
        input,
        attempts: 1,
        startedAt: now,
      });
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

  protected async delay(action: DelayAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const now = this.deps.clock.now();
    let step = rec;
    if (!step) {
      let until: number;
      try {
        until = delayUntil(action, st.scope, this.deps.templates, now);
      } catch (error) {
        return this.failEarly(action, st, error, 1, now);
      }
      step = {
        runId: st.run.id,
        stepId: stepKey(st, action),
        type: action.type,
        status: 'waiting',
        input: { until: iso(until) },
        attempts: 1,
        startedAt: now,
      };
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
   * Parallel branches: each walks its steps at the same time on its own copy of the scope (it
   * sees the steps before the `parallel`), sharing the journal. `join: all` waits for every branch
   * and fails with the first failure (stopping the others); `first` succeeds with the first branch
   * to finish and stops the rest. Branches that wait (a delay, a retry) suspend the run until the
   * earliest wake; a resumed run walks the branches again, replaying what finished. The output
   * keeps each branch's step outputs by branch name, and later steps read them as `steps.<id>`.
   */
  protected async parallel(action: ParallelAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const key = stepKey(st, action);
    const join = action.join ?? 'all';
    const names = Object.keys(action.branches);
    const step: StepRecord = rec ?? {
      runId: st.run.id,
      stepId: key,
      type: action.type,
      status: 'running',
      input: { branches: names, join },
      attempts: 1,
      startedAt: this.deps.clock.now(),
    };
    if (!rec) await this.record(st, step);
    const stops = names.map(() => new AbortController());
    const states: RunState[] = names.map((_, i) => ({
      ...st,
      scope: { ...st.scope, steps: { ...st.scope.steps } },
      signal: AbortSignal.any([st.signal, stops[i]!.signal]),
    }));
    const stopOthers = (winner: number, why: string) =>
      stops.forEach((stop, i) => i !== winner && !stop.signal.aborted && stop.abort(new BranchAbandoned(why)));
    let first: number | undefined;
    const outcomes = await Promise.all(
      names.map(async (name, i) => {
        const outcome = await this.walk(action.branches[name], states[i]!);
        if (outcome.kind === 'continue' && join === 'first' && first === undefined) {
          first = i;
          stopOthers(i, `branch '${name}' finished first`);
        }
        if (outcome.kind === 'end' && outcome.status === 'failed' && join === 'all') stopOthers(i, `branch '${name}' failed`);
        return outcome;
      }),
    );
    if (st.signal.aborted) return outcomes.find((o) => o.kind === 'end' && o.status === 'failed') ?? { kind: 'end', status: 'cancelled' };
    const interrupted = outcomes.find((o) => o.kind === 'interrupted');
    if (interrupted) return interrupted;
    const failed = outcomes.find((o): o is Extract<Outcome, { kind: 'end' }> => o.kind === 'end' && o.status === 'failed');
    if (first === undefined && (failed || (join === 'first' && outcomes.every((o) => o.kind === 'end')))) {
      const error = failed?.error ?? { code: 'ACTION_FAILED', message: 'no branch finished', transient: false };
      const at = this.deps.clock.now();
      await this.record(st, { ...step, status: 'failed', error, finishedAt: at, durationMs: at - step.startedAt });
      return { kind: 'end', status: 'failed', error: { ...error, stepId: error.stepId ?? key } };
    }
    const waits = outcomes.filter((o): o is Extract<Outcome, { kind: 'suspend' }> => o.kind === 'suspend');
    if (first === undefined && waits.length > 0) {
      const wakeAt = Math.min(...waits.map((w) => w.wakeAt ?? Infinity));
      return { kind: 'suspend', ...(Number.isFinite(wakeAt) ? { wakeAt } : {}), waitingOn: waits[0]!.waitingOn };
    }
    const branches: Record<string, Record<string, unknown>> = {};
    names.forEach((name, i) => {
      if (first === undefined || first === i)
        branches[name] = Object.fromEntries(action.branches[name]!.map((a) => [a.id, states[i]!.scope.steps[a.id] ?? null]));
    });
    const output: ParallelOutput = first === undefined ? { branches } : { branches, first: names[first]! };
    await this.succeed(action, st, step, output);
    this.joinBranches(st, st.scope.steps[action.id] as ParallelOutput);
    return CONTINUE;
  }

  /** After a `parallel` step succeeded (now or in the journal): its branches' steps become `steps.<id>`. */
  protected joinBranches(st: RunState, output: ParallelOutput): void {
    for (const steps of Object.values(output.branches)) Object.assign(st.scope.steps, steps);
  }

  /**
   * Waits for an event (see `events.ts`): journals the step `waiting` with `{event, timeoutAt?}`
   * and suspends; {@link sendRunEvent} makes the event's payload its output. Woken past
   * `timeoutAt`, the step fails with `EVENT_TIMEOUT` (its `onError` decides what follows).
   */
  protected async waitEvent(action: WaitEventAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const key = stepKey(st, action);
    const now = this.deps.clock.now();
    const waitingOn: WaitInfo = { kind: 'event', stepId: key };
    let step = rec;
    if (!step) {
      const input: WaitEventInput = { event: action.event };
      if (action.timeoutMinutes !== undefined) input.timeoutAt = now + Math.round(action.timeoutMinutes * 60_000);
      step = { runId: st.run.id, stepId: key, type: action.type, status: 'waiting', input, attempts: 1, startedAt: now };
      await this.record(st, step);
    }
    const { timeoutAt, event } = step.input as WaitEventInput;
    if (timeoutAt !== undefined && now >= timeoutAt) {
      const error = permanent('EVENT_TIMEOUT', `no '${event}' event came within ${action.timeoutMinutes} minutes`);
      await this.record(st, { ...step, status: 'failed', error: classifyError(error), finishedAt: now, durationMs: now - step.startedAt });
      return { kind: 'end', status: 'failed', error: { ...classifyError(error), stepId: key } };
    }
    return { kind: 'suspend', ...(timeoutAt !== undefined ? { wakeAt: timeoutAt } : {}), waitingOn };
  }

  /**
   * A loop: journals its items once (a resumed run iterates the same list), then walks its
   * actions once per item under the keys `<key>[<index>].` with `loop` in scope. Iterations whose
   * steps all succeeded are replayed from the journal, not run again. A step failing inside an
   * iteration fails the loop step and the run.
   */
  protected async loop(action: LoopAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
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
        if (outcome.kind === 'continue')
          iterations.push(Object.fromEntries(action.actions.map((a) => [a.id, st.scope.steps[a.id] ?? null])));
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
  protected async subRun(action: RunAutomationAction, rec: StepRecord | undefined, st: RunState): Promise<Outcome> {
    const key = stepKey(st, action);
    let step = rec;
    if (step?.status !== 'waiting') {
      const startedAt = step?.startedAt ?? this.deps.clock.now();
      let params: SubRunParams;
      let child: RunRecord;
      try {
        params = subRunParams(action, st.scope, this.deps.templates);
        if (!step)
          await this.record(st, {
            runId: st.run.id,
            stepId: key,
            type: action.type,
            status: 'running',
            input: params,
            attempts: 1,
            startedAt,
          });
        // Resumed at a `running` entry (nothing recorded just now): what earlier steps recorded is written first.
        else await this.flush(st);
        // The child's trigger variables are recorded as the parent's journal records them: secrets masked.
        child = await this.deps.startChild(st.run, key, { ...params, input: st.mask.apply(params.input) });
        if (child.status === 'skipped' || !params.wait) {
          const output = child.status === 'skipped' ? subRunOutput(child, []) : { runId: child.id, status: child.status };
          await this.succeed(
            action,
            st,
            { runId: st.run.id, stepId: key, type: action.type, input: { ...params, runId: child.id }, attempts: 1, startedAt },
            output,
          );
          return CONTINUE;
        }
      } catch (error) {
        return this.failEarly(action, st, error, 1, startedAt);
      }
      step = {
        runId: st.run.id,
        stepId: key,
        type: action.type,
        status: 'waiting',
        input: { ...params, runId: child.id },
        attempts: 1,
        startedAt,
      };
      await this.record(st, step);
    }
    const waitingOn: WaitInfo = { kind: 'automation', stepId: key };
    const child = await this.deps.store.getRun((step.input as SubRunInput).runId);
    if (child && !FINAL_STATUSES.has(child.status))
      return { kind: 'suspend', wakeAt: this.deps.clock.now() + SUB_RUN_RECHECK_MS, waitingOn };
    let output: unknown;
    try {
      if (!child)
        throw permanent('NOT_FOUND', `the run ${(step.input as SubRunInput).runId} no longer exists (its automation was deleted)`);
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
}
