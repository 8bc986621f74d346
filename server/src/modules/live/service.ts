import { requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { presentPeople, type PresentPerson } from './presence';

/**
 * Checks that `actor` may watch project `projectId` on the live stream (`GET /live?projectId=`):
 * whoever may read the project (Viewer). @throws ServiceError 404 NOT_FOUND (unknown project or
 * outside the caller's workspaces), as reading the project does.
 */
export function* requireWatch(q: Sql, actor: Actor, projectId: string): Query<void> {
  yield* requireProject(q, actor, projectId, 'Viewer');
}

/**
 * The people present on project `projectId` (docs "API", "Presence"; `GET
 * /projects/{projectId}/presence`): those with a stream seen at or after `since` (ms epoch), by
 * handle and display name, in the order they arrived. @throws ServiceError as {@link requireWatch}.
 */
export function* projectPresence(q: Sql, actor: Actor, projectId: string, since: number): Query<PresentPerson[]> {
  yield* requireWatch(q, actor, projectId);
  const people = (yield* presentPeople(q, [projectId], since)).get(projectId) ?? [];
  return people.map(({ handle, displayName }) => ({ handle, displayName }));
}
