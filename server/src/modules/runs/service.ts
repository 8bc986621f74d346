import { FINAL_STATUSES, type ApprovalInput, type RunStatus } from '@taskspace/engine';
import { roleAtLeast, type Role } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import { forbidden, notFound } from '../../errors';
import { replayOfRun, runIdOfInboundRequest } from './run-lookups';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { engineCall, requireAutomation } from '../engine-host/automation-access';
import { runItem, type RunItem, type StepItem } from './run-item';

/**
 * Automation runs (README "Automations", "API"): the domain functions behind
 * `/api/v1/automations/{id}/runs`. Any member reads runs; the Owner test-runs and cancels;
 * approvals are decided by the approval's listed approvers (members) or, without a list, by
 * members with the Participant role or above. Resources outside the caller's workspaces are 404.
 */

export { runItem, type RunItem, type StepItem };

/** Query of {@link listRuns}. */
export interface RunListQuery {
  status?: RunStatus;
  /** 1..100 (default 20). */
  limit: number;
  /** Runs created before this run id (cursor). */
  before?: string;
  /** Only the run started by this inbound request (the `requestId` the webhook intake returned). */
  requestId?: string;
}

/** An automation's runs, newest first, without steps (any member). @throws ServiceError 404. */
export async function listRuns(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  query: RunListQuery,
): Promise<RunItem[]> {
  await requireAutomation(svc, rt, actor, automationId, 'Viewer', 'reading runs');
  if (query.requestId !== undefined) {
    const runId = await svc.store.run(runIdOfInboundRequest(svc.store.sql, automationId, query.requestId));
    const found = runId === undefined ? undefined : await rt.engine.getRun(runId);
    if (!found || (query.status !== undefined && found.run.status !== query.status)) return [];
    return [runItem(found.run)];
  }
  const q: Parameters<AutomationRuntime['engine']['listRuns']>[0] = { automationId, limit: query.limit };
  if (query.status !== undefined) q.status = query.status;
  if (query.before !== undefined) q.beforeRunId = query.before;
  return (await rt.engine.listRuns(q)).map((r) => runItem(r));
}

/** The run of an automation and the caller's role in its workspace. @throws ServiceError 404 (unknown run, automation or not a member), 403. */
export async function requireRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  runId: string,
  min: Role,
  action: string,
) {
  const { role } = await requireAutomation(svc, rt, actor, automationId, min, action);
  const found = await rt.engine.getRun(runId);
  if (!found || found.run.automationId !== automationId) throw notFound('run', runId);
  return { ...found, role };
}

/** One run with every step's input, output, error, attempts and duration (any member). @throws ServiceError 404. */
export async function getRun(svc: Services, rt: AutomationRuntime, actor: Actor, automationId: string, runId: string): Promise<RunItem> {
  const { run, steps } = await requireRun(svc, rt, actor, automationId, runId, 'Viewer', 'reading a run');
  const item = runItem(run, steps);
  const replayedBy = await svc.store.run(replayOfRun(svc.store.sql, runId));
  if (replayedBy !== undefined) item.replayedBy = replayedBy;
  return item;
}

/**
 * Approves or rejects the approval a run waits on. Allowed: the approval's listed approvers
 * (members of the workspace), or, without a list, members with the Participant role or above.
 * @throws ServiceError 404, 403, 409 (the run does not wait for an approval).
 */
export async function decideRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  runId: string,
  approve: boolean,
  comment?: string,
): Promise<RunItem> {
  const { run, steps, role } = await requireRun(svc, rt, actor, automationId, runId, 'Viewer', 'deciding an approval');
  const waiting = run.waitingOn?.kind === 'approval' ? steps.find((s) => s.stepId === run.waitingOn!.stepId) : undefined;
  const approvers = (waiting?.input as ApprovalInput | undefined)?.approvers ?? [];
  if (waiting && approvers.length === 0 && !roleAtLeast(role, 'Participant')) {
    throw forbidden('deciding an approval needs the Participant role or above');
  }
  await engineCall(() => rt.engine.decide(runId, approve, { handle: actor.handle }, comment));
  const settled = await rt.engine.waitForRun(runId, 5000);
  return runItem(settled, (await rt.engine.getRun(runId))?.steps);
}

/** Cancels a run that has not finished (Owner). @throws ServiceError 403, 404. */
export async function cancelRun(svc: Services, rt: AutomationRuntime, actor: Actor, automationId: string, runId: string): Promise<RunItem> {
  await requireRun(svc, rt, actor, automationId, runId, 'Owner', 'cancelling a run');
  const run = await engineCall(() => rt.engine.cancelRun(runId));
  return runItem(run);
}

/** Longest time a test run request waits for the run to settle, in ms. */
export const TEST_RUN_WAIT_MS = 10_000;

/**
 * Starts a test run with a sample trigger payload (Owner), also while disabled: its actions
 * run for real. Waits up to {@link TEST_RUN_WAIT_MS} for the run to settle (finish or wait) and
 * returns it with its steps.
 * @throws ServiceError 403, 404.
 */
export async function testRun(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  automationId: string,
  payload: Record<string, unknown>,
): Promise<RunItem> {
  await requireAutomation(svc, rt, actor, automationId, 'Owner', 'test-running an automation');
  const run = await engineCall(() => rt.engine.startRun(automationId, payload, { test: true }));
  const settled = FINAL_STATUSES.has(run.status) ? run : await rt.engine.waitForRun(run.id, TEST_RUN_WAIT_MS);
  return runItem(settled, (await rt.engine.getRun(run.id))?.steps);
}
