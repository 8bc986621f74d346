import type { ApprovalInput } from '@taskspace/engine';
import { hashToken } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { newSecret } from '../../platform/ids';

/**
 * The storage side of approval decision links (docs "Approvals that reach people"): the engine
 * host's run event hook (`run-transitions.ts`) creates one, in the run write's transaction, when a
 * run starts waiting on an approval. Reading and using links is in `decision-links.ts`.
 * This module imports no other automation module, so the hook stays below the services.
 */

/** How long a decision link stays valid when the approval has no timeout, in ms: 7 days. */
export const DECISION_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

/** Creates the decision link of an approval through `q` (inside the caller's transaction); returns its token. */
export function* createDecisionLink(q: Sql, runId: string, stepId: string, input: ApprovalInput | undefined, now: number): Query<string> {
  const token = newSecret(32);
  yield* q.run('INSERT INTO approval_links (token_hash, run_id, step_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
    hashToken(token),
    runId,
    stepId,
    now,
    input?.timeoutAt ?? now + DECISION_LINK_TTL_MS,
  ]);
  return token;
}
