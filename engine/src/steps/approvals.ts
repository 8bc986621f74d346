/**
 * Approval decisions (README "Automations", "Approvals"): a run waiting on an `approval` step is
 * approved or rejected by one of the step's `approvers` (any member the host lets through when the
 * list is empty); the decision becomes the step's output and the run continues. Timeouts are the
 * ticker's and the executor's; who may decide at all (membership, role) is the host's.
 */
import type { ApprovalDecision } from '../kinds/flow/control';
import { actionIdOf, walkActions, type Action, type AutomationDefinition } from '../definition';
import type { ApprovalAction } from '../kinds/flow/types';
import { EngineError } from '../errors';
import type { Clock, RunRecord, RunStore } from '../ports';

/** What deciding needs from the engine. */
export interface ApprovalDeps {
  store: RunStore;
  clock: Clock;
  /** The definition a run executes. */
  definitionOf(run: RunRecord): Promise<AutomationDefinition>;
  /** Queues the decided run to continue. */
  resume(runId: string): void;
}

/** Lowercase handles without `@` of an approval step's `approvers` (empty: anyone the host admits). */
function approversOf(definition: AutomationDefinition, stepId: string): string[] {
  const actionId = actionIdOf(stepId);
  let action: Action | undefined;
  walkActions(definition.actions, (a) => {
    if (a.id === actionId) action = a;
  });
  return ((action as ApprovalAction | undefined)?.approvers ?? []).map((h) => h.replace(/^@/, '').toLowerCase());
}

/**
 * Decides the approval `runId` waits on: `approve` or reject, by `by.handle` (which must be in the
 * step's `approvers` when it has any), with an optional `comment`. The step's output becomes the
 * {@link ApprovalDecision} (`decidedAt` ISO 8601); the run is queued to continue.
 * @returns the run as stored after the decision.
 * @throws EngineError 404 (unknown run), 409 (not waiting for an approval, or decided meanwhile),
 *   403 (not an approver).
 */
export async function decideApproval(
  deps: ApprovalDeps,
  runId: string,
  approve: boolean,
  by: { handle: string },
  comment?: string,
): Promise<RunRecord> {
  const run = await deps.store.getRun(runId);
  if (!run) throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
  if (run.status !== 'waiting' || run.waitingOn?.kind !== 'approval') {
    throw new EngineError(409, 'CONFLICT', `run '${runId}' is not waiting for an approval (status ${run.status})`);
  }
  const stepId = run.waitingOn.stepId;
  const approvers = approversOf(await deps.definitionOf(run), stepId);
  if (approvers.length > 0 && !approvers.includes(by.handle.toLowerCase())) {
    throw new EngineError(403, 'FORBIDDEN', `only ${approvers.map((h) => '@' + h).join(', ')} may decide this approval`);
  }
  const now = deps.clock.now();
  const output: ApprovalDecision = {
    decision: approve ? 'approved' : 'rejected',
    decidedBy: by.handle,
    decidedAt: new Date(now).toISOString(),
    timedOut: false,
  };
  if (comment !== undefined && comment !== '') output.comment = comment;
  if (!(await deps.store.resolveWait(runId, stepId, output, now))) {
    throw new EngineError(409, 'CONFLICT', `run '${runId}' is no longer waiting for this approval`);
  }
  deps.resume(runId);
  return (await deps.store.getRun(runId))!;
}
