import { runSync } from '../platform/db/query';
import type { Db } from '../platform/db/connection';
import { sql } from '../platform/db/statements';
import { INFO_COLUMNS, createAccessToken, revokeAccessToken, type AccessTokenInfo, type Actor, type TokenScope } from '../auth/tokens';
import { requireFirstPartyCredential, requireWorkspace } from '../auth/access';
import { badRequest, notFound } from '../errors';
import type { Services } from '../services';

/**
 * Personal access token management beyond the CLI (docs "Personal access tokens"): who may see
 * and revoke which token. A token's owner always may; an Owner of a workspace may for every
 * member of that workspace.
 */

/**
 * Owners: live (unrevoked) tokens of every member of a workspace, newest first, with each
 * member's handle.
 * @throws ServiceError 403/404 from the workspace access check.
 */
export function listWorkspaceTokens(svc: Services, actor: Actor, workspaceId: string): (AccessTokenInfo & { handle: string })[] {
  runSync(requireWorkspace(svc.db.handle, actor, workspaceId, 'Owner', "listing members' tokens"));
  return sql<[string], AccessTokenInfo & { handle: string }>(
    svc.db,
    `SELECT t.id, t.user_id AS userId, t.name, t.scope, t.created_at AS createdAt, t.last_used_at AS lastUsedAt,
            t.expires_at AS expiresAt, t.revoked_at AS revokedAt, u.handle
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.revoked_at IS NULL AND t.client_id IS NULL AND t.user_id IN (SELECT user_id FROM workspace_members WHERE workspace_id = ?)
      ORDER BY t.created_at DESC`,
  ).all(workspaceId);
}

/**
 * Creates a personal access token for the caller (docs "Personal access tokens"): `expiresAt` in
 * ms, null for never. Returns its metadata and the token, shown this once.
 * @throws ServiceError 400 when `expiresAt` is not in the future, 403 for an OAuth access token
 * (an app may not mint itself a wider or longer-lived credential).
 */
export function createTokenAs(svc: Services, actor: Actor, input: { name: string; scope?: TokenScope; expiresAt: number | null }): { info: AccessTokenInfo; token: string } {
  requireFirstPartyCredential(actor, 'creating a personal access token');
  const now = svc.clock.now();
  if (input.expiresAt !== null && !(input.expiresAt > now)) throw badRequest('expiresAt', 'in_past', 'expiresAt must be in the future');
  const { id, token } = createAccessToken(svc.db, actor.userId, input.name.trim(), now, undefined, { scope: input.scope, expiresAt: input.expiresAt });
  return { info: getTokenInfo(svc.db, id)!, token };
}

/** A personal access token's metadata by id, revoked or not (OAuth tokens are not found). */
export function getTokenInfo(db: Db, tokenId: string): AccessTokenInfo | undefined {
  return sql<[string], AccessTokenInfo>(db, `SELECT ${INFO_COLUMNS} FROM access_tokens WHERE id = ? AND client_id IS NULL`).get(tokenId);
}

/**
 * Revokes a live token: the caller's own, or (Owners) a member's of one of their workspaces.
 * Anything else, revoked or unknown, is 404 (no hint that the token exists).
 * @throws ServiceError 404; 403 for an OAuth access token.
 */
export function revokeTokenAs(svc: Services, actor: Actor, tokenId: string): void {
  requireFirstPartyCredential(actor, 'revoking a personal access token');
  const info = getTokenInfo(svc.db, tokenId);
  const allowed = info && info.revokedAt === null && (info.userId === actor.userId || ownsWorkspaceOf(svc.db, actor.userId, info.userId));
  if (!allowed || !revokeAccessToken(svc.db, info.id, svc.clock.now())) throw notFound('token', tokenId);
}

/** Whether `ownerId` is an Owner of some workspace `memberId` belongs to. */
function ownsWorkspaceOf(db: Db, ownerId: string, memberId: string): boolean {
  return (
    sql<[string, string], number>(
      db,
      `SELECT 1 FROM workspace_members o JOIN workspace_members m ON m.workspace_id = o.workspace_id
        WHERE o.user_id = ? AND o.role = 'Owner' AND m.user_id = ? LIMIT 1`,
    )
      .pluck()
      .get(ownerId, memberId) !== undefined
  );
}
