import type { Query, Sql } from '../platform/db/query';
import type { Services } from '../services';
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
export function* createSetupLink(q: Sql, userId: string, now: number): Query<string> {
  const token = newSecret(32);
  yield* q.run('INSERT INTO setup_links (id, user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
    newId(),
    userId,
    hashToken(token),
    now,
    now + SETUP_LINK_TTL_MS,
  ]);
  return token;
}

interface LinkRow {
  id: string;
  userId: string;
  expiresAt: number;
  usedAt: number | null;
}

function findLink(q: Sql, token: string): Query<LinkRow | undefined> {
  return q.get<LinkRow>(
    'SELECT id, user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt" FROM setup_links WHERE token_hash = ?',
    [hashToken(token)],
  );
}

/**
 * Checks that `token` is a usable setup link and returns its user id.
 * @throws ServiceError 400 VALIDATION_ERROR, field `token`, reason `invalid_link` (unknown),
 *   `link_used` or `link_expired`.
 */
export function* checkSetupLink(q: Sql, token: unknown, now: number): Query<string> {
  const link = typeof token === 'string' && token ? yield* findLink(q, token) : undefined;
  if (!link) throw badRequest('token', 'invalid_link', 'this setup link is not valid');
  if (link.usedAt !== null) throw badRequest('token', 'link_used', 'this setup link has already been used');
  if (link.expiresAt <= now)
    throw badRequest('token', 'link_expired', 'this setup link has expired; run `taskspace user set-password` instead');
  return link.userId;
}

/**
 * Uses a setup link: sets the user's password and marks the link used, in one transaction
 * (a second use of the same link fails even when two requests race). The link is checked before
 * the (slow) password hashing, which happens outside the transaction, and again inside it.
 * @returns (resolves to) the user id.
 * @throws (rejects with) ServiceError 400 as {@link checkSetupLink}, or for a password outside the policy.
 */
export async function completeSetup(svc: Services, token: unknown, password: unknown): Promise<string> {
  const { store, clock } = svc;
  await store.run(checkSetupLink(store.sql, token, clock.now()));
  const hash = await hashPassword(checkPasswordPolicy(password));
  return store.run(
    store.sql.transaction(function* (tx) {
      const now = clock.now();
      const userId = yield* checkSetupLink(tx, token, now);
      yield* tx.run('UPDATE setup_links SET used_at = ? WHERE token_hash = ?', [now, hashToken(token as string)]);
      yield* setPasswordHash(tx, userId, hash);
      return userId;
    }),
  );
}
