import type { Query, Sql } from '../../platform/db/query';
import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { ServiceError } from '../../errors';
import { newSecret } from '../../platform/ids';
import type { Services } from '../../services';
import { PATH_SEPARATOR } from '../tasks/tree';

/**
 * Project share links (spec section 4.2 `shareLink`; README "Projects, templates, share links and custom fields", "Share links").
 * Enabling gives the project a random token (192 bits) once; the three URLs are capability
 * links built from the public base URL:
 * `viewUrl` = `/share/<token>/view` (read only), `editUrl` = `/share/<token>/edit`
 * (full editing), `checkUrl` = `/share/<token>/check` (tick tasks off only).
 * Both endpoints need Collaborator: the URLs grant access by themselves, so they are not
 * shown to Viewers and Participants.
 */

/** The three share URLs, absolute. */
export interface ShareLink {
  checkUrl: string;
  editUrl: string;
  viewUrl: string;
}

/** Path (below the public base URL) of one share URL. */
export function sharePath(token: string, mode: 'view' | 'edit' | 'check'): string {
  return `/share/${token}/${mode}`;
}

function toLink(svc: Services, token: string): ShareLink {
  return {
    checkUrl: svc.links.url(sharePath(token, 'check')),
    editUrl: svc.links.url(sharePath(token, 'edit')),
    viewUrl: svc.links.url(sharePath(token, 'view')),
  };
}

function* tokenOf(q: Sql, projectId: string): Query<string | null> {
  const row = yield* q.get<{ share_token: string | null }>('SELECT share_token FROM projects WHERE id = ?', [projectId]);
  return row!.share_token;
}

/**
 * `PUT /api/v1/projects/{projectId}/shareLink` (Collaborator): enables the share link,
 * creating its token on the first call; later calls return the same URLs.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED.
 */
export function* enableShareLink(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<ShareLink> {
  return yield* q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { mutation: true, action: 'enabling the share link' });
    let token = yield* tokenOf(tx, projectId);
    if (token === null) {
      token = newSecret(24);
      yield* tx.run('UPDATE projects SET share_token = ?, updated_at = ? WHERE id = ?', [token, svc.clock.now(), projectId]);
    }
    return toLink(svc, token);
  });
}

/**
 * `GET /api/v1/projects/{projectId}/shareLink` (Collaborator): the share URLs, or `null` while
 * the link is not enabled (the real service's `{ok: true, item: null}`).
 * @throws ServiceError 404 (unknown project or outside the caller's workspaces), 403.
 */
export function* getShareLink(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<ShareLink | null> {
  yield* requireProject(q, actor, projectId, 'Collaborator', { action: 'reading the share link' });
  const token = yield* tokenOf(q, projectId);
  return token === null ? null : toLink(svc, token);
}

/**
 * `DELETE /api/v1/projects/{projectId}/shareLink` (Collaborator; an extension: the spec cannot
 * revoke a link once shared): forgets the token, so the three URLs stop working at once.
 * Enabling again issues new URLs. Idempotent; allowed on completed projects (revoking access is
 * not an edit).
 * @throws ServiceError 404, 403.
 */
export function* disableShareLink(svc: Services, actor: Actor, projectId: string, q: Sql = svc.store.sql): Query<void> {
  yield* q.transaction(function* (tx) {
    yield* requireProject(tx, actor, projectId, 'Collaborator', { action: 'disabling the share link' });
    yield* tx.run('UPDATE projects SET share_token = NULL, updated_at = ? WHERE id = ?', [svc.clock.now(), projectId]);
  });
}

/** The share modes of spec section 4.2's three URLs. */
export const SHARE_MODES = ['view', 'edit', 'check'] as const;
export type ShareMode = (typeof SHARE_MODES)[number];

/** Most tasks a shared view lists; a longer project is cut there and marked `truncated`. */
export const SHARED_VIEW_MAX_TASKS = 5000;

/** What a share URL shows: the project and its tasks in document order, read only. */
export interface SharedProjectView {
  mode: ShareMode;
  project: { name: string; completed: boolean };
  /** `depth` is 0 for blocks, 1 for their subtasks, and so on. */
  tasks: { id: string; text: string; completed: boolean; depth: number }[];
  truncated: boolean;
}

/**
 * The read-only view behind a share URL (`/share/<token>/<mode>`, no account needed: the token
 * is the capability). Every mode shows the same read-only view; editing and ticking tasks off
 * through a share link need the web app, which this service does not include.
 * @throws ServiceError 404 for an unknown or revoked token.
 */
export function* sharedProjectView(svc: Services, token: string, mode: ShareMode, q: Sql = svc.store.sql): Query<SharedProjectView> {
  const project = yield* q.get<{ id: string; name: string; completed_at: number | null }>(
    'SELECT id, name, completed_at FROM projects WHERE share_token = ?',
    [token],
  );
  if (!project) throw new ServiceError(404, 'NOT_FOUND', 'this share link does not exist or was disabled');
  const rows = yield* q.all<{ id: string; text: string; completed: number; path: string }>(
    'SELECT id, text, completed, path FROM tasks WHERE project_id = ? ORDER BY path LIMIT ?',
    [project.id, SHARED_VIEW_MAX_TASKS + 1],
  );
  const truncated = rows.length > SHARED_VIEW_MAX_TASKS;
  return {
    mode,
    project: { name: project.name, completed: project.completed_at !== null },
    tasks: rows.slice(0, SHARED_VIEW_MAX_TASKS).map((r) => ({
      id: r.id,
      text: r.text,
      completed: r.completed === 1,
      depth: r.path.split(PATH_SEPARATOR).length - 1,
    })),
    truncated,
  };
}
