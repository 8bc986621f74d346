import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { rotateInbound } from './inbound-rotation';
import { automationParams, rotateInboundBody, rotationResponses } from './schemas';

/**
 * `POST /api/v1/automations/{automationId}/inbound/rotate` (docs "Automations", "Rotating the URL
 * or token"): Owner, first-party credential, like every change of an inbound URL.
 */
export const inboundRotateRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  app.post(
    '/automations/:automationId/inbound/rotate',
    {
      schema: {
        tags: ['automations'],
        summary: "Rotate a webhook or form automation's bearer token or URL, with an overlap window (Owner)",
        description:
          'Returns the new token or URL once. The former one keeps working for `overlapSeconds` (default one day, at most seven), ' +
          'then calls with it are refused (401 for a token, 404 for a URL). 409 when the automation has no inbound URL, ' +
          'or for `token` when its URL requires none.',
        params: automationParams,
        body: rotateInboundBody,
        response: rotationResponses,
      },
    },
    async (request) => ({ ok: true, item: await rotateInbound(svc, rt, request.actor, request.params.automationId, request.body) }),
  );
};
