import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, PageQueryWith, Params, Responses, nullable, stringEnum } from '../../http/schemas';
import { MAX_TARGET_URL_LENGTH, WEBHOOK_EVENT_TYPES } from './service';

/**
 * Schemas of the signed webhooks (`/api/v2/webhooks`, spec section 4.6) and the legacy
 * subscriptions (spec section 9.3), declared once: the routes validate, type and document with them.
 */

/** The statuses of a delivery: pending (waiting for its next attempt), sending, succeeded, failed (given up). */
const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;

/** A registration as returned (spec section 2, "Webhook registration"). */
export const WebhookSchema = Type.Object(
  {
    id: Type.String({ description: 'The target URL; URL-encode it when used in a path.' }),
    url: Type.String(),
    events: Type.Array(Type.String()),
    spaceIds: Type.Array(Type.String(), { description: 'Empty = every workspace of the account.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** One finished attempt of a delivery; `durationMs` in milliseconds, `statusCode` null without a response. */
const AttemptSchema = Type.Object(
  {
    number: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    durationMs: Type.Integer(),
    statusCode: nullable(Type.Integer()),
    error: nullable(Type.String()),
  },
  { additionalProperties: false },
);

/** One delivery of one event to one webhook (the delivery log). */
export const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'Also sent as X-Service-Delivery.' }),
    eventId: nullable(Type.String()),
    event: Type.String(),
    status: stringEnum(DELIVERY_STATUSES),
    attemptCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    nextRetryAt: nullable(Type.String({ format: 'date-time' })),
    completedAt: nullable(Type.String({ format: 'date-time' })),
    lastStatusCode: nullable(Type.Integer()),
    lastError: nullable(Type.String()),
    attempts: Type.Array(AttemptSchema),
  },
  { additionalProperties: false },
);

/** Body of `POST /webhooks`: an https URL (at most {@link MAX_TARGET_URL_LENGTH} characters), events, optional workspaces. */
export const RegisterWebhookBody = Type.Object(
  {
    targetUrl: Type.String({ minLength: 1, maxLength: MAX_TARGET_URL_LENGTH, description: 'https URL, at most 2048 characters.' }),
    events: Type.Array(stringEnum(WEBHOOK_EVENT_TYPES), { minItems: 1 }),
    spaceIds: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Workspace ids; empty or absent = all.' })),
  },
  { additionalProperties: false },
);

/** Path of one registration: `id` is the URL-encoded target URL. */
export const webhookParams = Params('id');

/** Query of the delivery log: a page and an optional status filter. */
export const DeliveriesQuery = PageQueryWith(20, { status: Type.Optional(stringEnum(DELIVERY_STATUSES)) });

/** Responses of a registration: the webhook and its secret (shown only here); 402 by plan. */
export const registerResponses = Responses(
  Type.Object({ ok: Type.Boolean(), webhook: WebhookSchema, secret: Type.String() }, { additionalProperties: false }),
  { 402: ErrorRef },
);
/** Responses of the webhook list. */
export const webhooksResponses = Responses(ItemsEnvelope(WebhookSchema));
/** Responses of one webhook. */
export const webhookResponses = Responses(ItemEnvelope(WebhookSchema));
/** `{ok: true, deleted: true}`, the answer of deletions. */
export const DeletedSchema = Type.Object({ ok: Type.Boolean(), deleted: Type.Boolean() }, { additionalProperties: false });
/** Responses of a deletion. */
export const deletedResponses = Responses(DeletedSchema);
/** Responses of the delivery log. */
export const deliveriesResponses = Responses(ItemsEnvelope(DeliverySchema));

/** Body of the deprecated `POST /subscribeWebhook`: one URL and one event. */
export const SubscribeBody = Type.Object(
  { targetUrl: Type.String({ minLength: 1, maxLength: MAX_TARGET_URL_LENGTH }), triggerType: stringEnum(WEBHOOK_EVENT_TYPES) },
  { additionalProperties: false },
);
/** Body of the deprecated `POST /unsubscribeWebhook`. */
export const UnsubscribeBody = Type.Object({ hookId: Type.String({ minLength: 1 }) }, { additionalProperties: false });

/** A legacy subscription as listed. */
export const SubscriptionSchema = Type.Object(
  { hookId: Type.String(), targetUrl: Type.String(), triggerType: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

/** Responses of `POST /subscribeWebhook`: the new hook id; 402 by plan. */
export const subscribeResponses = Responses(Type.Object({ ok: Type.Boolean(), hookId: Type.String() }, { additionalProperties: false }), {
  402: ErrorRef,
});
/** Responses of the legacy subscription list. */
export const subscriptionsResponses = Responses(ItemsEnvelope(SubscriptionSchema));
