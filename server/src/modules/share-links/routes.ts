import type { FastifyPluginAsync } from 'fastify';
import { disableShareLink, enableShareLink, getShareLink } from './service';
import { itemEnvelope, okOnly, params, responses } from '../../http/schemas';

const shareLink = {
  type: 'object',
  required: ['checkUrl', 'editUrl', 'viewUrl'],
  properties: {
    checkUrl: { type: 'string', format: 'uri' },
    editUrl: { type: 'string', format: 'uri' },
    viewUrl: { type: 'string', format: 'uri' },
  },
} as const;

const schema = { tags: ['projects'], params: params('projectId'), response: responses(itemEnvelope(shareLink)) };

/** `GET`'s answer: the link, or `item: null` while none is enabled (as the real service answers). */
const maybeShareLink = {
  tags: ['projects'],
  params: params('projectId'),
  response: responses(itemEnvelope({ ...shareLink, nullable: true, description: 'null while the share link is not enabled' })),
};

/** A project's share link (README "Projects, templates, share links and custom fields", "Share links"). */
export const shareLinkRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/shareLink',
    { schema: { ...maybeShareLink, summary: "A project's share URLs (item null until enabled)" } },
    async (request) => ({ ok: true, item: await svc.store.run(getShareLink(svc, request.actor, request.params.projectId)) }),
  );

  app.put<{ Params: { projectId: string } }>(
    '/projects/:projectId/shareLink',
    { schema: { ...schema, summary: 'Enable the share link (idempotent)' } },
    async (request) => ({ ok: true, item: await svc.store.run(enableShareLink(svc, request.actor, request.params.projectId)) }),
  );

  app.delete<{ Params: { projectId: string } }>(
    '/projects/:projectId/shareLink',
    {
      schema: {
        tags: ['projects'],
        params: params('projectId'),
        response: responses(okOnly),
        summary: 'Disable the share link: its URLs stop working (idempotent)',
      },
    },
    async (request) => {
      await svc.store.run(disableShareLink(svc, request.actor, request.params.projectId));
      return { ok: true };
    },
  );
};
