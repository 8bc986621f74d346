/**
 * Step tests (docs "Automations", "Step tests"): one step of a definition executed on its own,
 * with the trigger's variables and the outputs of the steps before it given as samples ("pinned"),
 * the way the builder tests a step before the automation is saved or run.
 *
 * A step test is recorded as a test run (`test: true`, so no run events, no failure alerts, not in
 * the metrics) of the automation's current version whose journal holds that one step. It executes
 * at once in the calling process, not through the run queue: its run is stored `running` under this
 * engine's lease for the test's time limit, so no other engine claims it, and it carries the
 * dedupe key `step-test:<stepId>` ({@link isStepTestRun}): an engine that finds one unfinished (a
 * test cut short by a crash) ends it `failed` instead of resuming it with the whole definition
 * ({@link abandonStepTest}). Its one attempt runs with the
 * step's own settings except: no retries, no error path (`onError`), not `disabled`, and a time
 * limit of at most {@link STEP_TEST_TIMEOUT_MS}. A `branch` is tested by evaluating its conditions
 * (its `then`/`else` steps are not run); other steps that hold or wait for steps (loop, parallel,
 * approval, delay, wait.event, automation.run) are refused: test the steps inside them.
 */
import type { Action, AutomationDefinition } from '../definition';
import { walkActions } from '../definition';
import { EngineError } from '../errors';
import type { Executor } from './executor';
import type { KindRegistry } from '../kinds/registry';
import { webhookVariables } from '../kinds/inbound/webhook/request';
import type { AutomationRecord, Clock, RunRecord, RunStore, StepRecord } from '../ports';

/** The longest a step test may take, in ms (the run's time limit when the definition sets none or a longer one). */
export const STEP_TEST_TIMEOUT_MS = 60_000;

/** The start of a step-test run's dedupe key (`step-test:<stepId>`), which marks it. */
export const STEP_TEST_KEY = 'step-test:';

/** Whether `run` is a step test's run (see the module comment). */
export function isStepTestRun(run: RunRecord): boolean {
  return run.test && run.dedupeKey?.startsWith(STEP_TEST_KEY) === true;
}

/** Ends a step-test run found unfinished (its test was cut short): `failed`, `STEP_TEST_INTERRUPTED`. */
export async function abandonStepTest(store: RunStore, clock: Clock, run: RunRecord): Promise<void> {
  await store.updateRun(run.id, {
    status: 'failed',
    finishedAt: clock.now(),
    wakeAt: undefined,
    error: {
      code: 'STEP_TEST_INTERRUPTED',
      message: 'the step test was interrupted before it ended; test the step again',
      transient: false,
    },
  });
}

/** What a step test runs with. */
export interface StepTestInput {
  /** The definition holding the step (a draft, or the saved one), already validated. */
  definition: AutomationDefinition;
  /** The id of the step to run. */
  stepId: string;
  /**
   * The trigger sample, as the test run's `payload`: the `trigger.*` variables, except that a
   * webhook trigger's sample is the call's body (`trigger.body`, its fields also at the top).
   */
  trigger: Record<string, unknown>;
  /** The pinned outputs of earlier steps by step id (`steps.<id>`). */
  steps: Record<string, unknown>;
}

/** What a step test did. */
export interface StepTestResult {
  /** The test run (final: `completed` or `failed`). */
  run: RunRecord;
  /** The step's journal entry (secrets masked); absent only if the run failed before the step started. */
  step: StepRecord | undefined;
  /** Whether the step's kind changes something outside the run (`sideEffects` of its declaration). */
  sideEffects: boolean;
  /** The step's path in the definition, e.g. `actions[1].then[0]`. */
  path: string;
}

/** What {@link testStep} needs from the engine. */
export interface StepTestDeps {
  store: RunStore;
  executor: Executor;
  kinds: KindRegistry;
  clock: Clock;
  newId: () => string;
  /** The engine's lease owner (`EngineOptions.workerId`), held on the run while the step runs. */
  owner: string;
}

