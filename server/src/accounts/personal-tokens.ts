import type { Query, Sql } from '../platform/db/query';
import { INFO_COLUMNS, createAccessToken, revokeAccessToken, type AccessTokenInfo, type Actor, type TokenScope } from '../auth/tokens';
import { requireFirstPartyCredential, requireWorkspace } from '../auth/access';
import { badRequest, notFound } from '../errors';
import type { Services } from '../services';

/**
 * Personal access token management beyond the CLI (docs "Personal access tokens"): who may see
 * and revoke which token. A token's owner always may; an Owner of a workspace may for every
 * member of that workspace. Functions taking `svc` run on `svc.store.sql`; those taking a handle
 * `q` first run on that handle.
 */

/**
 * Owners: live (unrevoked) tokens of every member of a workspace, newest first, with each
 * member's handle.
 * @throws ServiceError 403/404 from the workspace access check.
 */
export function* listWorkspaceTokens(svc: Services, actor: Actor, workspaceId: string): Query<(AccessTokenInfo & { handle: string })[]> {
  const q = svc.store.sql;
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', "listing members' tokens");
  return yield* q.all<AccessTokenInfo & { handle: string }>(
    `SELECT t.id, t.user_id AS "userId", t.name, t.scope, t.created_at AS "createdAt", t.last_used_at AS "lastUsedAt",
            t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt", u.handle
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.revoked_at IS NULL AND t.client_id IS NULL AND t.user_id IN (SELECT user_id FROM workspace_members WHERE workspace_id = ?)
      ORDER BY t.created_at DESC`,
    [workspaceId],
  );
}

/**
 * Creates a personal access token for the caller (docs "Personal access tokens"): `expiresAt` in
 * ms, null for never. Returns its metadata and the token, shown this once.
 * @throws ServiceError 400 when `expiresAt` is not in the future, 403 for an OAuth access token
 * (an app may not mint itself a wider or longer-lived credential).
 */
export function* createTokenAs(
  svc: Services,
  actor: Actor,
  input: { name: string; scope?: TokenScope; expiresAt: number | null },
): Query<{ info: AccessTokenInfo; token: string }> {
  requireFirstPartyCredential(actor, 'creating a personal access token');
  const q = svc.store.sql;
  const now = svc.clock.now();
  if (input.expiresAt !== null && !(input.expiresAt > now)) throw badRequest('expiresAt', 'in_past', 'expiresAt must be in the future');
  const { id, token } = yield* createAccessToken(q, actor.userId, input.name.trim(), now, undefined, {
    scope: input.scope,
    expiresAt: input.expiresAt,
  });
  return { info: (yield* getTokenInfo(q, id))!, token };
}

/** A personal access token's metadata by id, revoked or not (OAuth tokens are not found). */
export function getTokenInfo(q: Sql, tokenId: string): Query<AccessTokenInfo | undefined> {
  return q.get<AccessTokenInfo>(`SELECT ${INFO_COLUMNS} FROM access_tokens WHERE id = ? AND client_id IS NULL`, [tokenId]);
}

/**
 * Revokes a live token: the caller's own, or (Owners) a member's of one of their workspaces.
 * Anything else, revoked or unknown, is 404 (no hint that the token exists).
 * @throws ServiceError 404; 403 for an OAuth access token.
 */
export function* revokeTokenAs(svc: Services, actor: Actor, tokenId: string): Query<void> {
  requireFirstPartyCredential(actor, 'revoking a personal access token');
  const q = svc.store.sql;
  const info = yield* getTokenInfo(q, tokenId);
  const allowed =
    info && info.revokedAt === null && (info.userId === actor.userId || (yield* ownsWorkspaceOf(q, actor.userId, info.userId)));
  if (!allowed || !(yield* revokeAccessToken(q, info.id, svc.clock.now()))) throw notFound('token', tokenId);
}

/** Whether `ownerId` is an Owner of some workspace `memberId` belongs to. */
function* ownsWorkspaceOf(q: Sql, ownerId: string, memberId: string): Query<boolean> {
  const row = yield* q.get<{ one: number }>(
    `SELECT 1 AS one FROM workspace_members o JOIN workspace_members m ON m.workspace_id = o.workspace_id
      WHERE o.user_id = ? AND o.role = 'Owner' AND m.user_id = ? LIMIT 1`,
    [ownerId, memberId],
  );
  return row !== undefined;
}
