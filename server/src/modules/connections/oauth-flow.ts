import { createHash, randomBytes } from 'node:crypto';
import { ActionError, authOf, type Http, type PieceInfo } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { badRequest, notFound, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { oauthAppFor } from './oauth-apps';
import { templated, tokenRequest } from './oauth-tokens';
import { nameFree } from './service';

/**
 * Making an OAuth2 connection (docs/integrations.md "OAuth2 connections"; RFC 6749 section 4.1,
 * RFC 7636): {@link startConsent} answers the provider's authorization URL with a one-time
 * `state` (and a PKCE S256 challenge when the piece asks for it); the person consents at the
 * provider, which redirects their browser to {@link CALLBACK_PATH} on Taskspace's public URL;
 * {@link finishConsent} checks the state (same person, unused, at most 10 minutes old), exchanges
 * the code at the token endpoint server-side and stores the connection. {@link consentStatus}
 * tells the web app, which polls, how it ended.
 */

/** Where providers send the browser back: register `<public URL>` + this as the app's redirect URL. */
export const CALLBACK_PATH = '/api/v1/connections/oauth2/callback';
/** How long a consent may take, in ms. */
const STATE_MS = 10 * 60_000;

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

/** What a pending consent keeps, sealed: the PKCE verifier, the redirect URI sent, the fields, the endpoints. */
interface PendingRequest {
  verifier?: string;
  redirectUri: string;
  props: Record<string, unknown>;
  scope: string;
  tokenUrl: string;
  authorizationMethod?: 'HEADER' | 'BODY';
  /** A reconnect: the connection whose value the consent replaces (its id and name stay). */
  connectionId?: string;
}

/** The OAuth2 declaration of `piece`, or a 400. */
function oauthOf(piece: PieceInfo) {
  const auth = authOf(piece, 'OAUTH2');
  if (!auth || !auth.authUrl || !auth.tokenUrl)
    throw badRequest('piece', 'invalid_value', `${piece.displayName} takes no OAuth2 connection`);
  return auth as typeof auth & { authUrl: string; tokenUrl: string };
}

/**
 * Starts a consent that replaces the value of the OAuth2 connection `connectionId` (Collaborators
 * and Owners): its piece and name stay, its fields are `props` or else the ones it was made with,
 * and so do the steps that name it. For a connection whose refresh token the provider revoked.
 * @throws ServiceError 404 for no such connection in the workspace; 400 `invalid_value` for one
 *   that is not OAuth2; as {@link startConsent} otherwise.
 */
export function* startReconsent(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  connectionId: string,
  catalogue: (piece: string) => PieceInfo | undefined,
  input: { props?: Record<string, unknown> | undefined },
  q: Sql = svc.store.sql,
): Query<{ authorizationUrl: string; state: string; redirectUri: string }> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'changing connections');
  const row = yield* q.get<{ piece: string; name: string; authType: string; sealed: string }>(
    'SELECT piece, name, auth_type AS "authType", value_sealed AS sealed FROM connections WHERE id = ? AND workspace_id = ?',
    [connectionId, workspaceId],
  );
  if (!row) throw notFound('connection', 'connectionId');
  if (row.authType !== 'OAUTH2')
    throw badRequest('connectionId', 'invalid_value', 'only an OAuth2 connection is reconnected; change its value instead');
  const before = (JSON.parse(svc.secretBox.open(row.sealed)) as { props?: Record<string, unknown> }).props ?? {};
  return yield* startConsent(
    svc,
    actor,
    workspaceId,
    catalogue(row.piece),
    { piece: row.piece, name: row.name, props: input.props ?? before, connectionId },
    q,
  );
}

/**
 * Starts a consent for a new connection `name` to `piece` (Collaborators and Owners).
 * @returns the URL to open in the person's browser, the `state` to ask {@link consentStatus} about, and the redirect URI.
 * @throws ServiceError 403/404 from the workspace check; 400 when the piece takes no OAuth2
 *   connection, a required field is missing or no app is registered for it; 409 for a name in use.
 */