function pathOf(path: (string | number)[]): string {
  return path.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

/**
 * The step with id `stepId` anywhere in `definition` (nested steps included) and its path.
 * @throws EngineError 404 NOT_FOUND when no step has that id.
 */
export function findStep(definition: AutomationDefinition, stepId: string, kinds: KindRegistry): { action: Action; path: string } {
  let found: { action: Action; path: string } | undefined;
  walkActions(
    definition.actions,
    (action, path) => {
      if (!found && action.id === stepId) found = { action, path: pathOf(path) };
    },
    undefined,
    kinds,
  );
  if (!found) throw new EngineError(404, 'NOT_FOUND', `the automation has no step '${stepId}'`);
  return found;
}

/**
 * The action a step test executes in place of `action`: one attempt, no error path, enabled, and
 * for a `branch` no nested steps.
 * @throws EngineError 400 VALIDATION_ERROR (reason `not_testable`) for steps that hold or wait for other steps.
 */
export function testableAction(action: Action, path: string, kinds: KindRegistry): Action {
  const copy = { ...action, retry: { maxAttempts: 1 } } as Action & Record<string, unknown>;
  delete copy.onError;
  delete copy.disabled;
  if (action.type === 'branch') return { ...copy, then: [], else: [] } as Action;
  if (!kinds.workActions[action.type]) {
    throw new EngineError(
      400,
      'VALIDATION_ERROR',
      `${path}: a ${action.type} step cannot be tested on its own (it holds or waits for other steps); test the steps inside it`,
      { field: path, reason: 'not_testable' },
    );
  }
  return copy;
}

/** The variable a Liquid "undefined variable" error names (`steps.check.body.nope`), if that is what `message` says. */
export function undefinedVariableOf(message: string): string | undefined {
  return /undefined variable:?\s*([^\s,]+)/i.exec(message)?.[1];
}

/**
 * Runs one step of `automation` with pinned samples (see the module comment) and records it as a
 * test run. A template naming a variable the samples lack fails the step the way it would fail a
 * run, and is then reported as a 400 naming the variable (the run stays recorded as failed).
 * @throws EngineError 404 (no such step), 400 (a step that cannot be tested alone; an unknown variable, reason `unknown_variable`).
 */
export async function testStep(deps: StepTestDeps, automation: AutomationRecord, input: StepTestInput): Promise<StepTestResult> {
  const { action, path } = findStep(input.definition, input.stepId, deps.kinds);
  const step = testableAction(action, path, deps.kinds);
  const sideEffects = deps.kinds.action(action.type)?.sideEffects ?? true;
  const own = input.definition.timeoutMs;
  const definition: AutomationDefinition = {
    ...input.definition,
    actions: [step],
    timeoutMs: own === undefined ? STEP_TEST_TIMEOUT_MS : Math.min(own, STEP_TEST_TIMEOUT_MS),
  };
  const now = deps.clock.now();
  const type = automation.definition.trigger.type;
  const run: RunRecord = {
    id: deps.newId(),
    automationId: automation.id,
    version: automation.version,
    workspaceId: automation.workspaceId,
    ownerId: automation.ownerId,
    status: 'running',
    trigger: { type, variables: type === 'webhook' ? webhookVariables(input.trigger) : { ...input.trigger } },
    depth: 1,
    test: true,
    dedupeKey: `${STEP_TEST_KEY}${action.id}`,
    createdAt: now,
    startedAt: now,
  };
  // Held for the test's limit and a margin (no renewal): no other engine claims it meanwhile.
  const wall = Date.now();
  await deps.store.createRun(run, undefined, [], { owner: deps.owner, now: wall, until: wall + 2 * STEP_TEST_TIMEOUT_MS });
  const execution = await deps.executor.execute(run, definition, true, input.steps);
  const after = execution.run ?? (await deps.store.getRun(run.id)) ?? run;
  const recorded = (await deps.store.getSteps(run.id)).find((s) => s.stepId === action.id);
  const error = recorded?.error;
  if (recorded?.status === 'failed' && error?.code === 'TEMPLATE_ERROR') {
    const name = undefinedVariableOf(error.message);
    if (name !== undefined) {
      // The template error starts with the step's field: `values.msg: template '…': …`.
      const field = /^([\w.[\]-]+): template /.exec(error.message)?.[1];
      const at = field === undefined ? path : `${path}.${field}`;
      throw new EngineError(
        400,
        'VALIDATION_ERROR',
        `${at}: unknown variable ${name}: the trigger sample and the pinned step outputs have no such value`,
        {
          field: at,
          reason: 'unknown_variable',
        },
      );
    }
  }
  return { run: after, step: recorded, sideEffects, path };
}
