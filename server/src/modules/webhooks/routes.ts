import type { FastifyPluginAsync } from 'fastify';
import {
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  MAX_TARGET_URL_LENGTH,
  registerWebhook,
  WEBHOOK_EVENT_TYPES,
  type DeliveryQuery,
  type WebhookInput,
} from './service';
import { itemEnvelope, itemsEnvelope, pageQuery, params, responses } from '../../http/schemas';

const errorRef = { $ref: 'ErrorEnvelope#' } as const;

/** A registration as returned (spec section 2, "Webhook registration"). */
export const webhookSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'spaceIds', 'createdAt'],
  properties: {
    id: { type: 'string', description: 'The target URL; URL-encode it when used in a path.' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    spaceIds: { type: 'array', items: { type: 'string' }, description: 'Empty = every workspace of the account.' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

const attemptSchema = {
  type: 'object',
  properties: {
    number: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    durationMs: { type: 'integer' },
    statusCode: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true },
  },
} as const;

const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Also sent as X-Service-Delivery.' },
    eventId: { type: 'string', nullable: true },
    event: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'sending', 'succeeded', 'failed'] },
    attemptCount: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    nextRetryAt: { type: 'string', format: 'date-time', nullable: true },
    completedAt: { type: 'string', format: 'date-time', nullable: true },
    lastStatusCode: { type: 'integer', nullable: true },
    lastError: { type: 'string', nullable: true },
    attempts: { type: 'array', items: attemptSchema },
  },
} as const;

const registerBody = {
  type: 'object',
  required: ['targetUrl', 'events'],
  additionalProperties: false,
  properties: {
    targetUrl: { type: 'string', minLength: 1, maxLength: MAX_TARGET_URL_LENGTH, description: 'https URL, at most 2048 characters.' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } },
    spaceIds: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Workspace ids; empty or absent = all.' },
  },
} as const;

const deliveriesQuery = {
  ...pageQuery(20),
  properties: { ...pageQuery(20).properties, status: { type: 'string', enum: ['pending', 'sending', 'succeeded', 'failed'] } },
} as const;

/** `/api/v2/webhooks` (spec section 4.6; README "Events and webhooks"). */
export const webhookRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const tags = ['webhooks'];

  app.post<{ Body: WebhookInput }>(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Register a signed webhook (or replace the registration of the same URL)',
        description: 'Needs a Pro-or-above plan on a verified account (402). The secret is returned only here.',
        body: registerBody,
        response: responses(
          {
            type: 'object',
            required: ['ok', 'webhook', 'secret'],
            properties: { ok: { type: 'boolean' }, webhook: webhookSchema, secret: { type: 'string' } },
          },
          { 402: errorRef },
        ),
      },
    },
    async (request) => ({ ok: true, ...(await svc.store.run(registerWebhook(svc, request.actor, request.body))) }),
  );

  app.get(
    '/webhooks',
    { schema: { tags, summary: "The caller's signed webhooks", response: responses(itemsEnvelope(webhookSchema)) } },
    async (request) => ({ ok: true, items: await svc.store.run(listWebhooks(svc, request.actor)) }),
  );

  app.get<{ Params: { id: string } }>(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'One signed webhook (id = URL-encoded target URL), without its secret',
        params: params('id'),
        response: responses(itemEnvelope(webhookSchema)),
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(getWebhook(svc, request.actor, request.params.id)) }),
  );

  app.delete<{ Params: { id: string } }>(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a signed webhook (always allowed, whatever the plan)',
        params: params('id'),
        response: responses({
          type: 'object',
          required: ['ok', 'deleted'],
          properties: { ok: { type: 'boolean' }, deleted: { type: 'boolean' } },
        }),
      },
    },
    async (request) => {
      await svc.store.run(deleteWebhook(svc, request.actor, request.params.id));
      return { ok: true, deleted: true };
    },
  );

  app.get<{ Params: { id: string }; Querystring: DeliveryQuery }>(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery log of a signed webhook, newest first: attempts, status codes, next retry',
        params: params('id'),
        querystring: deliveriesQuery,
        response: responses(itemsEnvelope(deliverySchema)),
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listWebhookDeliveries(svc, request.actor, request.params.id, request.query)),
    }),
  );
};
