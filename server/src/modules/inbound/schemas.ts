import { Type } from '@sinclair/typebox';
import { ErrorRef, Params, Responses } from '../../http/schemas';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from './inbound-rotation';

/**
 * Schemas of the inbound URLs (webhook calls and form posts; docs "Automations", "Inbound webhooks",
 * "Rotating the URL or token"), declared once: the routes validate, type and document with them.
 */

/** The answers of an inbound call (a webhook URL or a form post): `{ok, requestId}` or the error envelope. */
export const INBOUND_RESPONSES = {
  200: Type.Object(
    {
      ok: Type.Boolean(),
      requestId: Type.String(),
      filtered: Type.Optional(Type.Boolean({ description: "true when the trigger's filter refused the call: no run was started" })),
    },
    { additionalProperties: false },
  ),
  400: ErrorRef,
  401: ErrorRef,
  404: ErrorRef,
  405: ErrorRef,
  409: ErrorRef,
  413: ErrorRef,
  415: ErrorRef,
  422: ErrorRef,
  429: ErrorRef,
};

/** Path of an inbound webhook URL. */
export const webhookParams = Params('webhookId');

/** Path of the rotation route. */
export const automationParams = Params('automationId');

/** Body of `POST /automations/{id}/inbound/rotate`. */
export const rotateInboundBody = Type.Object(
  {
    rotate: Type.Union([Type.Literal('token'), Type.Literal('url')], {
      description: '`token`: a new bearer token; `url`: a new URL id (the hosted form page moves with it)',
    }),
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        default: DEFAULT_OVERLAP_SECONDS,
        description: 'how long the former token or URL keeps working, in seconds (0: stops at once)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The answer of a rotation (the new token appears only here; see `RotationResult`). */
const RotationSchema = Type.Object(
  {
    rotated: Type.Union([Type.Literal('token'), Type.Literal('url')]),
    id: Type.String({ description: 'the current URL id' }),
    url: Type.String(),
    formUrl: Type.Optional(Type.String({ description: 'for a form trigger: the hosted form page' })),
    requiresToken: Type.Boolean(),
    token: Type.Optional(Type.String({ description: 'the new bearer token (rotate: token); shown only in this answer' })),
    previousValidUntil: Type.String({ format: 'date-time', description: 'when the former token or URL stops being accepted' }),
  },
  { additionalProperties: false },
);

/** Responses of a rotation; 409 when the automation has no inbound URL, or for `token` when its URL requires none. */
export const rotationResponses = Responses(Type.Object({ ok: Type.Boolean(), item: RotationSchema }, { additionalProperties: false }), {
  409: ErrorRef,
});
