import { requireProject } from '../auth/access';
import type { Actor } from '../auth/tokens';
import { transaction } from '../db/connection';
import { sql } from '../db/statements';
import { ServiceError } from '../errors';
import { newSecret } from '../ids';
import type { Services } from '../services';

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

function tokenOf(svc: Services, projectId: string): string | null {
  return sql<[string], { share_token: string | null }>(svc.db, 'SELECT share_token FROM projects WHERE id = ?').get(projectId)!.share_token;
}

/**
 * `PUT /api/v1/projects/{projectId}/shareLink` (Collaborator): enables the share link,
 * creating its token on the first call; later calls return the same URLs.
 * @throws ServiceError 404, 403, 409 PROJECT_COMPLETED.
 */
export function enableShareLink(svc: Services, actor: Actor, projectId: string): ShareLink {
  return transaction(svc.db, () => {
    requireProject(svc.db, actor, projectId, 'Collaborator', { mutation: true, action: 'enabling the share link' });
    let token = tokenOf(svc, projectId);
    if (token === null) {
      token = newSecret(24);
      sql(svc.db, 'UPDATE projects SET share_token = ?, updated_at = ? WHERE id = ?').run(token, svc.clock.now(), projectId);
    }
    return toLink(svc, token);
  });
}

/**
 * `GET /api/v1/projects/{projectId}/shareLink` (Collaborator): the share URLs.
 * @throws ServiceError 404 (also when the link is not enabled), 403.
 */
export function getShareLink(svc: Services, actor: Actor, projectId: string): ShareLink {
  requireProject(svc.db, actor, projectId, 'Collaborator', { action: 'reading the share link' });
  const token = tokenOf(svc, projectId);
  if (token === null) throw new ServiceError(404, 'NOT_FOUND', 'share link not enabled');
  return toLink(svc, token);
}
