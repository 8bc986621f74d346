import type { Query, Sql } from '../platform/db/query';
import { forbidden, notFound, ServiceError } from '../errors';
import type { Actor } from './tokens';
import { roleAtLeast, type Role } from './roles';

/**
 * Access checks shared by every resource (README "Roles and permissions").
 * A resource in a workspace the caller is not a member of is reported as 404, never 403,
 * so ids cannot be probed; a member whose role is too low gets 403.
 */

/** The caller's role in `workspaceId`, or undefined when not a member. */
export function* roleIn(q: Sql, userId: string, workspaceId: string): Query<Role | undefined> {
  const row = yield* q.get<{ role: Role }>('SELECT role FROM workspace_members WHERE workspace_id = ? AND user_id = ?', [
    workspaceId,
    userId,
  ]);
  return row?.role;
}

function check(role: Role | undefined, min: Role, kind: string, id: string, action: string): Role {
  if (!role) throw notFound(kind, id);
  if (!roleAtLeast(role, min)) throw forbidden(`${action} needs the ${min} role or above; you are ${role}`);
  return role;
}

/**
 * Checks that the actor is a member of the workspace with at least `min`.
 * @throws ServiceError 404 when unknown or not a member, 403 when the role is too low.
 */
export function* requireWorkspace(q: Sql, actor: Actor, workspaceId: string, min: Role, action = 'this operation'): Query<Role> {
  return check(yield* roleIn(q, actor.userId, workspaceId), min, 'workspace', workspaceId, action);
}

/** A folder row with the caller's role in its workspace. */
export interface FolderAccess {
  id: string;
  workspaceId: string;
  name: string;
  role: Role;
}

/**
 * Resolves a folder (or a workspace's home folder, whose id is the workspace id) and checks access.
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 when the role is too low.
 */
export function* requireFolder(q: Sql, actor: Actor, folderId: string, min: Role, action = 'this operation'): Query<FolderAccess> {
  const row = yield* q.get<{ id: string; workspaceId: string; name: string; role: Role | null }>(
    `SELECT f.id, f.workspace_id AS "workspaceId", f.name, m.role
       FROM folders f LEFT JOIN workspace_members m ON m.workspace_id = f.workspace_id AND m.user_id = ?
      WHERE f.id = ?`,
    [actor.userId, folderId],
  );
  const role = check(row?.role ?? undefined, min, 'folder', folderId, action);
  return { id: row!.id, workspaceId: row!.workspaceId, name: row!.name, role };
}

/** A project row with the caller's role in its workspace. */
export interface ProjectAccess {
  id: string;
  workspaceId: string;
  folderId: string;
  name: string;
  isTemplate: boolean;
  completedAt: number | null;
  role: Role;
  /** The project's change counter (`projects.version`, bumped by the database on every task change). */
  version: number;
}

/**
 * The columns {@link projectAccessFromRow} reads, for queries that join more to
 * `projects p LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?`.
 */
export const PROJECT_ACCESS_COLUMNS =
  'p.id, p.workspace_id AS "workspaceId", p.folder_id AS "folderId", p.name, p.is_template AS "isTemplate", p.completed_at AS "completedAt", p.version, m.role';

/** A row selected with {@link PROJECT_ACCESS_COLUMNS}. */
export interface ProjectAccessRow {
  id: string;
  workspaceId: string;
  folderId: string;
  name: string;
  isTemplate: number;
  completedAt: number | null;
  version: number;
  role: Role | null;
}

/**
 * Applies the project access rules to a row selected with {@link PROJECT_ACCESS_COLUMNS}
 * (undefined: no such project). With `mutation`, a completed project is refused with 409
 * PROJECT_COMPLETED (restore it first).
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 when the role is too low, 409 as described.
 */
export function projectAccessFromRow(
  row: ProjectAccessRow | undefined,
  projectId: string,
  min: Role,
  opts: { mutation?: boolean; action?: string } = {},
): ProjectAccess {
  const role = check(row?.role ?? undefined, min, 'project', projectId, opts.action ?? 'this operation');
  if (opts.mutation && row!.completedAt !== null) {
    throw new ServiceError(409, 'PROJECT_COMPLETED', `project '${projectId}' is completed; restore it before editing`);
  }
  const { id, workspaceId, folderId, name, isTemplate, completedAt, version } = row!;
  return { id, workspaceId, folderId, name, isTemplate: isTemplate === 1, completedAt, role, version };
}

/**
 * Resolves a project and checks access (see {@link projectAccessFromRow}).
 * @throws ServiceError 404, 403 or 409 as described there.
 */
export function* requireProject(
  q: Sql,
  actor: Actor,
  projectId: string,
  min: Role,
  opts: { mutation?: boolean; action?: string } = {},
): Query<ProjectAccess> {
  return projectAccessFromRow(yield* projectAccessRow(q, actor.userId, projectId), projectId, min, opts);
}

/**
 * The project `projectId` with the role of `userId` in its workspace (null when not a member), or
 * undefined for an unknown project; check it with {@link projectAccessFromRow}.
 */
export function projectAccessRow(q: Sql, userId: string, projectId: string): Query<ProjectAccessRow | undefined> {
  return q.get<ProjectAccessRow>(
    `SELECT ${PROJECT_ACCESS_COLUMNS}
       FROM projects p LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?
      WHERE p.id = ?`,
    [userId, projectId],
  );
}

/** Where an agent or media item lives, and the caller's role there. */
export interface WorkspaceItemAccess {
  workspaceId: string;
  folderId: string;
  role: Role;
}

/** The workspace id and caller's role for a row of `table` (agents or media). */
function* requireInWorkspace(
  q: Sql,
  actor: Actor,
  table: 'agents' | 'media',
  kind: string,
  id: string,
  min: Role,
  action: string,
): Query<WorkspaceItemAccess> {
  const row = yield* q.get<{ workspaceId: string; folderId: string; role: Role | null }>(
    `SELECT r.workspace_id AS "workspaceId", r.folder_id AS "folderId", m.role
       FROM ${table} r LEFT JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = ?
      WHERE r.id = ?`,
    [actor.userId, id],
  );
  const role = check(row?.role ?? undefined, min, kind, id, action);
  return { workspaceId: row!.workspaceId, folderId: row!.folderId, role };
}

/**
 * Checks access to an agent.
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 when the role is too low.
 */
export function requireAgent(q: Sql, actor: Actor, agentId: string, min: Role, action = 'this operation'): Query<WorkspaceItemAccess> {
  return requireInWorkspace(q, actor, 'agents', 'agent', agentId, min, action);
}

/**
 * Checks access to a media item.
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 when the role is too low.
 */
export function requireMedia(q: Sql, actor: Actor, mediaId: string, min: Role, action = 'this operation'): Query<WorkspaceItemAccess> {
  return requireInWorkspace(q, actor, 'media', 'media', mediaId, min, action);
}

/**
 * Refuses OAuth access tokens where credentials or access themselves are managed (docs/oauth.md
 * "Threat model"): a third-party app must not mint itself wider or longer access. Routes use it
 * through their `config.firstParty` flag (auth/hook.ts); services call it where the answer
 * depends on the request's content (automations with inbound URLs).
 * @throws ServiceError 403 FORBIDDEN, `details.reason: oauth_token_not_allowed`.
 */
export function requireFirstPartyCredential(actor: Actor, action: string): void {
  if (actor.oauthClientId !== undefined) {
    throw new ServiceError(403, 'FORBIDDEN', `${action} needs a session or a personal access token; OAuth access tokens cannot do it`, {
      field: 'authorization',
      reason: 'oauth_token_not_allowed',
    });
  }
}
