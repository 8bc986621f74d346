import { timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';

/**
 * The intake's side of inbound URL and token rotation (`inbound-rotation.ts`): a former URL id
 * resolves to the current URL while its overlap lasts, and a former token is accepted while its
 * overlap lasts. Both windows are stored on the URL's row (`inbound_webhooks.previous_*`).
 */

/** An inbound URL id resolved to the automation's current one, with the former token still accepted (if any). */
export interface ResolvedInboundUrl {
  /** The current URL id (the id called, or the one that replaced it). */
  id: string;
  /** SHA-256 hex of the former bearer token while its overlap lasts, else null. */
  previousTokenHash: string | null;
}

/**
 * The current inbound URL of the id a caller used: the id itself, or the URL that replaced it
 * while the rotation's overlap lasts (`now` < `previous_id_expires_at`, ms epoch). Undefined for
 * an unknown id or a former one whose overlap ended.
 */
export function* resolveInboundUrl(q: Sql, calledId: string, now: number): Query<ResolvedInboundUrl | undefined> {
  const row = yield* q.get<{ id: string; previous_token_hash: string | null; previous_token_expires_at: number | null }>(
    `SELECT id, previous_token_hash, previous_token_expires_at FROM inbound_webhooks WHERE id = ?
     UNION ALL
     SELECT id, previous_token_hash, previous_token_expires_at FROM inbound_webhooks WHERE previous_id = ? AND previous_id_expires_at > ?`,
    [calledId, calledId, now],
  );
  if (!row) return undefined;
  const live = row.previous_token_hash !== null && row.previous_token_expires_at !== null && Number(row.previous_token_expires_at) > now;
  return { id: row.id, previousTokenHash: live ? row.previous_token_hash : null };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * True when `presented` (an `Authorization` header value) is `Bearer <token>` for a token whose
 * SHA-256 hex is one of `hashes` (nulls skipped); each compared in constant time.
 */
export function bearerMatchesAny(presented: string | undefined, hashes: readonly (string | null)[]): boolean {
  const match = BEARER.exec(presented ?? '');
  if (!match) return false;
  const given = Buffer.from(hashToken(match[1]!), 'hex');
  let ok = false;
  for (const hash of hashes) {
    if (hash === null) continue;
    const stored = Buffer.from(hash, 'hex');
    if (given.length === stored.length && timingSafeEqual(given, stored)) ok = true;
  }
  return ok;
}
