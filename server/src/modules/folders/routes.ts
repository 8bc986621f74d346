import type { FastifyPluginAsync } from 'fastify';
import { addFolder, listFolders } from './service';
import { itemEnvelope, itemsEnvelope, params, responses, singleLine } from '../../http/schemas';

const folder = {
  type: 'object',
  required: ['id', 'name', 'workspaceId', 'parentId', 'isHome'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    workspaceId: { type: 'string' },
    parentId: { type: 'string', nullable: true },
    isHome: { type: 'boolean' },
  },
} as const;

/** A workspace's folders: list (home folder first) and create (docs "API notes"). */
export const foldersRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { workspaceId: string } }>(
    '/workspaces/:workspaceId/folders',
    {
      schema: {
        tags: ['workspaces'],
        summary: "A workspace's folders, home folder first",
        params: params('workspaceId'),
        response: responses(itemsEnvelope(folder)),
      },
    },
    async (request) => {
      return { ok: true, items: await app.services.store.run(listFolders(app.services, request.actor, request.params.workspaceId)) };
    },
  );

  app.post<{ Params: { workspaceId: string }; Body: { name: string; parentId?: string } }>(
    '/workspaces/:workspaceId/folders',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Create a folder',
        params: params('workspaceId'),
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: singleLine(200), parentId: { type: 'string', minLength: 1 } },
        },
        response: responses(itemEnvelope(folder)),
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
