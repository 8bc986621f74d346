import type { Query, Sql } from '../../platform/db/query';
import { badRequest, conflict } from '../../errors';
import { newId } from '../../platform/ids';
import { isRole, ROLES, type Role } from '../../auth/roles';
import { requireWorkspace } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import { getUserByHandle, setDisplayName } from '../users/service';

/** A workspace as listed to a member. Its home folder has the same id. */
export interface WorkspaceSummary {
  id: string;
  name: string;
  /** The caller's role in it. */
  role: Role;
}

/** Display name of every workspace's home folder. */
export const HOME_FOLDER_NAME = 'Home';

/**
 * Creates a workspace, its home folder (same id) and the owner's membership.
 * Call inside a transaction, with its handle.
 */
export function* createWorkspace(q: Sql, name: string, ownerId: string, now: number): Query<{ id: string; name: string }> {
  const id = newId();
  yield* q.run('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)', [id, name, now]);
  yield* q.run('INSERT INTO folders (id, workspace_id, parent_id, name, created_at) VALUES (?, ?, NULL, ?, ?)', [
    id,
    id,
    HOME_FOLDER_NAME,
    now,
  ]);
  yield* q.run('INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)', [id, ownerId, 'Owner', now]);
  return { id, name };
}

/** The workspaces `userId` belongs to, oldest first. */
export function listWorkspacesOf(q: Sql, userId: string): Query<WorkspaceSummary[]> {
  return q.all<WorkspaceSummary>(
    `SELECT w.id, w.name, m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ? ORDER BY w.created_at, w.id`,
    [userId],
  );
}

/**
 * Adds `handle` to a workspace with `role`, or changes the role of an existing member.
 * @throws ServiceError 400 for an unknown role, 404 for an unknown handle or workspace.
 */
export function* setWorkspaceMember(q: Sql, workspaceId: string, handle: string, role: string, now: number): Query<void> {
  if (!isRole(role)) throw badRequest('role', 'invalid_value', `role must be one of ${ROLES.join(', ')}`);
  const user = yield* getUserByHandle(q, handle);
  const exists = yield* q.get<{ one: number }>('SELECT 1 AS one FROM workspaces WHERE id = ?', [workspaceId]);
  if (!exists) throw badRequest('workspaceId', 'not_found', `workspace '${workspaceId}' not found`);
  yield* q.run(
    `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`,
    [workspaceId, user.id, role, now],
  );
}

/**
 * A name as given with its surrounding white space removed.
 * @throws ServiceError 400 VALIDATION_ERROR (`field`, reason `blank`) when nothing else is left.
 */
export function trimmedName(name: string, field: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest(field, 'blank', `${field} must not be blank`);
  return trimmed;
}

/**
 * Refuses a workspace name the person already sees in their workspace switcher: another of
 * `userId`'s workspaces (not `exceptId`) has it, letter case aside (docs "Workspaces, folders and the caller").
 * @throws ServiceError 409 CONFLICT (`name`, reason `taken`).
 */
function* refuseTakenName(q: Sql, userId: string, name: string, exceptId: string | null): Query<void> {
  const clash = yield* q.get<{ id: string }>(
    `SELECT w.id FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ? AND lower(w.name) = lower(?) AND w.id <> ?`,
    [userId, name, exceptId ?? ''],
  );
  if (clash) throw conflict(`you already have a workspace named '${name}'`, { field: 'name', reason: 'taken' });
}

/**
 * `POST /workspaces`: a new workspace with its home folder, the caller as its Owner. Any account
 * may create one; the name is trimmed.
 * @throws ServiceError 400 (`name` `blank`), 409 (`name` `taken`: one of the caller's workspaces has it).
 */
export function addWorkspace(svc: Services, actor: Actor, name: string, q: Sql = svc.store.sql): Query<WorkspaceSummary> {
  const clean = trimmedName(name, 'name');
  // The lock orders one person's creates and renames, so two at once cannot both take a name.
  return q.transaction(
    function* (tx) {
      yield* refuseTakenName(tx, actor.userId, clean, null);
      const created = yield* createWorkspace(tx, clean, actor.userId, svc.clock.now());
      return { ...created, role: 'Owner' as const };
    },
    { lock: `workspace-names:${actor.userId}` },
  );
}

/**
 * `PATCH /workspaces/{workspaceId}`: renames a workspace (Owner); the name is trimmed. The same
 * name again is no change and succeeds.
 * @throws ServiceError 404 (unknown or not a member), 403 (below Owner), 400 (`name` `blank`),
 *   409 (`name` `taken`: another of the caller's workspaces has it).
 */
export function renameWorkspace(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  name: string,
  q: Sql = svc.store.sql,
): Query<WorkspaceSummary> {
  const clean = trimmedName(name, 'name');
  return q.transaction(
    function* (tx) {
      const role = yield* requireWorkspace(tx, actor, workspaceId, 'Owner', 'renaming a workspace');
      yield* refuseTakenName(tx, actor.userId, clean, workspaceId);
      yield* tx.run('UPDATE workspaces SET name = ? WHERE id = ?', [clean, workspaceId]);
      return { id: workspaceId, name: clean, role };
    },
    { lock: `workspace-names:${actor.userId}` },
  );
}

/**
 * `PATCH /me`: sets the caller's display name, trimmed (the route's schema holds it to 1..100
 * characters on one line), and tells every process to drop its cached token lookups. Returns the
 * name as stored.
 * @throws ServiceError 400 (`displayName` `blank`).
 */
export function changeDisplayName(actor: Actor, displayName: string, q: Sql): Query<string> {
  const clean = trimmedName(displayName, 'displayName');
  return q.transaction(function* (tx) {
    yield* setDisplayName(tx, actor.userId, clean);
    return clean;
  });
}
