import { createHash } from 'node:crypto';
import type { Db } from '../db/connection';
import { sql } from '../db/statements';
import { newId, newSecret } from '../ids';

/** Prefix of every personal access token, so leaked tokens are easy to recognise and scan for. */
export const TOKEN_PREFIX = 'tsk_';

/** SHA-256 hex digest of a token. Only this is stored; tokens carry 256 random bits, so no slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A stored token's metadata (never the token itself). */
export interface AccessTokenInfo {
  id: string;
  userId: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/**
 * Creates a personal access token for `userId` and returns it with its id. The token is shown
 * to the caller once and stored only as its hash. `fixedToken` (the bootstrap token) replaces
 * the random value.
 */
export function createAccessToken(
  db: Db,
  userId: string,
  name: string,
  now: number,
  fixedToken?: string,
): { id: string; token: string } {
  const token = fixedToken ?? TOKEN_PREFIX + newSecret(32);
  const id = newId();
  sql(db, 'INSERT INTO access_tokens (id, user_id, name, token_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(
    id,
    userId,
    name,
    hashToken(token),
    now,
  );
  return { id, token };
}

/** Revokes a token by id. Returns false when no unrevoked token has that id. */
export function revokeAccessToken(db: Db, tokenId: string, now: number): boolean {
  return sql(db, 'UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, tokenId).changes === 1;
}

/** Lists a user's tokens, newest first. */
export function listAccessTokens(db: Db, userId: string): AccessTokenInfo[] {
  return sql<[string], AccessTokenInfo>(
    db,
    `SELECT id, user_id AS userId, name, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt
       FROM access_tokens WHERE user_id = ? ORDER BY created_at DESC`,
  ).all(userId);
}

/** The authenticated caller of a request. */
export interface Actor {
  userId: string;
  handle: string;
  displayName: string;
  plan: string;
  rateTier: string;
  verified: boolean;
  /**
   * Set when an automation acts for this user: how many automation runs led to this change.
   * Events raised carry it so the engine can stop loops (README "Automations").
   */
  depth?: number;
}

interface ActorRow {
  userId: string;
  handle: string;
  displayName: string;
  plan: string;
  rateTier: string;
  verified: number;
}

/** Finds the user behind a presented token; undefined when unknown or revoked. */
export function actorForToken(db: Db, token: string): Actor | undefined {
  const row = sql<[string], ActorRow>(
    db,
    `SELECT u.id AS userId, u.handle, u.display_name AS displayName, u.plan, u.rate_tier AS rateTier, u.verified
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  ).get(hashToken(token));
  return row ? { ...row, verified: row.verified === 1 } : undefined;
}
