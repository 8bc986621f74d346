import type { Dialect, Query, Sql } from '../../platform/db/query';
import { likeClause, likeContains } from '../../platform/db/like';
import { requireFolder, requireProject, requireWorkspace, type FolderAccess } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { notFound } from '../../errors';
import { appendEvent } from '../events/outbox';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow, type PageRequest } from '../../platform/paging';
export type { PageRequest } from '../../platform/paging';
import { raiseTaskAddedForProject } from '../tasks/bulk-events';
import { insertImportedTasks, parseProjectContent, type ContentType } from './markdown-import';
import { PROJECT_COLUMNS as COLUMNS, toProject, type Project, type ProjectRow } from './item';

export type { Project } from './item';

/**
 * Projects (spec section 4.2, the folder lists of 4.3, `GET /api/v1/me/projects`;
 * README "Projects, templates, share links and custom fields"). Copy and from-template live in `project-copy.ts`, share links in
 * `share-links.ts`, custom fields in `fields.ts`.
 */

/** Loads a project by id without access checks (callers check first). @throws ServiceError 404. */
export function* loadProject(q: Sql, projectId: string): Query<Project> {
  const row = yield* q.get<ProjectRow>(`SELECT ${COLUMNS} FROM projects p WHERE p.id = ?`, [projectId]);
  if (!row) throw notFound('project', projectId);
  return toProject(row);
}

/**
 * `GET /api/v1/projects/{projectId}` (Viewer).
 * @throws ServiceError 404 when unknown or outside the caller's workspaces.
 */
