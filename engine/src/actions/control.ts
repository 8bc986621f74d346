/**
 * The control-flow actions, which the executor runs itself: branch (conditions), approval
 * (waits for a decision) and delay (waits for a time). This module computes their inputs and
 * outputs; the executor journals them and suspends the run.
 */
import type { ApprovalAction, DelayAction } from '../definition';
import { permanent } from '../errors';
import type { Scope, Templates } from '../templates';

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
    message: a.message === undefined ? '' : templates.render(a.message, scope),
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
    const text = templates.render(a.until, scope).trim();
    const at = Date.parse(text);
    if (text === '' || Number.isNaN(at)) throw permanent('INVALID_INPUT', `until '${text}' is not a date`, { field: 'until' });
    return at;
  }
  const ms = ((a.days ?? 0) * 24 * 60 + (a.hours ?? 0) * 60 + (a.minutes ?? 0)) * 60_000 + (a.seconds ?? 0) * 1000;
  return now + Math.round(ms);
}
