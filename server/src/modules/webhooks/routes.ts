import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, registerWebhook } from './service';
import {
  DeliveriesQuery,
  RegisterWebhookBody,
  deletedResponses,
  deliveriesResponses,
  registerResponses,
  webhookParams,
  webhookResponses,
  webhooksResponses,
} from './schemas';

/** `/api/v2/webhooks` (spec section 4.6; README "Events and webhooks"). */
export const webhookRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const tags = ['webhooks'];

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Register a signed webhook (or replace the registration of the same URL)',
        description: 'Needs a Pro-or-above plan on a verified account (402). The secret is returned only here.',
        body: RegisterWebhookBody,
        response: registerResponses,
      },
    },
    async (request) => ({ ok: true, ...(await svc.store.run(registerWebhook(svc, request.actor, request.body))) }),
  );

  app.get('/webhooks', { schema: { tags, summary: "The caller's signed webhooks", response: webhooksResponses } }, async (request) => ({
    ok: true,
    items: await svc.store.run(listWebhooks(svc, request.actor)),
  }));

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'One signed webhook (id = URL-encoded target URL), without its secret',
        params: webhookParams,
        response: webhookResponses,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(getWebhook(svc, request.actor, request.params.id)) }),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a signed webhook (always allowed, whatever the plan)',
        params: webhookParams,
        response: deletedResponses,
      },
    },
    async (request) => {
      await svc.store.run(deleteWebhook(svc, request.actor, request.params.id));
      return { ok: true, deleted: true };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery log of a signed webhook, newest first: attempts, status codes, next retry',
        params: webhookParams,
        querystring: DeliveriesQuery,
        response: deliveriesResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listWebhookDeliveries(svc, request.actor, request.params.id, request.query)),
    }),
  );
};
