import type { Db } from '../platform/db/connection';
import { sql } from '../platform/db/statements';
import { INFO_COLUMNS, revokeAccessToken, type AccessTokenInfo, type Actor } from '../auth/tokens';
import { requireWorkspace } from '../auth/access';
import { notFound } from '../errors';
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
  requireWorkspace(svc.db, actor, workspaceId, 'Owner', "listing members' tokens");
  return sql<[string], AccessTokenInfo & { handle: string }>(
    svc.db,
    `SELECT t.id, t.user_id AS userId, t.name, t.scope, t.created_at AS createdAt, t.last_used_at AS lastUsedAt,
            t.expires_at AS expiresAt, t.revoked_at AS revokedAt, u.handle
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.revoked_at IS NULL AND t.user_id IN (SELECT user_id FROM workspace_members WHERE workspace_id = ?)
      ORDER BY t.created_at DESC`,
  ).all(workspaceId);
}

/** A token's metadata by id, revoked or not. */
export function getTokenInfo(db: Db, tokenId: string): AccessTokenInfo | undefined {
  return sql<[string], AccessTokenInfo>(db, `SELECT ${INFO_COLUMNS} FROM access_tokens WHERE id = ?`).get(tokenId);
}

/**
 * Revokes a live token: the caller's own, or (Owners) a member's of one of their workspaces.
 * Anything else, revoked or unknown, is 404 (no hint that the token exists).
 * @throws ServiceError 404.
 */
export function revokeTokenAs(svc: Services, actor: Actor, tokenId: string): void {
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
