import type { Query, Sql } from '../../platform/db/query';
import { newId } from '../../platform/ids';
import type { Actor } from '../../auth/tokens';
import { notFound } from '../../errors';
import type { Services } from '../../services';
import { requireFirstPartyCredential } from '../../auth/access';
import { normalizeScopes, parseStoredScope, type OAuthScope } from '../../auth/scopes';
import { notifyAuthChanged } from '../../platform/db/postgres/notifications';

/**
 * Remembered grants (docs/oauth.md "Authorized apps"): what a person approved for a client on the
 * consent page. The next authorization asking for no more than that skips the consent page;
 * revoking a grant ends every token issued under it.
 */

/** A grant as its owner sees it. Times in ms since the epoch. */
export interface GrantInfo {
  id: string;
  /** `workspaceId` is empty for a self-registered client (RFC 7591), which belongs to no workspace. */
  client: { id: string; name: string; workspaceId: string };
  scopes: string[];
  createdAt: number;
  updatedAt: number;
  /** Last time one of its access tokens was used; null when never. */
  lastUsedAt: number | null;
}

/** A stored grant: its id and scopes. */
export interface GrantRecord {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[];
}

/** The grant `userId` gave `clientId`, if any. */
export function* findGrant(q: Sql, userId: string, clientId: string): Query<GrantRecord | undefined> {
  const row = yield* q.get<{ id: string; scope: string }>('SELECT id, scope FROM oauth_grants WHERE user_id = ? AND client_id = ?', [
    userId,
    clientId,
  ]);
  return row ? { id: row.id, userId, clientId, scopes: parseStoredScope(row.scope) } : undefined;
}

/** A grant by id, if any. */
export function* grantById(q: Sql, grantId: string): Query<GrantRecord | undefined> {
  const row = yield* q.get<{ id: string; userId: string; clientId: string; scope: string }>(
    'SELECT id, user_id AS "userId", client_id AS "clientId", scope FROM oauth_grants WHERE id = ?',
    [grantId],
  );
  return row ? { id: row.id, userId: row.userId, clientId: row.clientId, scopes: parseStoredScope(row.scope) } : undefined;
}

/**
 * Records that `userId` approved `scopes` for `clientId`: a new grant, or the existing one
 * widened to the union of both scope lists. Returns the grant.
 */
export function* rememberGrant(q: Sql, userId: string, clientId: string, scopes: readonly OAuthScope[], now: number): Query<GrantRecord> {
  return yield* q.transaction(function* (tx) {
    const existing = yield* findGrant(tx, userId, clientId);
    const union = normalizeScopes([...(existing?.scopes ?? []), ...scopes])!;
    if (existing) {
      yield* tx.run('UPDATE oauth_grants SET scope = ?, updated_at = ? WHERE id = ?', [union.join(' '), now, existing.id]);
      return { ...existing, scopes: union };
    }
    const id = newId();
    yield* tx.run('INSERT INTO oauth_grants (id, user_id, client_id, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      userId,
      clientId,
      union.join(' '),
      now,
      now,
    ]);
    return { id, userId, clientId, scopes: union };
  });
}

/** Whether a grant already covers every scope in `scopes`. */
export function grantCovers(grant: GrantRecord | undefined, scopes: readonly string[]): boolean {
  return grant !== undefined && scopes.every((scope) => grant.scopes.includes(scope));
}

/**
 * The apps I authorized, most recently changed first.
 * @throws ServiceError 403 for OAuth access tokens.
 */
export function* listMyGrants(svc: Services, actor: Actor, q: Sql = svc.store.sql): Query<GrantInfo[]> {
  requireFirstPartyCredential(actor, 'listing authorized apps');
  const rows = yield* q.all<{
    id: string;
    clientId: string;
    clientName: string;
    workspaceId: string;
    scope: string;
    createdAt: number;
    updatedAt: number;
    lastUsedAt: number | null;
  }>(
    `SELECT g.id, c.id AS "clientId", c.name AS "clientName", COALESCE(c.workspace_id, '') AS "workspaceId", g.scope, g.created_at AS "createdAt", g.updated_at AS "updatedAt",
            (SELECT MAX(t.last_used_at) FROM access_tokens t WHERE t.grant_id = g.id) AS "lastUsedAt"
       FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
      WHERE g.user_id = ? ORDER BY g.updated_at DESC, g.id`,
    [actor.userId],
  );
  return rows.map((r) => ({
    id: r.id,
    client: { id: r.clientId, name: r.clientName, workspaceId: r.workspaceId },
    scopes: parseStoredScope(r.scope),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastUsedAt: r.lastUsedAt,
  }));
}

/**
 * Revokes one of my grants: the grant, its unused codes, its refresh tokens and its access tokens
 * are deleted in one transaction, so the app loses access at once and must ask again.
 * @throws ServiceError 404 when I have no such grant, 403 for OAuth access tokens.
 */
export function* revokeMyGrant(svc: Services, actor: Actor, grantId: string, q: Sql = svc.store.sql): Query<void> {
  requireFirstPartyCredential(actor, 'revoking an authorized app');
  const grant = yield* grantById(q, grantId);
  if (!grant || grant.userId !== actor.userId) throw notFound('grant', grantId);
  yield* q.transaction(function* (tx) {
    yield* tx.run('DELETE FROM access_tokens WHERE grant_id = ?', [grantId]);
    yield* notifyAuthChanged(tx);
    yield* tx.run('DELETE FROM oauth_grants WHERE id = ?', [grantId]);
  });
}
