import { createHmac, timingSafeEqual } from 'crypto';

/** Name of the signature header of signed deliveries (spec section 6.1, rule 3). */
export const SIGNATURE_HEADER = 'x-service-signature';

/**
 * Checks an `X-Service-Signature` header (`sha256=<hex>`) against the HMAC-SHA256 of the
 * exact request bytes, keyed with the webhook's secret. The comparison runs in constant
 * time over the digests; a missing, malformed or wrong header returns false.
 */
export function verifySignature(rawBody: Buffer | string, header: unknown, secret: string): boolean {
	if (typeof header !== 'string' || !secret) return false;
	const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
	if (!match) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	const received = Buffer.from(match[1], 'hex');
	return received.length === expected.length && timingSafeEqual(received, expected);
}

/** Default of the trigger's "Max Delivery Age": deliveries signed more than 5 minutes ago are refused. */
export const DEFAULT_MAX_AGE_SECONDS = 300;

/**
 * Why a delivery's signed `timestamp` (the body's ISO 8601 time of the event, covered by the
 * signature since it is part of the signed bytes) makes it too old to accept, or undefined when it
 * is within `maxAgeSeconds` of `nowMs` (either way, so a receiver's clock running behind does not
 * open the window). Refusing old deliveries stops a captured delivery from being replayed later,
 * like the timestamp tolerance of Stripe's and Slack's receivers. `maxAgeSeconds` 0 turns the
 * check off.
 * @param timestamp the `timestamp` field of the delivery body.
 * @param nowMs the receiver's time, in ms since the epoch.
 * @param maxAgeSeconds the window, in seconds (0: no limit).
 */
export function deliveryAgeProblem(timestamp: unknown, nowMs: number, maxAgeSeconds: number): string | undefined {
	if (!(maxAgeSeconds > 0)) return undefined;
	const at = typeof timestamp === 'string' && /^\d{4}-\d\d-\d\dT/.test(timestamp) ? Date.parse(timestamp) : NaN;
	if (!Number.isFinite(at)) return 'the delivery has no valid signed timestamp';
	const skewSeconds = Math.abs(nowMs - at) / 1000;
	if (skewSeconds > maxAgeSeconds) {
		return `the delivery was signed ${Math.round(skewSeconds)} s ${at > nowMs ? 'ahead of' : 'before'} now, outside the ${maxAgeSeconds} s window`;
	}
	return undefined;
}
