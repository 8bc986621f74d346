import type { WebhookVerify } from '@taskspace/engine';

/**
 * Sender delivery ids of inbound calls (docs "Automations", "Verifying signatures"; "Webhooks",
 * "Inbound webhooks"): a signed sender names each delivery, and sends the same name again when it
 * retries or someone redelivers it. The intake de-duplicates on it like on an `Idempotency-Key`
 * (`inbound-idempotency.ts`): the same delivery within the engine's dedupe window (24 h) gets the
 * first call's request id and run.
 */

/** Header GitHub names each delivery in (a GUID; the same on a redelivery). */
export const GITHUB_DELIVERY_HEADER = 'X-GitHub-Delivery';

/** Longest delivery id taken, in characters; a longer one is ignored (no sender sends one). */
export const MAX_DELIVERY_ID = 255;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function field(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The delivery id of a call whose signature `verify` checked: GitHub's `X-GitHub-Delivery`
 * header, Stripe's event `id` and Slack's Events API `event_id` (both in the signed body), or the
 * generic preset's `deliveryHeader`. Undefined without `verify`, for a preset or body that names
 * none, and for an empty id or one longer than {@link MAX_DELIVERY_ID}.
 * @param body the parsed body (`trigger.body`).
 */
export function deliveryIdOf(verify: WebhookVerify | undefined, headers: Headers, body: unknown): string | undefined {
  if (!verify) return undefined;
  let id: string | undefined;
  if (verify.type === 'github') id = header(headers, GITHUB_DELIVERY_HEADER);
  else if (verify.type === 'stripe') id = field(body, 'id');
  else if (verify.type === 'slack') id = field(body, 'event_id');
  else if (verify.deliveryHeader !== undefined) id = header(headers, verify.deliveryHeader);
  id = id?.trim();
  return id && id.length <= MAX_DELIVERY_ID ? id : undefined;
}
