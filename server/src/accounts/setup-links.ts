import type { Db } from '../platform/db/connection';
import { transaction } from '../platform/db/connection';
import { sql } from '../platform/db/statements';
import { badRequest } from '../errors';
import { newId, newSecret } from '../platform/ids';
import { hashToken } from '../auth/tokens';
import { checkPasswordPolicy, hashPassword } from './passwords';
import { setPasswordHash } from './credentials';

/** How long a setup link stays valid after it is made, in ms: 24 hours. */
export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Makes a one-time setup link token for `userId` (256 random bits, base64url), valid for
 * {@link SETUP_LINK_TTL_MS}. Only its SHA-256 hash is stored; the caller shows the token once,
 * as `/setup?token=<token>`.
 */
export function createSetupLink(db: Db, userId: string, now: number): string {
  const token = newSecret(32);
  sql(db, 'INSERT INTO setup_links (id, user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
    newId(),
    userId,
    hashToken(token),
    now,
    now + SETUP_LINK_TTL_MS,
  );
  return token;
}

interface LinkRow {
  id: string;
  userId: string;
  expiresAt: number;
  usedAt: number | null;
}

function findLink(db: Db, token: string): LinkRow | undefined {
  return sql<[string], LinkRow>(
    db,
    'SELECT id, user_id AS userId, expires_at AS expiresAt, used_at AS usedAt FROM setup_links WHERE token_hash = ?',
  ).get(hashToken(token));
}

/**
 * Checks that `token` is a usable setup link and returns its user id.
 * @throws ServiceError 400 VALIDATION_ERROR, field `token`, reason `invalid_link` (unknown),
 *   `link_used` or `link_expired`.
 */
export function checkSetupLink(db: Db, token: unknown, now: number): string {
  const link = typeof token === 'string' && token ? findLink(db, token) : undefined;
  if (!link) throw badRequest('token', 'invalid_link', 'this setup link is not valid');
  if (link.usedAt !== null) throw badRequest('token', 'link_used', 'this setup link has already been used');
  if (link.expiresAt <= now) throw badRequest('token', 'link_expired', 'this setup link has expired; run `taskspace user set-password` instead');
  return link.userId;
}

/**
 * Uses a setup link: sets the user's password and marks the link used, in one transaction
 * (a second use of the same link fails even when two requests race).
 * @returns the user id.
 * @throws ServiceError 400 as {@link checkSetupLink}, or for a password outside the policy.
 */
export async function completeSetup(db: Db, token: unknown, password: unknown, clock: { now(): number }): Promise<string> {
  checkSetupLink(db, token, clock.now());
  const hash = await hashPassword(checkPasswordPolicy(password));
  return transaction(db, () => {
    const now = clock.now();
    const userId = checkSetupLink(db, token, now);
    sql(db, 'UPDATE setup_links SET used_at = ? WHERE token_hash = ?').run(now, hashToken(token as string));
    setPasswordHash(db, userId, hash);
    return userId;
  });
}
