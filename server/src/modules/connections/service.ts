import { authOf, type ConnectionValue, type PieceInfo } from '@taskspace/engine';
import type { Actor } from '../../auth/tokens';
import { requireWorkspace } from '../../auth/access';
import { badRequest, conflict, notFound } from '../../errors';
import { newId } from '../../platform/ids';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';

/**
 * Connections of Activepieces pieces (docs/integrations.md "Connections"): a named value a
 * workspace's piece steps authenticate with (`connectionId`). Collaborators and Owners make,
 * change and delete them; any member lists them, never their values. The value is sealed at rest
 * with the app's key (like workspace secrets), opened only for a piece call, and masked in what
 * runs record.
 */

/** A connection as listed: never its value. Times in ms since the epoch. */
export interface ConnectionInfo {
  id: string;
  workspaceId: string;
  piece: string;
  name: string;
  authType: string;
  createdAt: number;
  updatedAt: number;
  /** Handle of who made it; null once that account is gone. */
  createdBy: string | null;
}

/** What makes or changes a connection: the piece's short name, a name, and the value (`auth`). */
export interface ConnectionInput {
  piece: string;
  name: string;
  auth: ConnectionValue;
}

const COLUMNS = `c.id, c.workspace_id AS "workspaceId", c.piece, c.name, c.auth_type AS "authType", c.created_at AS "createdAt",
  c.updated_at AS "updatedAt", u.handle AS "createdBy"`;

/**
 * The value checked against the piece's auth declaration: a known type and every required field.
 * Returns the value with only the fields of its type.
 * @throws ServiceError 400 (`auth.type` unknown for the piece, a required field missing).
 */
export function checkedValue(piece: PieceInfo, auth: ConnectionValue): ConnectionValue {
  const declared = authOf(piece, auth.type);
  if (!declared)
    throw badRequest(
      'auth.type',
      'invalid_value',
      `${piece.displayName} takes ${piece.auth.map((a) => a.type).join(' or ') || 'no connection'}, not '${auth.type}'`,
    );
  const text = (field: string, value: unknown): string => {
    if (typeof value !== 'string' || value === '')
      throw badRequest(`auth.${field}`, 'required', `auth.${field} is required for a ${declared.type} connection`);
    return value;
  };
  switch (declared.type) {
    case 'SECRET_TEXT':
      return { type: declared.type, secret_text: text('secret_text', auth.secret_text) };
    case 'BASIC_AUTH':
      return { type: declared.type, username: text('username', auth.username), password: text('password', auth.password) };
    case 'CUSTOM_AUTH': {
      const props = (auth.props && typeof auth.props === 'object' ? auth.props : {}) as Record<string, unknown>;
      for (const [name, prop] of Object.entries(declared.props ?? {}))
        if (prop.required && (props[name] === undefined || props[name] === ''))
          throw badRequest(`auth.props.${name}`, 'required', `auth.props.${name} (${prop.displayName}) is required`);
      const known = Object.fromEntries(Object.entries(props).filter(([name]) => name in (declared.props ?? {})));
      return { type: declared.type, props: known };
    }
    case 'OAUTH2':
      throw badRequest(
        'auth.type',
        'invalid_value',
        'an OAuth2 connection is made through the provider\'s consent: POST /api/v1/workspaces/{workspaceId}/connections/oauth2 (docs/integrations.md "OAuth2 connections")',
      );
    default:
      throw badRequest(
        'auth.type',
        'not_supported',
        `${declared.type} connections are not supported yet (docs/integrations.md "Not supported")`,
      );
  }
}

/** The connections of a workspace (any member), optionally of one piece. */
export function* listConnections(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  piece?: string,
  q: Sql = svc.store.sql,
): Query<ConnectionInfo[]> {
  yield* requireWorkspace(q, actor, workspaceId, 'Viewer', 'listing connections');
  return yield* q.all<ConnectionInfo>(
    `SELECT ${COLUMNS} FROM connections c LEFT JOIN users u ON u.id = c.created_by WHERE c.workspace_id = ?${piece ? ' AND c.piece = ?' : ''} ORDER BY c.name`,
    piece ? [workspaceId, piece] : [workspaceId],
  );
}

/**
 * One connection (any member).
 * @throws ServiceError 404 when the workspace has no such connection (or is not the caller's).
 */
export function* getConnection(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  id: string,
  q: Sql = svc.store.sql,
): Query<ConnectionInfo> {
  yield* requireWorkspace(q, actor, workspaceId, 'Viewer', 'reading connections');
  const row = yield* q.get<ConnectionInfo>(
    `SELECT ${COLUMNS} FROM connections c LEFT JOIN users u ON u.id = c.created_by WHERE c.id = ? AND c.workspace_id = ?`,
    [id, workspaceId],
  );
  if (!row) throw notFound('connection', id);
  return row;
}

