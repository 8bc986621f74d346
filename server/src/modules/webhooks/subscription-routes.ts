import type { FastifyPluginAsync } from 'fastify';
import { listSubscriptions, subscribeWebhook, unsubscribeWebhook, type SubscriptionInput } from './subscriptions';
import { MAX_TARGET_URL_LENGTH, WEBHOOK_EVENT_TYPES } from './service';
import { itemsEnvelope, responses } from '../../http/schemas';

/** Legacy unsigned subscriptions (spec sections 4.6, 9.3). Deprecated: use POST /api/v2/webhooks. */
export const subscriptionRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const tags = ['webhooks'];

  app.post<{ Body: SubscriptionInput }>(
    '/subscribeWebhook',
    {
      schema: {
        tags,
        deprecated: true,
        summary: 'Deprecated: subscribe a URL to one event, unsigned, account-wide',
        description:
          'Register the same URL with POST /api/v2/webhooks, then unsubscribe. Needs a Pro-or-above plan on a verified account (402).',
        body: {
          type: 'object',
          required: ['targetUrl', 'triggerType'],
          additionalProperties: false,
          properties: {
            targetUrl: { type: 'string', minLength: 1, maxLength: MAX_TARGET_URL_LENGTH },
            triggerType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
          },
        },
        response: responses(
          { type: 'object', required: ['ok', 'hookId'], properties: { ok: { type: 'boolean' }, hookId: { type: 'string' } } },
          { 402: { $ref: 'ErrorEnvelope#' } },
        ),
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
        response: responses(
          itemsEnvelope({
            type: 'object',
            required: ['hookId', 'targetUrl', 'triggerType', 'createdAt'],
            properties: {
              hookId: { type: 'string' },
              targetUrl: { type: 'string' },
              triggerType: { type: 'string' },
              createdAt: { type: 'string', format: 'date-time' },
            },
          }),
        ),
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listSubscriptions(svc, request.actor)) }),
  );

  app.post<{ Body: { hookId: string } }>(
    '/unsubscribeWebhook',
    {
      schema: {
        tags,
        deprecated: true,
        summary: 'Deprecated: remove a legacy subscription (always allowed)',
        body: {
          type: 'object',
          required: ['hookId'],
          additionalProperties: false,
          properties: { hookId: { type: 'string', minLength: 1 } },
        },
        response: responses({
          type: 'object',
          required: ['ok', 'deleted'],
          properties: { ok: { type: 'boolean' }, deleted: { type: 'boolean' } },
        }),
      },
    },
    async (request) => {
      await svc.store.run(unsubscribeWebhook(svc, request.actor, request.body.hookId));
      return { ok: true, deleted: true };
    },
  );
};
