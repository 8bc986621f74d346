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
