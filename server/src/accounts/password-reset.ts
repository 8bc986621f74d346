import type { Query, Sql } from '../platform/db/query';
import type { Services } from '../services';
import { badRequest } from '../errors';
import { newId, newSecret } from '../platform/ids';
import { hashToken } from '../auth/tokens';
import { checkPasswordPolicy, hashPassword } from './passwords';
import { findCredentials, setPasswordHash } from './credentials';
import { revokeOtherSessions } from '../auth/sessions';
import { enqueueMail, mailEnabled } from '../modules/mail/outbox';
import { passwordResetMail } from '../modules/mail/templates/password-reset';

/**
 * Forgotten passwords (docs "Accounts and sign-in", "Forgotten password"; issue 39):
 * `POST /api/v1/auth/password/forgot {login}` mails a link `<public URL>/reset-password?token=…`
 * to the account's email, and `POST /api/v1/auth/password/reset {token, password}` sets the new
 * password once. Tokens are 256 random bits; only their SHA-256 hashes are stored (table
 * `password_resets`, migration 039).
 */

/** How long a reset link stays valid, in ms: 30 minutes. */
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;

/** Most reset mails one account gets per {@link RESET_MAIL_WINDOW_MS}; further requests mail nothing (and answer the same). */
export const RESET_MAILS_PER_WINDOW = 3;
/** The window of {@link RESET_MAILS_PER_WINDOW}, in ms: 1 hour. */
export const RESET_MAIL_WINDOW_MS = 60 * 60 * 1000;

/**
 * Mails a reset link to the account whose handle or email is `login`, when it exists, has an
 * email, mail is configured and it got fewer than {@link RESET_MAILS_PER_WINDOW} in the last hour
 * (one transaction: the link and its mail are written together). Otherwise nothing happens; the
 * caller answers the same either way.
 * @returns (resolves to) whether a mail was queued (for the caller's wake-up only: never shown).
 */
export function requestPasswordReset(svc: Services, login: string): Query<boolean> {
  const { config, clock, links } = svc;
  return svc.store.sql.transaction(function* (tx) {
    if (!mailEnabled(config)) return false;
    const creds = yield* findCredentials(tx, login);
    if (!creds?.email) return false;
    const now = clock.now();
    const recent = yield* tx.get<{ n: number }>(
      'SELECT CAST(count(*) AS INTEGER) AS n FROM password_resets WHERE user_id = ? AND created_at > ?',
      [creds.userId, now - RESET_MAIL_WINDOW_MS],
    );
    if ((recent?.n ?? 0) >= RESET_MAILS_PER_WINDOW) return false;
    const token = newSecret(32);
    yield* tx.run('INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      newId(),
      creds.userId,
      hashToken(token),
      now,
      now + RESET_LINK_TTL_MS,
    ]);
    const mail = passwordResetMail({
      handle: creds.handle,
      link: links.url(`/reset-password?token=${token}`),
      validMinutes: RESET_LINK_TTL_MS / 60000,
    });
    yield* enqueueMail(tx, config, { kind: 'password_reset', to: [creds.email], userId: creds.userId, ...mail }, now);
    return true;
  });
}

/**
 * The account behind a usable reset link.
 * @throws ServiceError 400 VALIDATION_ERROR, field `token`, reason `invalid_link` (unknown),
 *   `link_used` or `link_expired`.
 */
function* checkResetLink(q: Sql, token: unknown, now: number): Query<string> {
  const link =
    typeof token === 'string' && token
      ? yield* q.get<{ userId: string; expiresAt: number; usedAt: number | null }>(
          'SELECT user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt" FROM password_resets WHERE token_hash = ?',
          [hashToken(token)],
        )
      : undefined;
  if (!link) throw badRequest('token', 'invalid_link', 'this reset link is not valid');
  if (link.usedAt !== null) throw badRequest('token', 'link_used', 'this reset link has already been used; ask for a new one');
  if (link.expiresAt <= now) throw badRequest('token', 'link_expired', 'this reset link has expired; ask for a new one');
  return link.userId;
}

/**
 * Uses a reset link: sets the new password, marks this and every other open link of the account
 * used, and ends every session of the account, in one transaction (a second use fails even when
 * two requests race). The link is checked before the slow hashing and again inside the transaction.
 * @returns (resolves to) the user id.
 * @throws (rejects with) ServiceError 400 as {@link checkResetLink}, or for a password outside the policy.
 */
export async function resetPassword(svc: Services, token: unknown, password: unknown): Promise<string> {
  const { store, clock } = svc;
  await store.run(checkResetLink(store.sql, token, clock.now()));
  const hash = await hashPassword(checkPasswordPolicy(password));
  return store.run(
    store.sql.transaction(function* (tx) {
      const now = clock.now();
      const userId = yield* checkResetLink(tx, token, now);
      yield* tx.run('UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
      yield* setPasswordHash(tx, userId, hash);
      yield* revokeOtherSessions(tx, userId, undefined, now);
      return userId;
    }),
  );
}
