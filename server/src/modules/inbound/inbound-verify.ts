import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerify } from '@taskspace/engine';
import { ServiceError } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';

/**
 * Signature presets of the webhook trigger (`verify`, docs "Automations", "Verifying
 * signatures"): GitHub, Stripe, Slack and a generic HMAC-SHA256, keyed with a workspace secret.
 * Every comparison is constant-time; a refused call records nothing.
 */

/** Default largest age of a Stripe or Slack signed timestamp, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why a signature was refused (`details.reason` of the 401). */
export type SignatureProblem = 'missing_signature' | 'invalid_signature' | 'stale_timestamp' | 'secret_not_set';

/** 401 INVALID_SIGNATURE: the call's signature is missing, wrong or too old. */
export class InvalidSignatureError extends ServiceError {
  constructor(reason: SignatureProblem, header: string) {
    const messages: Record<SignatureProblem, string> = {
      missing_signature: `this webhook requires a signature in the ${header} header`,
      invalid_signature: `the signature in the ${header} header does not match the body`,
      stale_timestamp: 'the signed timestamp is outside the accepted tolerance',
      secret_not_set: 'the secret this webhook verifies signatures with is not set in the workspace',
    };
    super(401, 'INVALID_SIGNATURE', messages[reason], {
      field: header.toLowerCase(),
      reason,
    });
  }
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function hmac(key: string, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Bytes of an HMAC-SHA256 digest. */
const DIGEST_BYTES = 32;

/** Most `v1` signatures of a Stripe header compared (Stripe sends one, or two while a secret rolls). */
const MAX_STRIPE_SIGNATURES = 8;

/**
 * `presented` decoded as `encoding` when it is well formed and of a SHA-256 digest's length, else
 * undefined: a malformed signature is refused before any HMAC is computed.
 */
function digestOf(presented: string, encoding: 'hex' | 'base64'): Buffer | undefined {
  const valid = encoding === 'hex' ? /^[0-9a-fA-F]{64}$/.test(presented) : /^[A-Za-z0-9+/_-]{43}={0,2}$/.test(presented);
  if (!valid) return undefined;
  const given = Buffer.from(presented, encoding);
  return given.length === DIGEST_BYTES ? given : undefined;
}

/** True when `given` is the digest `expected`; constant-time. */
function sameDigest(expected: Buffer, given: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** True when `seconds` (a Unix timestamp, decimal) is within `toleranceS` seconds of `nowMs`. */
function fresh(seconds: string, nowMs: number, toleranceS: number): boolean {
  if (!/^\d{1,12}$/.test(seconds)) return false;
  return Math.abs(nowMs / 1000 - Number(seconds)) <= toleranceS;
}

/** The header a preset reads its signature from. */
export function signatureHeader(verify: WebhookVerify): string {
  if (verify.type === 'github') return 'X-Hub-Signature-256';
  if (verify.type === 'stripe') return 'Stripe-Signature';
  if (verify.type === 'slack') return 'X-Slack-Signature';
  return verify.header ?? 'X-Signature';
}

/**
 * Checks one call's signature against `key` (the secret's value). Cheap checks come first: a
 * missing or malformed signature, and a stale Stripe or Slack timestamp, are refused before the
 * HMAC over the body is computed, so a forged call costs at most one HMAC.
 * @param raw the body bytes as received.
 * @param nowMs the current time, ms since the epoch (for Stripe's and Slack's timestamps).
 * @returns undefined when the signature is valid, else why not.
 */
export function signatureProblem(
  verify: WebhookVerify,
  key: string,
  raw: Buffer,
  headers: Headers,
  nowMs: number,
): SignatureProblem | undefined {
  const presented = header(headers, signatureHeader(verify))?.trim();
  if (!presented) return 'missing_signature';
  const tolerance = verify.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  switch (verify.type) {
    case 'github': {
      const given = presented.startsWith('sha256=') ? digestOf(presented.slice(7), 'hex') : undefined;
      return given && sameDigest(hmac(key, raw), given) ? undefined : 'invalid_signature';
    }
    case 'stripe': {
      // `t=<seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`: any v1 may match (Stripe sends several while a secret rolls).
      const pairs = presented.split(',').map((part) => part.trim().split('=') as [string, string | undefined]);
      const t = pairs.find(([k]) => k === 't')?.[1];
      const v1 = pairs
        .filter(([k, v]) => k === 'v1' && v !== undefined)
        .slice(0, MAX_STRIPE_SIGNATURES)
        .map(([, v]) => digestOf(v!, 'hex'))
        .filter((d): d is Buffer => d !== undefined);
      if (t === undefined || v1.length === 0) return 'invalid_signature';
      if (!fresh(t, nowMs, tolerance)) return 'stale_timestamp';
      const expected = hmac(key, `${t}.`, raw);
      // Every candidate is compared (no early exit), so timing does not tell which one matched.
      return v1.map((given) => sameDigest(expected, given)).includes(true) ? undefined : 'invalid_signature';
    }
    case 'slack': {
      const ts = header(headers, 'X-Slack-Request-Timestamp')?.trim() ?? '';
      const given = presented.startsWith('v0=') ? digestOf(presented.slice(3), 'hex') : undefined;
      if (!given) return 'invalid_signature';
      if (!fresh(ts, nowMs, tolerance)) return 'stale_timestamp';
      return sameDigest(hmac(key, `v0:${ts}:`, raw), given) ? undefined : 'invalid_signature';
    }
    case 'hmac-sha256': {
      const prefix = verify.prefix ?? '';
      const given = presented.startsWith(prefix) ? digestOf(presented.slice(prefix.length), verify.encoding ?? 'hex') : undefined;
      return given && sameDigest(hmac(key, raw), given) ? undefined : 'invalid_signature';
    }
  }
}

/**
 * Verifies an inbound call's signature with the workspace secret `verify.secret`, read through
 * `q` (the intake's transaction).
 * @throws InvalidSignatureError 401 when the secret is not set or the signature is missing, wrong or stale.
 */
export function* verifyInboundSignature(
  q: Sql,
  svc: Services,
  workspaceId: string,
  verify: WebhookVerify,
  raw: Buffer,
  headers: Headers,
): Query<void> {
  const row = yield* q.get<{ sealed: string }>('SELECT value_sealed AS sealed FROM workspace_secrets WHERE workspace_id = ? AND name = ?', [
    workspaceId,
    verify.secret,
  ]);
  const name = signatureHeader(verify);
  if (!row) throw new InvalidSignatureError('secret_not_set', name);
  const problem = signatureProblem(verify, svc.secretBox.open(row.sealed), raw, headers, svc.clock.now());
  if (problem) throw new InvalidSignatureError(problem, name);
}