/** @throws ServiceError 409 when the workspace has a connection named `name` (other than `except`). */
export function* nameFree(q: Sql, workspaceId: string, name: string, except?: string): Query<void> {
  const row = yield* q.get<{ id: string }>('SELECT id FROM connections WHERE workspace_id = ? AND name = ?', [workspaceId, name]);
  if (row && row.id !== except)
    throw conflict(`the workspace already has a connection named '${name}'`, { field: 'name', reason: 'duplicate' });
}

/**
 * Makes a connection (Collaborators and Owners) after checking its value against the piece.
 * @throws ServiceError 404/403 from the workspace check; 400 for an unknown piece or a bad value; 409 for a name in use.
 */
export function* createConnection(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  input: ConnectionInput,
  piece: PieceInfo | undefined,
  q: Sql = svc.store.sql,
): Query<ConnectionInfo> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'making connections');
  if (!piece) throw badRequest('piece', 'not_found', `no piece '${input.piece}' is installed (GET /api/v1/automations/kinds lists them)`);
  const value = checkedValue(piece, input.auth);
  const id = newId();
  const now = svc.clock.now();
  yield* q.transaction(function* (tx) {
    yield* nameFree(tx, workspaceId, input.name);
    yield* tx.run(
      'INSERT INTO connections (id, workspace_id, piece, name, auth_type, value_sealed, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, workspaceId, piece.name, input.name, value.type, svc.secretBox.seal(JSON.stringify(value)), actor.userId, now, now],
    );
  });
  return yield* getConnection(svc, actor, workspaceId, id, q);
}

/**
 * Renames a connection or replaces its value (Collaborators and Owners); a new value is checked against the piece.
 * @throws ServiceError 404/403; 400 for a bad value; 409 for a name in use.
 */
export function* updateConnection(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  id: string,
  patch: { name?: string; auth?: ConnectionValue },
  piece: (name: string) => PieceInfo | undefined,
  q: Sql = svc.store.sql,
): Query<ConnectionInfo> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'changing connections');
  const current = yield* getConnection(svc, actor, workspaceId, id, q);
  const now = svc.clock.now();
  let sealed: string | undefined;
  let type: string | undefined;
  if (patch.auth) {
    const info = piece(current.piece);
    if (!info) throw badRequest('piece', 'not_found', `the piece '${current.piece}' is no longer installed`);
    const value = checkedValue(info, patch.auth);
    sealed = svc.secretBox.seal(JSON.stringify(value));
    type = value.type;
  }
  yield* q.transaction(function* (tx) {
    if (patch.name !== undefined) yield* nameFree(tx, workspaceId, patch.name, id);
    yield* tx.run(
      'UPDATE connections SET name = COALESCE(?, name), value_sealed = COALESCE(?, value_sealed), auth_type = COALESCE(?, auth_type), updated_at = ? WHERE id = ? AND workspace_id = ?',
      [patch.name ?? null, sealed ?? null, type ?? null, now, id, workspaceId],
    );
  });
  return yield* getConnection(svc, actor, workspaceId, id, q);
}

/**
 * Deletes a connection (Collaborators and Owners); steps that name it fail with CONNECTION_NOT_FOUND from then on.
 * @throws ServiceError 404/403.
 */
export function* deleteConnection(svc: Services, actor: Actor, workspaceId: string, id: string, q: Sql = svc.store.sql): Query<void> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'deleting connections');
  if ((yield* q.run('DELETE FROM connections WHERE id = ? AND workspace_id = ?', [id, workspaceId])).changes === 0)
    throw notFound('connection', id);
}

/** A connection's piece and opened value, for a piece call (no access check: the engine's and the routes' callers check). */
export function* openConnection(
  svc: Services,
  workspaceId: string,
  id: string,
  q: Sql = svc.store.sql,
): Query<{ id: string; name: string; piece: string; value: ConnectionValue } | undefined> {
  const row = yield* q.get<{ id: string; name: string; piece: string; sealed: string }>(
    'SELECT id, name, piece, value_sealed AS sealed FROM connections WHERE id = ? AND workspace_id = ?',
    [id, workspaceId],
  );
  if (!row) return undefined;
  return { id: row.id, name: row.name, piece: row.piece, value: JSON.parse(svc.secretBox.open(row.sealed)) as ConnectionValue };
}
