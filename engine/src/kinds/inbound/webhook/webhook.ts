/**
 * "Webhook": the automation's inbound URL (`/webhooks/<id>`), called with one of `methods`
 * (default `["POST"]`); `requireToken` makes it also demand `Authorization: Bearer <token>`
 * (spec section 5.3), `verify` checks the sender's signature. Variables: `request.ts`.
 * A `filter` is evaluated when the call arrives: a refused call gets 200 `{ok, filtered}` and no run.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { TriggerBase } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Enum } from '../../parts';

/** HTTP methods an inbound webhook URL may accept. */
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Signature schemes an inbound webhook can verify (docs "Automations", "Verifying signatures"). */
export const WEBHOOK_VERIFY_TYPES = ['github', 'stripe', 'slack', 'hmac-sha256'] as const;

const verify = Type.Object(
  {
    type: Enum(WEBHOOK_VERIFY_TYPES, {
      title: 'Scheme',
      description:
        'github (X-Hub-Signature-256), stripe (Stripe-Signature), slack (X-Slack-Signature) or hmac-sha256 over the raw body in `header`.',
    }),
    secret: Type.String({
      pattern: '^[A-Z][A-Z0-9_]{0,63}$',
      title: 'Signing secret',
      description: 'The name of the workspace secret holding the key.',
      'x-picker': 'secret',
    }),
    header: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$",
        title: 'Signature header',
        description: 'hmac-sha256 only, and required for it.',
      }),
    ),
    encoding: Type.Optional(Enum(['hex', 'base64'], { title: 'Encoding', default: 'hex', description: 'hmac-sha256 only.' })),
    prefix: Type.Optional(
      Type.String({ maxLength: 50, title: 'Prefix', description: 'hmac-sha256 only: before the signature, e.g. sha256=.' }),
    ),
    deliveryHeader: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$",
        title: 'Delivery id header',
        description:
          'hmac-sha256 only: the header the sender names each delivery in (e.g. X-Delivery-Id); a repeated delivery starts no second run.',
      }),
    ),
    toleranceSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 86_400,
        default: 300,
        title: 'Tolerance (seconds)',
        description: 'stripe and slack: the largest accepted age of the signed timestamp.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'Verify signature',
    if: { properties: { type: { const: 'hmac-sha256' } } },
    then: { required: ['header'] },
    else: {
      not: { anyOf: [{ required: ['header'] }, { required: ['encoding'] }, { required: ['prefix'] }, { required: ['deliveryHeader'] }] },
    },
  },
);

/**
 * Signature verification of an inbound call: an HMAC-SHA256 keyed with the workspace secret
 * `secret` (its name), checked before a run is recorded (401 INVALID_SIGNATURE otherwise).
 */
export type WebhookVerify = Static<typeof verify>;

/** `webhook`. */
export const WEBHOOK_KIND = defineTrigger({
  type: 'webhook',
  title: 'Webhook',
  summary: "When the automation's inbound URL is called.",
  category: 'Inbound',
  icon: 'webhook',
  source: 'inbound',
  parameters: Type.Object({
    requireToken: Type.Optional(
      Type.Boolean({ title: 'Require a token', default: false, description: 'Callers must send Authorization: Bearer <token>.' }),
    ),
    methods: Type.Optional(
      Type.Array(Enum(WEBHOOK_METHODS, { title: 'Method' }), {
        minItems: 1,
        maxItems: WEBHOOK_METHODS.length,
        uniqueItems: true,
        title: 'Methods',
        default: ['POST'],
      }),
    ),
    verify: Type.Optional(verify),
  }),
  // `body` is the whole body; an object body's top-level fields are variables of their own. The
  // call gives `method`, `headers` (lower-case names, credentials redacted), `query`, `rawBody`
  // (text, up to 1 MiB) and `http` (those four); see `request.ts`.
  variables: { names: ['body', 'method', 'headers', 'query', 'rawBody', 'http'], open: true },
  example: {
    body: { event: 'order.created', id: 'ord_1001', amount: 42, currency: 'EUR' },
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    query: {},
  },
});

/** HTTP methods an inbound webhook URL may accept. */
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/**
 * Fires when the automation's inbound URL (`/webhooks/<id>`) is called with one of `methods`
 * (default `["POST"]`). `requireToken` makes the URL also demand `Authorization: Bearer <token>`
 * (spec section 5.3); `verify` checks the sender's signature.
 */
export interface WebhookTrigger extends TriggerBase {
  type: 'webhook';
  requireToken?: boolean;
  methods?: WebhookMethod[];
  verify?: WebhookVerify;
}

declare module '../../../definition/types' {
  /** The webhook trigger (see {@link TriggerTypes}). */
  interface TriggerTypes {
    webhook: WebhookTrigger;
  }
}
