import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { addFolder, listFolders } from './service';
import { CreateFolderBody, folderResponses, foldersResponses, workspaceParams } from './schemas';

/** A workspace's folders: list (home folder first) and create (docs "API notes"). */
export const foldersRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/workspaces/:workspaceId/folders',
    {
      schema: {
        tags: ['workspaces'],
        summary: "A workspace's folders, home folder first",
        params: workspaceParams,
        response: foldersResponses,
      },
    },
    async (request) => {
      return { ok: true, items: await app.services.store.run(listFolders(app.services, request.actor, request.params.workspaceId)) };
    },
  );

  app.post(
    '/workspaces/:workspaceId/folders',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Create a folder',
        params: workspaceParams,
        body: CreateFolderBody,
        response: folderResponses,
      },
    },
    async (request) => {
      return {
        ok: true,
        item: await app.services.store.run(addFolder(app.services, request.actor, request.params.workspaceId, request.body)),
      };
    },
  );
};
