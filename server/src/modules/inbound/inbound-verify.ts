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

/** True when `presented` (encoded as `encoding`) is the digest `expected`; constant-time. */
function sameDigest(expected: Buffer, presented: string, encoding: 'hex' | 'base64'): boolean {
  const valid = encoding === 'hex' ? /^[0-9a-fA-F]+$/.test(presented) : /^[A-Za-z0-9+/_-]+={0,2}$/.test(presented);
  if (!valid) return false;
  const given = Buffer.from(presented, encoding);
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
 * Checks one call's signature against `key` (the secret's value).
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
    case 'github':
      return presented.startsWith('sha256=') && sameDigest(hmac(key, raw), presented.slice(7), 'hex') ? undefined : 'invalid_signature';
    case 'stripe': {
      // `t=<seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`: any v1 may match (Stripe sends several while a secret rolls).
      const pairs = presented.split(',').map((part) => part.trim().split('=') as [string, string | undefined]);
      const t = pairs.find(([k]) => k === 't')?.[1];
      const v1 = pairs.filter(([k, v]) => k === 'v1' && v !== undefined).map(([, v]) => v!);
      if (t === undefined || v1.length === 0) return 'invalid_signature';
      const expected = hmac(key, `${t}.`, raw);
      // Every candidate is compared (no early exit), so timing does not tell which one matched.
      const matched = v1.map((v) => sameDigest(expected, v, 'hex')).includes(true);
      if (!matched) return 'invalid_signature';
      return fresh(t, nowMs, tolerance) ? undefined : 'stale_timestamp';
    }
    case 'slack': {
      const ts = header(headers, 'X-Slack-Request-Timestamp')?.trim() ?? '';
      if (!presented.startsWith('v0=') || !sameDigest(hmac(key, `v0:${ts}:`, raw), presented.slice(3), 'hex')) return 'invalid_signature';
      return fresh(ts, nowMs, tolerance) ? undefined : 'stale_timestamp';
    }
    case 'hmac-sha256': {
      const prefix = verify.prefix ?? '';
      if (!presented.startsWith(prefix)) return 'invalid_signature';
      return sameDigest(hmac(key, raw), presented.slice(prefix.length), verify.encoding ?? 'hex') ? undefined : 'invalid_signature';
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
