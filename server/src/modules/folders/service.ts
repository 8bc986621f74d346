import type { Query, Sql } from '../../platform/db/query';
import { requireWorkspace } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import { badRequest } from '../../errors';
import { newId } from '../../platform/ids';

/** A folder as returned by the API. The home folder's id is the workspace id. */
export interface Folder {
  id: string;
  name: string;
  workspaceId: string;
  parentId: string | null;
  isHome: boolean;
}

interface FolderRow {
  id: string;
  name: string;
  workspace_id: string;
  parent_id: string | null;
}

function toFolder(row: FolderRow): Folder {
  return { id: row.id, name: row.name, workspaceId: row.workspace_id, parentId: row.parent_id, isHome: row.id === row.workspace_id };
}

/**
 * The folders of a workspace: the home folder first, then the others by name (Viewer).
 * `lower(name)` orders as SQLite's NOCASE did (both fold ASCII letters only).
 * @throws ServiceError 403/404 from the workspace access check.
 */
export function* listFolders(svc: Services, actor: Actor, workspaceId: string, q: Sql = svc.store.sql): Query<Folder[]> {
  yield* requireWorkspace(q, actor, workspaceId, 'Viewer');
  const rows = yield* q.all<FolderRow>(
    `SELECT id, name, workspace_id, parent_id FROM folders WHERE workspace_id = ?
      ORDER BY CASE WHEN id = workspace_id THEN 0 ELSE 1 END, lower(name), id`,
    [workspaceId],
  );
  return rows.map(toFolder);
}

/**
 * Creates a folder in a workspace (Collaborator), under `parentId` (default: the home folder).
 * @throws ServiceError 400 when the parent is not a folder of that workspace; 403/404 from the access check.
 */
export function* addFolder(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  input: { name: string; parentId?: string },
  q: Sql = svc.store.sql,
): Query<Folder> {
  yield* requireWorkspace(q, actor, workspaceId, 'Collaborator', 'creating a folder');
  return yield* q.transaction((tx) => createFolder(tx, workspaceId, input.name, input.parentId, svc.clock.now()));
}

/**
 * Creates a folder in a workspace, under `parentId` (default: the home folder). No access
 * check: for {@link addFolder} and for callers that checked already. Call inside a transaction,
 * with its handle.
 * @throws ServiceError 400 when the parent is not a folder of that workspace.
 */
export function* createFolder(q: Sql, workspaceId: string, name: string, parentId: string | undefined, now: number): Query<Folder> {
  const parent = parentId ?? workspaceId;
  const ok = yield* q.get('SELECT 1 AS found FROM folders WHERE id = ? AND workspace_id = ?', [parent, workspaceId]);
  if (!ok) throw badRequest('parentId', 'not_found', `folder '${parent}' is not in workspace '${workspaceId}'`);
  const id = newId();
  yield* q.run('INSERT INTO folders (id, workspace_id, parent_id, name, created_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    workspaceId,
    parent,
    name,
    now,
  ]);
  return { id, name, workspaceId, parentId: parent, isHome: false };
}
