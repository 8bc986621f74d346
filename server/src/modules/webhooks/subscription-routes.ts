import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { listSubscriptions, subscribeWebhook, unsubscribeWebhook } from './subscriptions';
import { SubscribeBody, UnsubscribeBody, deletedResponses, subscribeResponses, subscriptionsResponses } from './schemas';

/** Legacy unsigned subscriptions (spec sections 4.6, 9.3). Deprecated: use POST /api/v2/webhooks. */
export const subscriptionRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const tags = ['webhooks'];

  app.post(
    '/subscribeWebhook',
    {
      schema: {
        tags,
        deprecated: true,
        summary: 'Deprecated: subscribe a URL to one event, unsigned, account-wide',
        description:
          'Register the same URL with POST /api/v2/webhooks, then unsubscribe. Needs a Pro-or-above plan on a verified account (402).',
        body: SubscribeBody,
        response: subscribeResponses,
      },
    },
    async (request) => ({ ok: true, ...(await svc.store.run(subscribeWebhook(svc, request.actor, request.body))) }),
  );

  app.get(
    '/subscriptions',
    {
      schema: {
        tags,
        summary: "The caller's legacy subscriptions (deprecated kind), oldest first",
        description: 'Lists what POST /subscribeWebhook created, so each can be moved to a signed webhook and unsubscribed. Any plan.',
        response: subscriptionsResponses,
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listSubscriptions(svc, request.actor)) }),
  );

  app.post(
    '/unsubscribeWebhook',
    {
      schema: {
        tags,
        deprecated: true,
        summary: 'Deprecated: remove a legacy subscription (always allowed)',
        body: UnsubscribeBody,
        response: deletedResponses,
      },
    },
    async (request) => {
      await svc.store.run(unsubscribeWebhook(svc, request.actor, request.body.hookId));
      return { ok: true, deleted: true };
    },
  );
};
