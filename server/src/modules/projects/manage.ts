import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Query, Sql } from '../../platform/db/query';
import { requireFolder, requireProject } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest } from '../../errors';
import type { Services } from '../../services';
import { loadProject, type Project } from './service';
import {
  folderParams,
  folderPatchBody,
  folderResponses,
  projectParams,
  projectPatchBody,
  projectResponses,
  type ProjectPatch,
} from './schemas';

/** The columns of a folder these functions read. */
interface FolderRow {
  workspaceId: string;
  parentId: string | null;
}

/**
 * Renames a project and/or moves it to another folder of its workspace (Collaborator; also for a
 * completed project or a template).
 * @throws ServiceError 404 (project unknown or outside the caller's workspaces), 403, 400
 *   `folderId` `not_found` (a folder the caller cannot reach or of another workspace).
 */
export function updateProject(svc: Services, actor: Actor, projectId: string, patch: ProjectPatch, q: Sql = svc.store.sql): Query<Project> {
  return q.transaction(function* (tx) {
    const project = yield* requireProject(tx, actor, projectId, 'Collaborator', { action: 'renaming or moving a project' });
    if (patch.folderId !== undefined) {
      const row = yield* tx.get<Pick<FolderRow, 'workspaceId'>>('SELECT workspace_id AS "workspaceId" FROM folders WHERE id = ?', [
        patch.folderId,
      ]);
      if (!row || row.workspaceId !== project.workspaceId)
        throw badRequest('folderId', 'not_found', `folder '${patch.folderId}' is not a folder of this project's workspace`);
      yield* tx.run('UPDATE projects SET folder_id = ? WHERE id = ?', [patch.folderId, projectId]);
    }
    if (patch.name !== undefined) yield* tx.run('UPDATE projects SET name = ? WHERE id = ?', [patch.name, projectId]);
    return yield* loadProject(tx, projectId);
  });
}

/**
 * Renames a folder (Collaborator). The home folder (its id is the workspace id) keeps its name.
 * @throws ServiceError 404, 403, 400 `folderId` `home_folder`.
 */
export function renameFolder(svc: Services, actor: Actor, folderId: string, name: string, q: Sql = svc.store.sql) {
  return q.transaction(function* (tx) {
    const folder = yield* requireFolder(tx, actor, folderId, 'Collaborator', 'renaming a folder');
    if (folder.id === folder.workspaceId) throw badRequest('folderId', 'home_folder', 'the home folder cannot be renamed');
    yield* tx.run('UPDATE folders SET name = ? WHERE id = ?', [name, folderId]);
    const row = (yield* tx.get<Pick<FolderRow, 'parentId'>>('SELECT parent_id AS "parentId" FROM folders WHERE id = ?', [folderId]))!;
    return { id: folderId, name, workspaceId: folder.workspaceId, parentId: row.parentId, isHome: false };
  });
}

/** Renaming and moving projects, renaming folders (docs "API", "Projects"). */
export const projectManageRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  app.patch(
    '/projects/:projectId',
    {
      schema: {
        tags: ['projects'],
        summary: 'Rename a project or move it to another folder of its workspace',
        params: projectParams,
        body: projectPatchBody,
        response: projectResponses,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(updateProject(svc, request.actor, request.params.projectId, request.body)) }),
  );
  app.patch(
    '/folders/:folderId',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Rename a folder',
        params: folderParams,
        body: folderPatchBody,
        response: folderResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(renameFolder(svc, request.actor, request.params.folderId, request.body.name)),
    }),
  );
};