export function* getProject(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<Project> {
  yield* requireProject(q, actor, projectId, 'Viewer');
  return yield* loadProject(q, projectId);
}

/**
 * `GET /api/v1/projects/{projectId}` (Viewer): the project, recording that the caller viewed it
 * now (`project_views`, the order `viewed-desc`/`viewed-asc` of {@link listMyProjects}).
 * @throws ServiceError 404 when unknown or outside the caller's workspaces.
 */
export function* viewProject(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<Project> {
  return yield* q.transaction(function* (tx) {
    const project = yield* getProject(svc, actor, projectId, tx);
    yield* tx.run(
      `INSERT INTO project_views (user_id, project_id, viewed_at) VALUES (?, ?, ?)
       ON CONFLICT (user_id, project_id) DO UPDATE SET viewed_at = excluded.viewed_at`,
      [actor.userId, projectId, svc.clock.now()],
    );
    return project;
  });
}

/** What {@link insertProject} needs besides the target folder. */
export interface NewProject {
  name: string;
  isTemplate: boolean;
}

/**
 * Inserts an empty project into `folder` and raises `project.created`
 * (`{projectId, projectTitle, projectLink, folderId, createdBy}`). Call inside the transaction
 * that also fills the project, with its handle `q`. Shared by create, copy and from-template.
 */
export function* insertProject(
  q: Sql,
  svc: Services,
  actor: Actor,
  folder: Pick<FolderAccess, 'id' | 'workspaceId'>,
  input: NewProject,
  now: number,
): Query<Project> {
  const id = newId();
  yield* q.run(
    `INSERT INTO projects (id, workspace_id, folder_id, name, is_template, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, folder.workspaceId, folder.id, input.name, input.isTemplate ? 1 : 0, actor.userId, now, now],
  );
  yield* appendEvent(
    q,
    {
      type: 'project.created',
      workspaceId: folder.workspaceId,
      payload: {
        projectId: id,
        projectTitle: input.name,
        projectLink: svc.links.project(id),
        folderId: folder.id,
        createdBy: actor.handle,
      },
      depth: actor.depth,
      causedBy: actor.cause,
    },
    now,
  );
  return yield* loadProject(q, id);
}

/** Body of the two project-create endpoints. */
export interface CreateProjectInput {
  contentType: ContentType;
  content: string;
  /** Create the project as a template (default false). */
  isTemplate?: boolean;
}

/**
 * Creates a project from content in the folder `resolve` checks and returns. `resolve` runs
 * twice: once before the content is parsed (a caller without the role learns nothing from
 * content errors), and again inside the transaction.
 */
function* createIn(
  q: Sql,
  svc: Services,
  actor: Actor,
  resolve: (q: Sql) => Query<Pick<FolderAccess, 'id' | 'workspaceId'>>,
  input: CreateProjectInput,
): Query<Project> {
  yield* resolve(q); // access first: a caller without the role learns nothing from content errors
  const parsed = parseProjectContent(input.contentType, input.content);
  return yield* q.transaction(function* (tx) {
    const folder = yield* resolve(tx);
    const now = svc.clock.now();
    const project = yield* insertProject(tx, svc, actor, folder, { name: parsed.name, isTemplate: input.isTemplate === true }, now);
    yield* insertImportedTasks(tx, project.id, parsed.tasks, { userId: actor.userId, now, contentType: input.contentType });
    yield* raiseTaskAddedForProject(tx, svc, actor, project, now);
    return project;
  });
}

/**
 * `POST /api/v1/projects` (Collaborator on the folder's workspace): creates a project from
 * markdown or plain-text content (rules in `markdown-import.ts`) and raises `project.created`.
 * @throws ServiceError 404 unknown folder, 403 role too low, 400 content limits.
 */
export function createProject(
  svc: Services,
  actor: Actor,
  folderId: string,
  input: CreateProjectInput,
  q: Sql = svc.store.sql,
): Query<Project> {
  return createIn(q, svc, actor, (h) => requireFolder(h, actor, folderId, 'Collaborator', 'creating a project'), input);
}

/**
 * `POST /api/v1/workspaces/{workspaceId}/projects`: like {@link createProject} into the
 * workspace's home folder (whose id is the workspace id).
 * @throws ServiceError 404 unknown workspace, 403 role too low, 400 content limits.
 */
export function createWorkspaceProject(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  input: CreateProjectInput,
  q: Sql = svc.store.sql,
): Query<Project> {
  return createIn(
    q,
    svc,
    actor,
    function* (h) {
      yield* requireWorkspace(h, actor, workspaceId, 'Collaborator', 'creating a project');
      return { id: workspaceId, workspaceId };
    },
    input,
  );
}

/**
 * `POST /api/v1/projects/{projectId}/complete` (Collaborator): records completion time and
 * user. Idempotent; raises `project.completed` (`{projectId, projectTitle, projectLink,
 * completedBy, completedAt}`) only on the transition.
 * @throws ServiceError 404 / 403.
 */
export function completeProject(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<Project> {
  return q.transaction(function* (tx) {
    const access = yield* requireProject(tx, actor, projectId, 'Collaborator', { action: 'completing a project' });
    if (access.completedAt === null) {
      const now = svc.clock.now();
      yield* tx.run('UPDATE projects SET completed_at = ?, completed_by = ?, updated_at = ? WHERE id = ?', [
        now,
        actor.userId,
        now,
        projectId,
      ]);
      yield* appendEvent(
        tx,
        {
          type: 'project.completed',
          workspaceId: access.workspaceId,
          payload: {
            projectId,
            projectTitle: access.name,
            projectLink: svc.links.project(projectId),
            completedBy: actor.handle,
            completedAt: new Date(now).toISOString(),
          },
          depth: actor.depth,
          causedBy: actor.cause,
        },
        now,
      );
    }
    return yield* loadProject(tx, projectId);
  });
}

/**
 * `POST /api/v1/projects/{projectId}/restore` (Collaborator): clears the completion so the
 * project accepts edits again. Idempotent; raises no event.
 * @throws ServiceError 404 / 403.
 */
export function restoreProject(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<Project> {
  return q.transaction(function* (tx) {
    const access = yield* requireProject(tx, actor, projectId, 'Collaborator', { action: 'restoring a project' });
    if (access.completedAt !== null) {
      yield* tx.run('UPDATE projects SET completed_at = NULL, completed_by = NULL, updated_at = ? WHERE id = ?', [
        svc.clock.now(),
        projectId,
      ]);
    }
    return yield* loadProject(tx, projectId);
  });
}

/**
 * `DELETE /api/v1/projects/{projectId}` (Collaborator; an extension: the spec has no delete):
 * removes the project with its tasks, add-ons, comments, fields and share link, and drops it from
 * agents' knowledge. Completed projects and templates can be deleted too.
 * @throws ServiceError 404 unknown project (or outside the caller's workspaces), 403 below Collaborator.
 */
export function deleteProject(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<void> {
  return q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { action: 'deleting a project' });
    yield* tx.run('DELETE FROM projects WHERE id = ?', [projectId]);
  });
}

/**
 * The ORDER BY of the project lists, oldest first: projects made in the same millisecond stay in
 * the order they were added on SQLite (`rowid`); PostgreSQL rows have no insertion order, so the
 * id breaks such ties there.
 */
const OLDEST_FIRST: Readonly<Record<Dialect, string>> = {
  sqlite: 'ORDER BY p.created_at, p.rowid',
  postgres: 'ORDER BY p.created_at, p.id',
};

/**
 * `GET /api/v1/folders/{folderId}/projects` (Viewer): the folder's projects (templates
 * excluded), oldest first; all of them, or one page when `page` is given.
 * @throws ServiceError 404 unknown folder.
 */
export function* listFolderProjects(
  svc: Services,
  actor: Actor,
  folderId: string,
  page?: PageRequest,
  search?: string,
  q: Sql = svc.store.sql,
): Query<Project[]> {
  yield* requireFolder(q, actor, folderId, 'Viewer');
  const named = nameFilter(q.dialect, search);
  const window = page ? ' LIMIT ? OFFSET ?' : '';
  const rows = yield* q.all<ProjectRow>(
    `SELECT ${COLUMNS} FROM projects p WHERE p.folder_id = ? AND p.is_template = 0 ${named.sql} ${OLDEST_FIRST[q.dialect]}${window}`,
    page ? [folderId, ...named.params, ...pageWindow(page)] : [folderId, ...named.params],
  );
  return rows.map(toProject);
}

/** The `AND p.name LIKE …` condition of a `search` filter (case-insensitive substring), or nothing. */
function nameFilter(dialect: Dialect, search: string | undefined): { sql: string; params: string[] } {
  return search === undefined ? { sql: '', params: [] } : { sql: `AND ${likeClause(dialect, 'p.name')}`, params: [likeContains(search)] };
}

/**
 * `GET /api/v1/folders/{folderId}/project-templates` (Viewer): the folder's templates, oldest first.
 * @throws ServiceError 404 unknown folder.
 */
export function* listFolderTemplates(
  svc: Services,
  actor: Actor,
  folderId: string,
  page: PageRequest,
  q: Sql = svc.store.sql,
): Query<Project[]> {
  yield* requireFolder(q, actor, folderId, 'Viewer');
  const rows = yield* q.all<ProjectRow>(
    `SELECT ${COLUMNS} FROM projects p WHERE p.folder_id = ? AND p.is_template = 1 ${OLDEST_FIRST[q.dialect]} LIMIT ? OFFSET ?`,
    [folderId, ...pageWindow(page)],
  );
  return rows.map(toProject);
}

/** Orders of `GET /api/v1/me/projects` (the real service's values). */
export const MY_PROJECTS_SORTS = ['viewed-desc', 'viewed-asc'] as const;
/** One of {@link MY_PROJECTS_SORTS}. */
export type MyProjectsSort = (typeof MY_PROJECTS_SORTS)[number];

/**
 * The ORDER BY of each {@link MyProjectsSort}, `v` being the caller's `project_views` row.
 * `viewed-desc`: last viewed by the caller first; projects the caller never opened after them,
 * newest first. `viewed-asc` is its exact reverse (never opened, oldest first; then the least
 * recently viewed). Ties in time fall back to insertion order (SQLite `rowid`) or the id (PostgreSQL).
 */
const MY_PROJECTS_ORDER: Readonly<Record<MyProjectsSort, Readonly<Record<Dialect, string>>>> = {
  'viewed-desc': {
    sqlite: 'ORDER BY v.viewed_at DESC NULLS LAST, p.created_at DESC, p.rowid DESC',
    postgres: 'ORDER BY v.viewed_at DESC NULLS LAST, p.created_at DESC, p.id DESC',
  },
  'viewed-asc': {
    sqlite: 'ORDER BY v.viewed_at ASC NULLS FIRST, p.created_at ASC, p.rowid ASC',
    postgres: 'ORDER BY v.viewed_at ASC NULLS FIRST, p.created_at ASC, p.id ASC',
  },
};

/**
 * `GET /api/v1/me/projects`: the projects (templates excluded) of every workspace the caller
 * belongs to, in `sort` order (default `viewed-desc`): by when the caller last opened each with
 * `GET /projects/{id}` (see {@link viewProject}).
 */
export function* listMyProjects(
  svc: Services,
  actor: Actor,
  page: PageRequest,
  search?: string,
  sort: MyProjectsSort = 'viewed-desc',
  q: Sql = svc.store.sql,
): Query<Project[]> {
  const named = nameFilter(q.dialect, search);
  const rows = yield* q.all<ProjectRow>(
    `SELECT ${COLUMNS} FROM projects p JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?
       LEFT JOIN project_views v ON v.user_id = m.user_id AND v.project_id = p.id
      WHERE p.is_template = 0 ${named.sql} ${MY_PROJECTS_ORDER[sort][q.dialect]} LIMIT ? OFFSET ?`,
    [actor.userId, ...named.params, ...pageWindow(page)],
  );
  return rows.map(toProject);
}

/** A person with access to a project (spec section 4.2 members). */
export interface ProjectMember {
  handle: string;
  displayName: string;
  /**
   * True when the person was added to the project explicitly (`PUT /projects/{id}/members`:
   * assigned by someone or joined themselves); every workspace member can see the project either way.
   */
  projectMember: boolean;
}

/**
 * `GET /api/v1/projects/{projectId}/members` (Viewer): everyone with access to the project (the
 * members of its workspace) by handle, each flagged when explicitly a member of the project.
 * @throws ServiceError 404 / 403; 400 for a page out of range.
 */
export function* listProjectMembers(
  svc: Services,
  actor: Actor,
  projectId: string,
  page: PageRequest,
  q: Sql = svc.store.sql,
): Query<ProjectMember[]> {
  const access = yield* requireProject(q, actor, projectId, 'Viewer');
  const rows = yield* q.all<{ handle: string; displayName: string; projectMember: number }>(
    `SELECT u.handle, u.display_name AS "displayName", CASE WHEN pm.user_id IS NOT NULL THEN 1 ELSE 0 END AS "projectMember"
       FROM workspace_members m
       JOIN users u ON u.id = m.user_id
       LEFT JOIN project_members pm ON pm.project_id = ? AND pm.user_id = m.user_id
      WHERE m.workspace_id = ?
      ORDER BY lower(u.handle) LIMIT ? OFFSET ?`,
    [projectId, access.workspaceId, ...pageWindow(page)],
  );
  return rows.map((row) => ({ handle: row.handle, displayName: row.displayName, projectMember: row.projectMember === 1 }));
}
