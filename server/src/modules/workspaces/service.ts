import type { Query, Sql } from '../../platform/db/query';
import { badRequest } from '../../errors';
import { newId } from '../../platform/ids';
import { isRole, ROLES, type Role } from '../../auth/roles';
import { getUserByHandle } from '../users/service';

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