export function* startConsent(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  piece: PieceInfo | undefined,
  input: { piece: string; name: string; props?: Record<string, unknown>; connectionId?: string },
  q: Sql = svc.store.sql,
): Query<{ authorizationUrl: string; state: string; redirectUri: string }> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', input.connectionId ? 'changing connections' : 'making connections');
  if (!piece) throw badRequest('piece', 'not_found', `no piece '${input.piece}' is installed (GET /api/v1/automations/kinds lists them)`);
  const auth = oauthOf(piece);
  const given = input.props ?? {};
  for (const [name, prop] of Object.entries(auth.props ?? {}))
    if (prop.required && (given[name] === undefined || given[name] === ''))
      throw badRequest(`props.${name}`, 'required', `props.${name} (${prop.displayName}) is required`);
  const props = Object.fromEntries(Object.entries(given).filter(([name]) => name in (auth.props ?? {})));
  if (!input.connectionId) yield* nameFree(q, workspaceId, input.name);
  const app = yield* oauthAppFor(svc, workspaceId, piece.name, q);
  if (!app)
    throw badRequest(
      'piece',
      'oauth_app_missing',
      `no OAuth app is registered for ${piece.displayName}: an Owner registers one (PUT /api/v1/workspaces/${workspaceId}/oauth2-apps/${piece.name}) or the instance configures TASKSPACE_PIECE_OAUTH_${piece.name.toUpperCase().replace(/-/g, '_')}_CLIENT_ID`,
    );
  const state = randomBytes(32).toString('base64url');
  const redirectUri = svc.links.url(CALLBACK_PATH);
  const scope = (auth.scope ?? []).join(' ');
  const url = new URL(templated(auth.authUrl, props));
  // The piece's extra parameters first: the protocol's own below are never replaced by them.
  for (const [name, value] of Object.entries(auth.extra ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  if (scope) url.searchParams.set('scope', scope);
  url.searchParams.set('state', state);
  const pending: PendingRequest = {
    redirectUri,
    props,
    scope,
    tokenUrl: templated(auth.tokenUrl, props),
    ...(auth.authorizationMethod ? { authorizationMethod: auth.authorizationMethod } : {}),
    ...(input.connectionId ? { connectionId: input.connectionId } : {}),
  };
  if (auth.pkce) {
    pending.verifier = randomBytes(48).toString('base64url');
    url.searchParams.set('code_challenge', createHash('sha256').update(pending.verifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  const now = svc.clock.now();
  yield* q.run('DELETE FROM connection_oauth_states WHERE expires_at < ?', [now - STATE_MS]);
  yield* q.run(
    `INSERT INTO connection_oauth_states (state_hash, workspace_id, user_id, piece, name, request_sealed, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [hashOf(state), workspaceId, actor.userId, piece.name, input.name, svc.secretBox.seal(JSON.stringify(pending)), now, now + STATE_MS],
  );
  return { authorizationUrl: url.toString(), state, redirectUri };
}

interface StateRow {
  workspaceId: string;
  userId: string;
  piece: string;
  name: string;
  sealed: string;
  expiresAt: number;
  usedAt: number | null;
  connectionId: string | null;
  error: string | null;
}

function* stateRow(q: Sql, state: string): Query<StateRow | undefined> {
  return yield* q.get<StateRow>(
    `SELECT workspace_id AS "workspaceId", user_id AS "userId", piece, name, request_sealed AS sealed, expires_at AS "expiresAt",
       used_at AS "usedAt", connection_id AS "connectionId", error FROM connection_oauth_states WHERE state_hash = ?`,
    [hashOf(state)],
  );
}

/** How a consent ended, as {@link consentStatus} and the callback page tell it. */
export interface ConsentStatus {
  status: 'pending' | 'connected' | 'failed';
  connectionId?: string;
  error?: string;
}

/**
 * How the consent `state` of the caller in `workspaceId` stands.
 * @throws ServiceError 404 for a state that is not the caller's (or is gone).
 */
export function* consentStatus(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  state: string,
  q: Sql = svc.store.sql,
): Query<ConsentStatus> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'making connections');
  const row = yield* stateRow(q, state);
  if (!row || row.workspaceId !== workspaceId || row.userId !== actor.userId) throw notFound('consent', 'state');
  if (row.connectionId) return { status: 'connected', connectionId: row.connectionId };
  if (row.error) return { status: 'failed', error: row.error };
  if (row.expiresAt <= svc.clock.now()) return { status: 'failed', error: 'the consent took longer than 10 minutes' };
  return { status: 'pending' };
}

/**
 * The provider's redirect (RFC 6749 section 4.1.2): checks `state` — the caller's, unused,
 * unexpired — then exchanges `code` server-side and stores the connection, or records the
 * provider's `error`.
 * @throws ServiceError 400 for an unknown, spent, expired or other person's state (nothing is recorded then).
 */
export async function finishConsent(
  svc: Services,
  http: Http,
  actor: Actor,
  query: { state?: string; code?: string; error?: string; error_description?: string },
): Promise<ConsentStatus & { piece?: string; name?: string }> {
  const bad = (message: string) => badRequest('state', 'invalid_value', message);
  if (!query.state) throw bad('the redirect has no state');
  const state = query.state;
  const row = await svc.store.run(stateRow(svc.store.sql, state));
  const now = svc.clock.now();
  if (!row || row.userId !== actor.userId) throw bad('this consent was not started by you, here');
  if (row.expiresAt <= now) throw bad('this consent took longer than 10 minutes; start again');
  const claimed = await svc.store.run(
    svc.store.sql.run('UPDATE connection_oauth_states SET used_at = ? WHERE state_hash = ? AND used_at IS NULL', [now, hashOf(state)]),
  );
  if (claimed.changes === 0) throw bad('this consent was already answered');
  const named = { piece: row.piece, name: row.name };
  const fail = async (error: string): Promise<ConsentStatus & typeof named> => {
    await svc.store.run(svc.store.sql.run('UPDATE connection_oauth_states SET error = ? WHERE state_hash = ?', [error, hashOf(state)]));
    return { status: 'failed', error, ...named };
  };
  if (query.error) return fail(`the provider refused: ${[query.error, query.error_description].filter(Boolean).join(': ')}`);
  if (!query.code) return fail('the provider sent no code');
  const pending = JSON.parse(svc.secretBox.open(row.sealed)) as PendingRequest;
  try {
    await svc.store.run(requireWorkspace(svc.store.sql, actor, row.workspaceId, 'Collaborator', 'making connections'));
    const app = await svc.store.run(oauthAppFor(svc, row.workspaceId, row.piece));
    if (!app) return fail(`the workspace has no OAuth app for ${row.piece} any more`);
    const value = await tokenRequest(http, {
      tokenUrl: pending.tokenUrl,
      app,
      fields: {
        grant_type: 'authorization_code',
        code: query.code,
        redirect_uri: pending.redirectUri,
        ...(pending.verifier ? { code_verifier: pending.verifier } : {}),
      },
      scope: pending.scope,
      props: pending.props,
      now: svc.clock.now(),
      authorizationMethod: pending.authorizationMethod,
    });
    const id = newId();
    const at = svc.clock.now();
    await svc.store.run(
      svc.store.sql.transaction(function* (tx) {
        if (pending.connectionId) {
          const replaced = yield* tx.run('UPDATE connections SET value_sealed = ?, updated_at = ? WHERE id = ? AND workspace_id = ?', [
            svc.secretBox.seal(JSON.stringify(value)),
            at,
            pending.connectionId,
            row.workspaceId,
          ]);
          if (replaced.changes === 0) throw badRequest('connectionId', 'not_found', 'the connection was deleted during the consent');
        } else {
          yield* nameFree(tx, row.workspaceId, row.name);
          yield* tx.run(
            'INSERT INTO connections (id, workspace_id, piece, name, auth_type, value_sealed, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [id, row.workspaceId, row.piece, row.name, 'OAUTH2', svc.secretBox.seal(JSON.stringify(value)), actor.userId, at, at],
          );
        }
        yield* tx.run('UPDATE connection_oauth_states SET connection_id = ? WHERE state_hash = ?', [
          pending.connectionId ?? id,
          hashOf(state),
        ]);
      }),
    );
    return { status: 'connected', connectionId: pending.connectionId ?? id, ...named };
  } catch (error) {
    if (error instanceof ActionError || error instanceof ServiceError) return fail(error.message);
    throw error;
  }
}
