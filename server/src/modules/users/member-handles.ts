import type { Query, Sql } from '../../platform/db/query';
import { badRequest } from '../../errors';

/** A workspace member found by handle. */
export interface MemberByHandle {
  id: string;
  handle: string;
  displayName: string;
}

/**
 * Checks a list of handles (field `handles`): every one a non-empty string, none named twice
 * (compared case-insensitively).
 * @throws ServiceError 400 (field `handles`) `invalid_value` or `duplicate`.
 */
export function checkHandleList(handles: readonly unknown[]): asserts handles is readonly string[] {
  const seen = new Set<string>();
  for (const handle of handles) {
    if (typeof handle !== 'string' || handle.length === 0)
      throw badRequest('handles', 'invalid_value', 'every handle must be a non-empty string');
    const key = handle.toLowerCase();
    if (seen.has(key)) throw badRequest('handles', 'duplicate', `'${handle}' is named more than once`);
    seen.add(key);
  }
}

/**
 * The query of {@link membersByHandle} on each store: the handles arrive as one JSON array
 * parameter, unnested with json_each (SQLite, where `users.handle` is COLLATE NOCASE and its
 * index serves the join) or json_array_elements_text (PostgreSQL, matched with lower() to use
 * the `lower(handle)` index).
 */
const MEMBERS_BY_HANDLE = {
  sqlite: `SELECT j.value AS wanted, u.id, u.handle, u.display_name AS "displayName"
             FROM json_each(?) j
             JOIN users u ON u.handle = j.value
             JOIN workspace_members m ON m.user_id = u.id AND m.workspace_id = ?`,
  postgres: `SELECT j.value AS wanted, u.id, u.handle, u.display_name AS "displayName"
               FROM json_array_elements_text(CAST(? AS json)) AS j(value)
               JOIN users u ON lower(u.handle) = lower(j.value)
               JOIN workspace_members m ON m.user_id = u.id AND m.workspace_id = ?`,
} as const;

/**
 * The members of `workspaceId` named by `handles` (matched case-insensitively), in the order of
 * `handles`, loaded with one query. Call after {@link checkHandleList}.
 * @throws ServiceError 400 (field `handles`) `not_a_member` for the first handle that is unknown
 *   or not a member of the workspace.
 */
export function* membersByHandle(q: Sql, workspaceId: string, handles: readonly string[]): Query<MemberByHandle[]> {
  const rows = yield* q.all<MemberByHandle & { wanted: string }>(MEMBERS_BY_HANDLE[q.dialect], [JSON.stringify(handles), workspaceId]);
  const byHandle = new Map(rows.map(({ wanted, ...user }) => [wanted, user]));
  return handles.map((handle) => {
    const user = byHandle.get(handle);
    if (!user) throw badRequest('handles', 'not_a_member', `'${handle}' is not a member of this project's workspace`);
    return user;
  });
}
