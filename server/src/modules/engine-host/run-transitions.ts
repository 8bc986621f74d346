import type { ApprovalInput, AutomationDefinition, RunRecord } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import { isoTime, type Clock } from '../../platform/clock';
import type { Signals } from '../../platform/signals';
import type { Links } from '../../services';
import { appendEvent } from '../events/outbox';
import { createDecisionLink } from './decision-link-store';
import type { RunTransition, RunTransitionHook } from './run-transition-hook';

/**
 * The engine host's {@link RunTransitionHook}: the domain events of run transitions, appended to
 * the outbox in the run write's transaction. A non-test run that ends `failed` raises
 * `automation.failed` (docs "Failure alerts"); a run that starts waiting on an approval raises
 * `approval.requested` with a new decision link (docs "Approvals that reach people").
 */

/** What the events of run transitions need: links to runs, the time, and the outbox wake-up. */
export interface RunEventDeps {
  links: Links;
  clock: Clock;
  /** Notified (`events`) after a transaction that appended an event commits. */
  signals?: Signals;
}

/** Whether a patch makes the run wait on an approval. */
function waitsOnApproval(patch: Partial<RunRecord>): boolean {
  return patch.status === 'waiting' && patch.waitingOn?.kind === 'approval';
}

/**
 * Appends the `automation.failed` event of a run that just failed, through `q` (inside the
 * caller's transaction). @returns whether an event was appended (none for a test run).
 */
function* raiseFailure(q: Sql, deps: RunEventDeps, runId: string): Query<boolean> {
  const now = deps.clock.now();
  const row = yield* q.get<{
    automationId: string;
    workspaceId: string;
    version: number;
    test: number;
    depth: number;
    error: string | null;
    finishedAt: number | null;
    definition: string;
  }>(
    `SELECT r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.version, r.test, r.depth, r.error_json AS error,
            r.finished_at AS "finishedAt", a.definition_json AS definition
       FROM automation_runs r JOIN automations a ON a.id = r.automation_id WHERE r.id = ?`,
    [runId],
  );
  if (!row || row.test === 1) return false;
  const payload = {
    automationId: row.automationId,
    automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
    runId,
    runLink: deps.links.url(`/automations/${row.automationId}/runs/${runId}`),
    version: row.version,
    error: row.error === null ? null : (JSON.parse(row.error) as unknown),
    failedAt: isoTime(row.finishedAt ?? now),
  };
  yield* appendEvent(q, { type: 'automation.failed', workspaceId: row.workspaceId, payload, depth: row.depth }, now);
  return true;
}

/**
 * Appends the `approval.requested` event of a run that just started waiting on an approval,
 * with a new decision link, through `q` (inside the caller's transaction).
 * @returns whether an event was appended.
 */
function* raiseApproval(q: Sql, deps: RunEventDeps, runId: string, stepId: string): Query<boolean> {
  const now = deps.clock.now();
  const row = yield* q.get<{
    automationId: string;
    workspaceId: string;
    test: number;
    depth: number;
    definition: string;
    input: string | null;
  }>(
    `SELECT r.automation_id AS "automationId", r.workspace_id AS "workspaceId", r.test, r.depth, a.definition_json AS definition, s.input_json AS input
       FROM automation_runs r JOIN automations a ON a.id = r.automation_id
       LEFT JOIN automation_steps s ON s.run_id = r.id AND s.step_id = ?
      WHERE r.id = ?`,
    [stepId, runId],
  );
  if (!row) return false;
  const input = row.input === null ? undefined : (JSON.parse(row.input) as ApprovalInput);
  const token = yield* createDecisionLink(q, runId, stepId, input, now);
  const payload: Record<string, unknown> = {
    automationId: row.automationId,
    automationName: (JSON.parse(row.definition) as AutomationDefinition).name,
    runId,
    runLink: deps.links.url(`/automations/${row.automationId}/runs/${runId}`),
    stepId,
    message: input?.message ?? '',
    approvers: input?.approvers ?? [],
    decisionLink: deps.links.url(`/decide?token=${token}`),
    test: row.test === 1,
  };
  if (input?.timeoutAt !== undefined) payload.timeoutAt = isoTime(input.timeoutAt);
  yield* appendEvent(q, { type: 'approval.requested', workspaceId: row.workspaceId, payload, depth: row.depth }, now);
  return true;
}

/** The text a wait is stored as (`waiting_json`), to tell a new wait from the same one written again. */
function waitText(waitingOn: RunRecord['waitingOn']): string | null {
  return waitingOn === undefined ? null : JSON.stringify(waitingOn);
}

/**
 * Raises the events of run transitions (see the module comment) through the run store's hook:
 * construct it with the service's links, clock and signals and pass it to the store.
 */
export class RunEventHook implements RunTransitionHook {
  constructor(private readonly deps: RunEventDeps) {}

  /** Failing, and starting to wait on an approval. */
  observes(patch: Partial<RunRecord>): boolean {
    return patch.status === 'failed' || waitsOnApproval(patch);
  }

  /**
   * Appends `automation.failed` for a run written `failed` (not for a test run), or
   * `approval.requested` with a new decision link for a run that starts waiting on an approval:
   * once per approval, not when the run, already waiting on it, is written again.
   */
  *onRunWritten(tx: Sql, { runId, before, patch }: RunTransition): Query<boolean> {
    if (patch.status === 'failed') return yield* raiseFailure(tx, this.deps, runId);
    const waiting = patch.waitingOn;
    if (patch.status !== 'waiting' || waiting?.kind !== 'approval') return false;
    const waitedBefore = before?.status === 'waiting' ? waitText(before.waitingOn) : undefined;
    if (waitedBefore === waitText(waiting)) return false;
    return yield* raiseApproval(tx, this.deps, runId, waiting.stepId);
  }

  /** Wakes the outbox's readers. */
  afterCommit(): void {
    this.deps.signals?.notify('events');
  }
}
