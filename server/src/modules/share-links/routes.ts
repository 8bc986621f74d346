import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { disableShareLink, enableShareLink, getShareLink } from './service';
import { disableResponses, maybeShareLinkResponses, projectParams, shareLinkResponses } from './schemas';

const tags = ['projects'];

/** A project's share link (README "Projects, templates, share links and custom fields", "Share links"). */
export const shareLinkRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId/shareLink',
    {
      schema: {
        tags,
        summary: "A project's share URLs (item null until enabled)",
        params: projectParams,
        response: maybeShareLinkResponses,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(getShareLink(svc, request.actor, request.params.projectId)) }),
  );

  app.put(
    '/projects/:projectId/shareLink',
    { schema: { tags, summary: 'Enable the share link (idempotent)', params: projectParams, response: shareLinkResponses } },
    async (request) => ({ ok: true, item: await svc.store.run(enableShareLink(svc, request.actor, request.params.projectId)) }),
  );

  app.delete(
    '/projects/:projectId/shareLink',
    {
      schema: {
        tags,
        summary: 'Disable the share link: its URLs stop working (idempotent)',
        params: projectParams,
        response: disableResponses,
      },
    },
    async (request) => {
      await svc.store.run(disableShareLink(svc, request.actor, request.params.projectId));
      return { ok: true };
    },
  );
};
