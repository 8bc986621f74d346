import type { FastifyPluginAsync } from 'fastify';
import { listWorkspacesOf } from './service';
import { itemEnvelope, itemsEnvelope, responses } from '../../http/schemas';

const workspace = {
  type: 'object',
  required: ['id', 'name', 'role'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
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

/** Discovery: the caller and their workspaces (README "API notes"); folders are in modules/folders. */
export const workspacesRoutes: FastifyPluginAsync = async (app) => {
  const { store } = app.services;

  app.get(
    '/me',
    { schema: { tags: ['workspaces'], summary: 'The authenticated account', response: responses(itemEnvelope(me)) } },
    async (request) => {
      const { userId, handle, displayName, plan, rateTier, verified } = request.actor;
      return { ok: true, item: { id: userId, handle, displayName, plan, rateTier, verified } };
    },
  );

  app.get(
    '/workspaces',
    { schema: { tags: ['workspaces'], summary: "The caller's workspaces", response: responses(itemsEnvelope(workspace)) } },
    async (request) => ({ ok: true, items: await store.run(listWorkspacesOf(store.sql, request.actor.userId)) }),
  );
};
