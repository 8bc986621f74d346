import type { ApprovalInput, RunQuery, RunStatus } from '@taskspace/engine';
import { requireWorkspace } from '../../auth/access';
import { roleAtLeast } from '../../auth/roles';
import type { Actor } from '../../auth/tokens';
import { timeFilter } from './run-filters';
import { isoTime } from '../../platform/clock';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { runItem, type RunItem } from './service';

/**
 * Runs and pending approvals across every automation of a workspace (docs "Automations", "Runs
 * across automations"): what the web app's runs list and approvals inbox read, and what an n8n
 * flow polls. Any member of the workspace may read them, as for one automation's runs.
 */

/** Query of {@link listWorkspaceRuns}. Times are ISO 8601 date-times. */
export interface WorkspaceRunQuery {
  status?: RunStatus;
  automationId?: string;
  /** Runs created at or after this time. */
  createdFrom?: string;
  /** Runs created before this time. */
  createdBefore?: string;
  /** 1..100. */
  limit: number;
  /** Cursor: runs created before this run. */
  before?: string;
}

/**
 * The workspace's runs, newest first, without steps, filtered by status, automation and creation
 * time; page with `before` (the last run id of the previous page).
 * @throws ServiceError 400 for a malformed time; 403/404 from the workspace access check.
 */
export async function listWorkspaceRuns(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  workspaceId: string,
  query: WorkspaceRunQuery,
): Promise<RunItem[]> {
  await svc.store.run(requireWorkspace(svc.store.sql, actor, workspaceId, 'Viewer', 'reading runs'));
  const q: RunQuery = { workspaceId, limit: query.limit };
  if (query.status !== undefined) q.status = query.status;
  if (query.automationId !== undefined) q.automationId = query.automationId;
  if (query.before !== undefined) q.beforeRunId = query.before;
  const from = timeFilter('createdFrom', query.createdFrom);
  const until = timeFilter('createdBefore', query.createdBefore);
  if (from !== undefined) q.createdFrom = from;
  if (until !== undefined) q.createdBefore = until;
  return (await rt.engine.listRuns(q)).map((r) => runItem(r));
}

/** One approval a run waits on. */
export interface PendingApproval {
  runId: string;
  automationId: string;
  automationName: string;
  stepId: string;
  /** The rendered approval message. */
  message: string;
  /** Handles named as approvers; empty: any member with the Participant role or above. */
  approvers: string[];
  /** When the run started waiting (ISO 8601). */
  requestedAt: string;
  /** When the timeout decides, if the step has one (ISO 8601). */
  timeoutAt?: string;
  /** Whether the caller may approve or reject it. */
  youMayDecide: boolean;
}

/** Query of {@link listPendingApprovals}. */
export interface ApprovalQuery {
  automationId?: string;
  /** Only approvals naming this handle (with or without `@`) among their approvers. */
  approver?: string;
  /** 1..100. */
  limit: number;
  /** Cursor: approvals of runs created before this run. */
  before?: string;
}

/** Runs read per page while looking for approvals among waiting runs. */
const SCAN_PAGE = 100;

/**
 * The approvals waiting for a decision in a workspace, newest run first, each with whether the
 * caller may decide it (named approver, or Participant and above when none are named).
 * @throws ServiceError 403/404 from the workspace access check.
 */
export async function listPendingApprovals(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  workspaceId: string,
  query: ApprovalQuery,
): Promise<PendingApproval[]> {
  const role = await svc.store.run(requireWorkspace(svc.store.sql, actor, workspaceId, 'Viewer', 'reading approvals'));
  const approver = query.approver?.replace(/^@/, '').toLowerCase();
  const names = new Map<string, string>();
  const found: PendingApproval[] = [];
  let before = query.before;
  for (;;) {
    const page: RunQuery = { workspaceId, status: 'waiting', limit: SCAN_PAGE };
    if (query.automationId !== undefined) page.automationId = query.automationId;
    if (before !== undefined) page.beforeRunId = before;
    const runs = await rt.engine.listRuns(page);
    for (const run of runs) {
      if (run.waitingOn?.kind !== 'approval') continue;
      const detail = await rt.engine.getRun(run.id);
      const step = detail?.steps.find((s) => s.stepId === run.waitingOn!.stepId);
      const input = step?.input as ApprovalInput | undefined;
      if (!step || !input) continue;
      const approvers = input.approvers ?? [];
      if (approver !== undefined && !approvers.some((h) => h.toLowerCase() === approver)) continue;
      if (!names.has(run.automationId))
        names.set(run.automationId, (await rt.engine.getAutomation(run.automationId))?.definition.name ?? '');
      const item: PendingApproval = {
        runId: run.id,
        automationId: run.automationId,
        automationName: names.get(run.automationId)!,
        stepId: step.stepId,
        message: input.message,
        approvers,
        requestedAt: isoTime(step.startedAt),
        youMayDecide:
          approvers.length > 0 ? approvers.some((h) => h.toLowerCase() === actor.handle.toLowerCase()) : roleAtLeast(role, 'Participant'),
      };
      if (input.timeoutAt !== undefined) item.timeoutAt = isoTime(input.timeoutAt);
      found.push(item);
      if (found.length === query.limit) return found;
    }
    if (runs.length < SCAN_PAGE) return found;
    before = runs[runs.length - 1]!.id;
  }
}
