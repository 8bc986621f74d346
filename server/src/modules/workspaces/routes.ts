import type { FastifyPluginAsync } from 'fastify';
import { addWorkspace, changeDisplayName, listWorkspacesOf, renameWorkspace } from './service';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MePatchBody, WorkspaceNameBody, WorkspaceParams, meResponses, workspaceResponses, workspacesResponses } from './schemas';

/**
 * Discovery and the caller's own things (docs "Workspaces, folders and the caller"): the caller
 * (`GET`/`PATCH /me`) and their workspaces (list, create, rename); folders are in modules/folders.
 */
export const workspacesRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const { store } = svc;

  app.get('/me', { schema: { tags: ['workspaces'], summary: 'The authenticated account', response: meResponses } }, async (request) => {
    const { userId, handle, displayName, plan, rateTier, verified } = request.actor;
    return { ok: true, item: { id: userId, handle, displayName, plan, rateTier, verified } };
  });

  app.patch(
    '/me',
    { schema: { tags: ['workspaces'], summary: 'Change my display name', body: MePatchBody, response: meResponses } },
    async (request) => {
      const { userId, handle, plan, rateTier, verified } = request.actor;
      const displayName = await store.run(changeDisplayName(request.actor, request.body.displayName, store.sql));
      // This process's cached token lookups carry the old name (other processes drop theirs on the notification).
      app.meter.forgetCachedTokens();
      return { ok: true, item: { id: userId, handle, displayName, plan, rateTier, verified } };
    },
  );

  app.get(
    '/workspaces',
    { schema: { tags: ['workspaces'], summary: "The caller's workspaces", response: workspacesResponses } },
    async (request) => ({ ok: true, items: await store.run(listWorkspacesOf(store.sql, request.actor.userId)) }),
  );

  app.post(
    '/workspaces',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Create a workspace; the caller becomes its Owner',
        body: WorkspaceNameBody,
        response: workspaceResponses,
      },
    },
    async (request) => ({ ok: true, item: await store.run(addWorkspace(svc, request.actor, request.body.name)) }),
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Owners: rename a workspace',
        params: WorkspaceParams,
        body: WorkspaceNameBody,
        response: workspaceResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await store.run(renameWorkspace(svc, request.actor, request.params.workspaceId, request.body.name)),
    }),
  );
};
