import type { Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
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
 * Call inside a transaction.
 */
export function createWorkspace(db: Db, name: string, ownerId: string, now: number): { id: string; name: string } {
  const id = newId();
  sql(db, 'INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(id, name, now);
  sql(db, 'INSERT INTO folders (id, workspace_id, parent_id, name, created_at) VALUES (?, ?, NULL, ?, ?)').run(id, id, HOME_FOLDER_NAME, now);
  sql(db, 'INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(id, ownerId, 'Owner', now);
  return { id, name };
}

/** The workspaces `userId` belongs to, oldest first. */
export function listWorkspacesOf(db: Db, userId: string): WorkspaceSummary[] {
  return sql<[string], WorkspaceSummary>(
    db,
    `SELECT w.id, w.name, m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ? ORDER BY w.created_at, w.id`,
  ).all(userId);
}

/**
 * Adds `handle` to a workspace with `role`, or changes the role of an existing member.
 * @throws ServiceError 400 for an unknown role, 404 for an unknown handle or workspace.
 */
export function setWorkspaceMember(db: Db, workspaceId: string, handle: string, role: string, now: number): void {
  if (!isRole(role)) throw badRequest('role', 'invalid_value', `role must be one of ${ROLES.join(', ')}`);
  const user = getUserByHandle(db, handle);
  const exists = sql(db, 'SELECT 1 FROM workspaces WHERE id = ?').get(workspaceId);
  if (!exists) throw badRequest('workspaceId', 'not_found', `workspace '${workspaceId}' not found`);
  sql(
    db,
    `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`,
  ).run(workspaceId, user.id, role, now);
}
