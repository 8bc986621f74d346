/**
 * The control-flow actions, which the executor runs itself: branch (conditions), approval
 * (waits for a decision), delay (waits for a time) and loop (walks its actions per item). This module computes their inputs and
 * outputs; the executor journals them and suspends the run.
 */
import type { ApprovalAction, DelayAction, LoopAction } from './types';
import { LOOP_LIMITS } from './flow';
import { permanent } from '../../errors';
import type { Scope, Templates } from '../../templates';

/** The journalled input of a waiting approval. Times in ms since the epoch. */
export interface ApprovalInput {
  message: string;
  approvers: string[];
  /** When the timeout decides; absent = never. */
  timeoutAt?: number;
  onTimeout: 'approve' | 'reject';
}

/** The output of an approval step (`steps.<id>` in templates). */
export interface ApprovalDecision {
  decision: 'approved' | 'rejected';
  /** Handle of the member who decided; null when the timeout decided. */
  decidedBy: string | null;
  /** ISO 8601. */
  decidedAt: string;
  comment?: string;
  timedOut: boolean;
}

/** Renders an approval's message and computes its timeout. */
export function approvalInput(a: ApprovalAction, scope: Scope, templates: Templates, now: number): ApprovalInput {
  const input: ApprovalInput = {
    message: a.message === undefined ? '' : templates.render(a.message, scope, 'message'),
    approvers: (a.approvers ?? []).map((h) => h.replace(/^@/, '')),
    onTimeout: a.onTimeout ?? 'reject',
  };
  if (a.timeoutMinutes !== undefined) input.timeoutAt = now + Math.round(a.timeoutMinutes * 60_000);
  return input;
}

/**
 * The time a delay ends (ms): `until` rendered and parsed as a date, or now + the duration.
 * @throws ActionError INVALID_INPUT when `until` does not render to a date.
 */
export function delayUntil(a: DelayAction, scope: Scope, templates: Templates, now: number): number {
  if (a.until !== undefined) {
    const text = templates.render(a.until, scope, 'until').trim();
    const at = Date.parse(text);
    if (text === '' || Number.isNaN(at)) throw permanent('INVALID_INPUT', `until '${text}' is not a date`, { field: 'until' });
    return at;
  }
  const ms = ((a.days ?? 0) * 24 * 60 + (a.hours ?? 0) * 60 + (a.minutes ?? 0)) * 60_000 + (a.seconds ?? 0) * 1000;
  return now + Math.round(ms);
}

/** The journalled input of a loop: the items it iterates, fixed when the loop starts. */
export interface LoopInput {
  count: number;
  items: unknown[];
}

/**
 * The items of a loop: `items` evaluated (a single output tag keeps its list; text that is a
 * JSON array is parsed).
 * @throws ActionError INVALID_INPUT when it is not a list; LOOP_LIMIT when it has more than
 * `maxIterations` items (both permanent).
 */
export function loopItems(a: LoopAction, scope: Scope, templates: Templates): unknown[] {
  let value =
    typeof a.items === 'string' ? templates.evaluate(a.items, scope, false, 'items') : templates.renderValue(a.items, scope, 'items');
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      value = JSON.parse(value);
    } catch {
      // reported below as not a list
    }
  }
  if (!Array.isArray(value)) {
    const kind = value === null ? 'null' : typeof value;
    throw permanent('INVALID_INPUT', `loop items must be a list, got ${kind}`, { field: 'items' });
  }
  const max = a.maxIterations ?? LOOP_LIMITS.defaultMaxIterations;
  if (value.length > max)
    throw permanent('LOOP_LIMIT', `loop items has ${value.length} entries, more than maxIterations (${max})`, { field: 'items' });
  return value;
}
