/**
 * The TS types of the control-flow kinds (`flow.ts`), which hold step lists: branch, approval,
 * loop, delay, wait for an event, parallel branches and run another automation.
 */
import type { Action, ActionBase, Conditions } from '../../definition/types';

/**
 * Starts a run of another automation of the same workspace with `input` as its trigger variables
 * (docs "Run another automation"). With `wait` (default true) the step waits, durably, until that
 * run ends; its output is then `{runId, status, steps, response?}` and a child run that `failed`,
 * was `cancelled` or `skipped` fails the step. Without `wait` the output is `{runId, status}` at once.
 * The child's depth is the parent's + 1, so chains stop at the loop guard.
 */
export interface RunAutomationAction extends ActionBase {
  type: 'automation.run';
  /** The automation to run (template). */
  automationId: string;
  /** Its trigger variables: any JSON object whose strings are templates. */
  input?: Record<string, unknown>;
  wait?: boolean;
}

/** Evaluates conditions and runs `then` or `else`, then continues after the branch. */
export interface BranchAction extends ActionBase {
  type: 'branch';
  conditions: Conditions;
  then?: Action[];
  else?: Action[];
}

/**
 * Pauses the run until a member approves or rejects it through the API, or the timeout
 * decides. Approved: runs `then` and continues. Rejected: `onReject: 'end'` (default) ends the
 * run with status `rejected`; `'else'` runs `else` and continues.
 */
export interface ApprovalAction extends ActionBase {
  type: 'approval';
  /** Shown to approvers (template). */
  message?: string;
  /** Handles allowed to decide; absent = any member with the Participant role or above. */
  approvers?: string[];
  /** Minutes before the timeout decides (absent = wait forever). */
  timeoutMinutes?: number;
  /** Decision taken at the timeout (default `reject`). */
  onTimeout?: 'approve' | 'reject';
  onReject?: 'end' | 'else';
  then?: Action[];
  else?: Action[];
}

/**
 * Runs `actions` once per item of a list, in order. Inside, templates see `loop.item`,
 * `loop.index` (0-based) and `loop.count`, and `steps.<id>` of the current iteration. Each
 * iteration is journalled on its own (keys `<loopId>[<index>].<stepId>`), so a resumed run does
 * not repeat finished iterations. Output: `{count, iterations}`, one object per iteration mapping
 * the loop's direct actions' ids to their outputs.
 */
export interface LoopAction extends ActionBase {
  type: 'loop';
  /** A list, or a template yielding one (a single output tag such as `{{ trigger.items }}`, or JSON text). */
  items: string | unknown[];
  /** More items than this fail the step with `LOOP_LIMIT` (default 1000, at most 10,000). */
  maxIterations?: number;
  actions: Action[];
}

/** Waits for a duration (sum of the unit fields) or until a time (template yielding an ISO 8601 timestamp). */
export interface DelayAction extends ActionBase {
  type: 'delay';
  seconds?: number;
  minutes?: number;
  hours?: number;
  days?: number;
  until?: string;
}

/**
 * Waits until the named event is sent to the run (`POST /api/v1/runs/{runId}/events/{event}`, or
 * a call to the run's `resumeUrl`), durably; its payload is the step's output (docs "Waiting
 * for an event"). Past `timeoutMinutes` the step fails with `EVENT_TIMEOUT`.
 */
export interface WaitEventAction extends ActionBase {
  type: 'wait.event';
  /** The event's name: letters, digits, `_`, `-`, `.`; at most 100 characters. */
  event: string;
  /** Longest wait, in minutes (none: until the event comes, the run's timeout or a cancel). */
  timeoutMinutes?: number;
}

/**
 * Runs named branches of steps at the same time (docs "Parallel steps"): `join: "all"` (default)
 * waits for every branch, `"first"` for the first to finish (the others are stopped). Output:
 * `{branches: {<name>: {<step id>: output}}, first?}`; later steps also read the branches' steps
 * as `steps.<id>`. Branches may not hold `approval` or `wait.event` steps.
 */
export interface ParallelAction extends ActionBase {
  type: 'parallel';
  /** 2 to 10 branches by name (letters, digits, `_`). */
  branches: Record<string, Action[]>;
  join?: 'all' | 'first';
}

declare module '../../definition/types' {
  /** The control-flow kinds' actions (see {@link ActionTypes}). */
  interface ActionTypes {
    'automation.run': RunAutomationAction;
    branch: BranchAction;
    approval: ApprovalAction;
    loop: LoopAction;
    delay: DelayAction;
    'wait.event': WaitEventAction;
    parallel: ParallelAction;
  }
}
