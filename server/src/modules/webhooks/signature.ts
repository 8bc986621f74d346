/**
 * Webhook signatures (spec section 6.1, rule 3; README "Events and webhooks", "Verifying a delivery").
 *
 * This file imports only `node:crypto` so that receivers (and the n8n trigger node) can copy it
 * as is, without depending on the server.
 *
 * A delivery carries `X-Service-Signature: sha256=<hex>`, where `<hex>` is the lowercase hex
 * HMAC-SHA256 of the exact request body bytes, keyed with the webhook's secret (its UTF-8 bytes,
 * exactly as returned at registration).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the signature header (lowercase, as Node exposes incoming headers). */
export const SIGNATURE_HEADER = 'x-service-signature';

const PREFIX = 'sha256=';
const HEX_SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * The `X-Service-Signature` value for a body: `sha256=` + hex HMAC-SHA256 of `rawBody` keyed
 * with `secret`. `rawBody` strings are encoded as UTF-8.
 */
export function signPayload(rawBody: string | Uint8Array, secret: string): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Checks a delivery's signature. Compute it over the raw body bytes before any JSON parsing
 * (re-serialising parsed JSON changes the bytes). The comparison runs in constant time.
 *
 * @param rawBody the request body exactly as received (Buffer/Uint8Array, or a UTF-8 string).
 * @param header  the `X-Service-Signature` header value (an array takes its first element).
 * @param secret  the webhook secret returned by `POST /api/v2/webhooks`.
 * @returns true when the header is well formed and matches; false otherwise (never throws for
 *          a missing or malformed header).
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | undefined | null,
  secret: string,
): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
  const match = HEX_SIGNATURE.exec(value.trim());
  if (!match) return false;
  const presented = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
