import { runSync } from '../../platform/db/query';
import { transaction, type Db } from '../../platform/db/connection';
import { requireWorkspace } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import type { Services } from '../../services';
import { sql } from '../../platform/db/statements';
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
 * @throws ServiceError 403/404 from the workspace access check.
 */
export function listFolders(svc: Services, actor: Actor, workspaceId: string): Folder[] {
  runSync(requireWorkspace(svc.db.handle, actor, workspaceId, 'Viewer'));
  return sql<[string], FolderRow>(
    svc.db,
    `SELECT id, name, workspace_id, parent_id FROM folders WHERE workspace_id = ?
      ORDER BY (id = workspace_id) DESC, name COLLATE NOCASE, id`,
  )
    .all(workspaceId)
    .map(toFolder);
}

/**
 * Creates a folder in a workspace (Collaborator), under `parentId` (default: the home folder).
 * @throws ServiceError 400 when the parent is not a folder of that workspace; 403/404 from the access check.
 */
export function addFolder(svc: Services, actor: Actor, workspaceId: string, input: { name: string; parentId?: string }): Folder {
  runSync(requireWorkspace(svc.db.handle, actor, workspaceId, 'Collaborator', 'creating a folder'));
  return transaction(svc.db, () => createFolder(svc.db, workspaceId, input.name, input.parentId, svc.clock.now()));
}

/**
 * Creates a folder in a workspace, under `parentId` (default: the home folder). No access
 * check: for {@link addFolder} and for callers that checked already. Call inside a transaction.
 * @throws ServiceError 400 when the parent is not a folder of that workspace.
 */
export function createFolder(db: Db, workspaceId: string, name: string, parentId: string | undefined, now: number): Folder {
  const parent = parentId ?? workspaceId;
  const ok = sql(db, 'SELECT 1 FROM folders WHERE id = ? AND workspace_id = ?').get(parent, workspaceId);
  if (!ok) throw badRequest('parentId', 'not_found', `folder '${parent}' is not in workspace '${workspaceId}'`);
  const id = newId();
  sql(db, 'INSERT INTO folders (id, workspace_id, parent_id, name, created_at) VALUES (?, ?, ?, ?, ?)').run(id, workspaceId, parent, name, now);
  return { id, name, workspaceId, parentId: parent, isHome: false };
}
