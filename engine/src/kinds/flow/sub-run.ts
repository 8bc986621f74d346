/**
 * Run another automation (docs "Run another automation"): the executor journals the started child
 * run in the step's input and, when the step waits, suspends the parent until the child ends. This
 * module renders the step's parameters and turns the ended child into the step's output.
 */
import type { RunAutomationAction } from './types';
import { permanent } from '../../errors';
import type { RunRecord, RunStatus, StepRecord } from '../../ports';
import type { Scope, Templates } from '../../templates';
import type { RunResponse } from '../data/respond';

/**
 * How often a waiting parent looks at its child run again even when nothing woke it, in ms. The
 * child's end wakes the parent at once; this only covers a crash between the two.
 */
export const SUB_RUN_RECHECK_MS = 60_000;

/** The rendered parameters of an `automation.run` step. */
export interface SubRunParams {
  automationId: string;
  input: Record<string, unknown>;
  wait: boolean;
}

/** The journalled input of a started `automation.run` step: its parameters and the child run. */
export interface SubRunInput extends SubRunParams {
  runId: string;
}

/**
 * The output of an `automation.run` step (`steps.<id>`): the child run's id and status; once it
 * ended (with `wait`), the outputs of its top-level steps by step id and, when it ran a `respond`
 * step, that response.
 */
export interface SubRunOutput {
  runId: string;
  status: RunStatus;
  steps?: Record<string, unknown>;
  response?: RunResponse;
}

/** Child statuses that fail a waiting step; `completed` and `rejected` (an approval said no) do not. */
const FAILING: ReadonlySet<RunStatus> = new Set<RunStatus>(['failed', 'cancelled', 'skipped']);

/**
 * Renders the automation id and the input.
 * @throws ActionError INVALID_INPUT (permanent) when the id renders empty or the input is not an object.
 */
export function subRunParams(a: RunAutomationAction, scope: Scope, templates: Templates): SubRunParams {
  const automationId = templates.render(a.automationId, scope, 'automationId').trim();
  if (automationId === '') throw permanent('INVALID_INPUT', 'automationId renders to an empty string', { field: 'automationId' });
  const input = templates.renderValue(a.input ?? {}, scope, 'input');
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw permanent('INVALID_INPUT', 'input must be an object', { field: 'input' });
  return { automationId, input: input as Record<string, unknown>, wait: a.wait ?? true };
}

/**
 * The output of a step whose child run ended.
 * @throws ActionError SUB_RUN_FAILED (permanent) when the child failed, was cancelled or skipped,
 *   with the child's error in `details`.
 */
export function subRunOutput(child: RunRecord, steps: StepRecord[]): SubRunOutput {
  if (FAILING.has(child.status)) {
    const why = child.error ? `: ${child.error.message}` : '';
    throw permanent('SUB_RUN_FAILED', `the run ${child.id} of automation ${child.automationId} ended ${child.status}${why}`, {
      runId: child.id,
      status: child.status,
      error: child.error ?? null,
    });
  }
  const output: SubRunOutput = { runId: child.id, status: child.status, steps: {} };
  for (const step of steps) {
    if (step.status !== 'succeeded') continue;
    if (!step.stepId.includes('.')) output.steps![step.stepId] = step.output ?? null;
    if (step.type === 'respond' && output.response === undefined) output.response = step.output as RunResponse;
  }
  return output;
}
