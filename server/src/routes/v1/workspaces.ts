import type { FastifyPluginAsync } from 'fastify';
import { addFolder, listFolders } from '../../domain/folders';
import { listWorkspacesOf } from '../../domain/workspaces';
import { itemEnvelope, itemsEnvelope, params, responses, singleLine } from '../../http/schemas';

const workspace = {
  type: 'object',
  required: ['id', 'name', 'role'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
} as const;
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
const me = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    handle: { type: 'string' },
    displayName: { type: 'string' },
    plan: { type: 'string' },
    rateTier: { type: 'string' },
    verified: { type: 'boolean' },
  },
} as const;

/** Discovery: the caller, their workspaces and the folders inside each (README "API notes"). */
export const workspacesRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.services;

  app.get('/me', { schema: { tags: ['workspaces'], summary: 'The authenticated account', response: responses(itemEnvelope(me)) } }, async (request) => {
    const { userId, handle, displayName, plan, rateTier, verified } = request.actor;
    return { ok: true, item: { id: userId, handle, displayName, plan, rateTier, verified } };
  });

  app.get(
    '/workspaces',
    { schema: { tags: ['workspaces'], summary: "The caller's workspaces", response: responses(itemsEnvelope(workspace)) } },
    async (request) => ({ ok: true, items: listWorkspacesOf(db, request.actor.userId) }),
  );

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
      return { ok: true, items: listFolders(app.services, request.actor, request.params.workspaceId) };
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
      return { ok: true, item: addFolder(app.services, request.actor, request.params.workspaceId, request.body) };
    },
  );
};
