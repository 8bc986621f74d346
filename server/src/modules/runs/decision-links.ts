import type { ApprovalInput } from '@taskspace/engine';
import { requireWorkspace } from '../../auth/access';
import { hashToken, type Actor } from '../../auth/tokens';
import { badRequest } from '../../errors';
import { isoTime } from '../../platform/clock';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import type { AutomationRuntime } from '../engine-host/runtime';
import { decideRun, type RunItem } from './service';

/**
 * Decision links of approvals (docs "Approvals that reach people"): when a run starts waiting on
 * an approval, the `approval.requested` event carries a link `<public URL>/decide?token=…`.
 * Opened by someone signed in, it shows the approval and decides it (as that person, with the
 * usual approver rules). The token has 256 random bits, only its hash is stored, it expires with
 * the approval's timeout (or after `DECISION_LINK_TTL_MS`) and is used once. The run store
 * creates the link (`createDecisionLink` in `decision-link-store.ts`); this file reads and uses it.
 */

interface LinkRow {
  tokenHash: string;
  runId: string;
  stepId: string;
  expiresAt: number;
  usedAt: number | null;
  automationId: string;
  workspaceId: string;
  definition: string;
}

/**
 * The usable link behind `token`.
 * @throws ServiceError 400 field `token`, reason `invalid_link`, `link_used` or `link_expired`.
 */
function* usableLink(q: Sql, token: unknown, now: number): Query<LinkRow> {
  const row =
    typeof token === 'string' && token
      ? yield* q.get<LinkRow>(
          `SELECT l.token_hash AS "tokenHash", l.run_id AS "runId", l.step_id AS "stepId", l.expires_at AS "expiresAt", l.used_at AS "usedAt",
                  r.automation_id AS "automationId", r.workspace_id AS "workspaceId", a.definition_json AS definition
             FROM approval_links l JOIN automation_runs r ON r.id = l.run_id JOIN automations a ON a.id = r.automation_id
            WHERE l.token_hash = ?`,
          [hashToken(token)],
        )
      : undefined;
  if (!row) throw badRequest('token', 'invalid_link', 'this decision link is not valid');
  if (row.usedAt !== null) throw badRequest('token', 'link_used', 'this decision link has already been used');
  if (row.expiresAt <= now) throw badRequest('token', 'link_expired', 'this decision link has expired');
  return row;
}

/**
 * The usable link behind `token`, for a member of its workspace (`action` names the operation in a 403).
 * @throws ServiceError 400 as {@link usableLink}; 404 for someone outside the workspace.
 */
function* checkedLink(q: Sql, svc: Services, actor: Actor, token: unknown, action: string): Query<LinkRow> {
  const link = yield* usableLink(q, token, svc.clock.now());
  yield* requireWorkspace(q, actor, link.workspaceId, 'Viewer', action);
  return link;
}

/** What a decision link shows. */
export interface DecisionRequest {
  automationId: string;
  automationName: string;
  runId: string;
  stepId: string;
  message: string;
  approvers: string[];
  /** ISO 8601. */
  expiresAt: string;
  /** Whether the run still waits on this approval. */
  pending: boolean;
}

/**
 * The approval behind a decision link, for a signed-in member of its workspace.
 * @throws ServiceError 400 as {@link usableLink}; 404 for someone outside the workspace.
 */
export async function inspectDecisionLink(svc: Services, rt: AutomationRuntime, actor: Actor, token: unknown): Promise<DecisionRequest> {
  const link = await svc.store.run(checkedLink(svc.store.sql, svc, actor, token, 'opening a decision link'));
  const found = await rt.engine.getRun(link.runId);
  const input = found?.steps.find((s) => s.stepId === link.stepId)?.input as ApprovalInput | undefined;
  return {
    automationId: link.automationId,
    automationName: (JSON.parse(link.definition) as { name: string }).name,
    runId: link.runId,
    stepId: link.stepId,
    message: input?.message ?? '',
    approvers: input?.approvers ?? [],
    expiresAt: isoTime(link.expiresAt),
    pending: found?.run.status === 'waiting' && found.run.waitingOn?.kind === 'approval' && found.run.waitingOn.stepId === link.stepId,
  };
}

/**
 * Decides the approval behind a decision link as the signed-in caller (approvers, or Participant
 * and above when none are named), then uses the link up.
 * @throws ServiceError 400 as {@link usableLink}; 403; 404; 409 when the run no longer waits on it.
 */
export async function decideWithLink(
  svc: Services,
  rt: AutomationRuntime,
  actor: Actor,
  token: unknown,
  approve: boolean,
  comment?: string,
): Promise<RunItem> {
  const link = await svc.store.run(checkedLink(svc.store.sql, svc, actor, token, 'deciding an approval'));
  const run = await decideRun(svc, rt, actor, link.automationId, link.runId, approve, comment);
  await svc.store.run(
    svc.store.sql.run('UPDATE approval_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [svc.clock.now(), link.tokenHash]),
  );
  return run;
}
