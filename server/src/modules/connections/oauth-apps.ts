import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import type { PieceOAuthApp } from '../../config-piece-apps';
import { badRequest, notFound } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import type { PieceInfo } from '@taskspace/engine';

/**
 * Provider apps of OAuth2 pieces (docs/integrations.md "OAuth2 apps"): the client id and secret
 * an Owner registered with the outside service for a piece, per workspace (table
 * `connection_oauth_apps`, the secret sealed with the app's key), else the instance's from
 * configuration (`TASKSPACE_PIECE_OAUTH_<PIECE>_CLIENT_ID`/`_SECRET`). The secret is never returned.
 */

/** A registered app as listed: its client id and where it comes from; never its secret. Times in ms. */
export interface OAuthAppInfo {
  piece: string;
  clientId: string;
  /** `workspace`: an Owner registered it here; `instance`: the server's configuration. */
  source: 'workspace' | 'instance';
  createdAt: number | null;
  updatedAt: number | null;
}

/** The apps a workspace can make OAuth2 connections with (any member): its own, then the instance's for the other pieces. */
export function* listOAuthApps(svc: Services, actor: Actor, workspaceId: string, q: Sql = svc.store.sql): Query<OAuthAppInfo[]> {
  yield* requireWorkspace(q, actor, workspaceId, 'Viewer', 'listing OAuth apps');
  const own = yield* q.all<{ piece: string; clientId: string; createdAt: number; updatedAt: number }>(
    'SELECT piece, client_id AS "clientId", created_at AS "createdAt", updated_at AS "updatedAt" FROM connection_oauth_apps WHERE workspace_id = ? ORDER BY piece',
    [workspaceId],
  );
  const out: OAuthAppInfo[] = own.map((a) => ({ ...a, source: 'workspace' }));
  for (const [piece, app] of Object.entries(svc.config.pieceOAuthApps))
    if (!own.some((a) => a.piece === piece))
      out.push({ piece, clientId: app.clientId, source: 'instance', createdAt: null, updatedAt: null });
  return out.sort((a, b) => (a.piece < b.piece ? -1 : a.piece > b.piece ? 1 : 0));
}

/**
 * Registers (or replaces) the workspace's app for an OAuth2 piece (Owners).
 * @throws ServiceError 403/404 from the workspace check; 400 when the piece is not installed or takes no OAuth2 connection.
 */
export function* putOAuthApp(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  piece: PieceInfo | undefined,
  name: string,
  app: PieceOAuthApp,
  q: Sql = svc.store.sql,
): Query<OAuthAppInfo> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'registering OAuth apps');
  if (!piece) throw badRequest('piece', 'not_found', `no piece '${name}' is installed`);
  if (!piece.auth.some((a) => a.type === 'OAUTH2'))
    throw badRequest('piece', 'invalid_value', `${piece.displayName} takes no OAuth2 connection`);
  const now = svc.clock.now();
  const sealed = svc.secretBox.seal(app.clientSecret);
  yield* q.transaction(function* (tx) {
    const changed = yield* tx.run(
      'UPDATE connection_oauth_apps SET client_id = ?, secret_sealed = ?, updated_at = ? WHERE workspace_id = ? AND piece = ?',
      [app.clientId, sealed, now, workspaceId, piece.name],
    );
    if (changed.changes === 0)
      yield* tx.run(
        'INSERT INTO connection_oauth_apps (workspace_id, piece, client_id, secret_sealed, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [workspaceId, piece.name, app.clientId, sealed, actor.userId, now, now],
      );
  });
  return { piece: piece.name, clientId: app.clientId, source: 'workspace', createdAt: now, updatedAt: now };
}

/**
 * Removes the workspace's app for a piece (Owners); the instance's, if any, applies again.
 * Connections made with it keep working until their refresh token is refused.
 * @throws ServiceError 403/404; 404 when the workspace registered none for the piece.
 */
export function* deleteOAuthApp(svc: Services, actor: Actor, workspaceId: string, piece: string, q: Sql = svc.store.sql): Query<void> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'removing OAuth apps');
  if ((yield* q.run('DELETE FROM connection_oauth_apps WHERE workspace_id = ? AND piece = ?', [workspaceId, piece])).changes === 0)
    throw notFound('OAuth app', piece);
}

/** The app a workspace's connections of `piece` use (no access check: internal), or undefined. */
export function* oauthAppFor(svc: Services, workspaceId: string, piece: string, q: Sql = svc.store.sql): Query<PieceOAuthApp | undefined> {
  const row = yield* q.get<{ clientId: string; sealed: string }>(
    'SELECT client_id AS "clientId", secret_sealed AS sealed FROM connection_oauth_apps WHERE workspace_id = ? AND piece = ?',
    [workspaceId, piece],
  );
  if (row) return { clientId: row.clientId, clientSecret: svc.secretBox.open(row.sealed) };
  return svc.config.pieceOAuthApps[piece];
}
