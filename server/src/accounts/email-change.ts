import type { Query, Sql } from '../platform/db/query';
import type { Services } from '../services';
import { ServiceError, badRequest, conflict } from '../errors';
import { newId, newSecret } from '../platform/ids';
import { hashToken } from '../auth/tokens';
import { notifyAuthChanged } from '../platform/db/postgres/notifications';
import { EMAIL_PATTERN, credentialsOf } from './credentials';
import { enqueueMail, mailEnabled } from '../modules/mail/outbox';
import { emailChangedMail, emailVerificationMail } from '../modules/mail/templates/email-verification';

/**
 * Email verification (docs "Accounts and sign-in", "Your email address"; issue 39). A person
 * changes their address in two steps: `POST /api/v1/me/email {email, currentPassword}` mails a
 * link `<public URL>/verify-email?token=…` to the new address, and `POST
 * /api/v1/auth/email/verify {token}` (the page behind the link, on a button press) makes it the
 * account's address, marks the account verified and tells the old address. Until then every mail
 * still goes to the old address. Tokens are 256 random bits; only their SHA-256 hashes are stored
 * (table `email_changes`).
 */

/** How long a confirmation link stays valid, in ms: 24 hours. */
export const EMAIL_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Most confirmation mails one account asks for per {@link EMAIL_MAIL_WINDOW_MS}. */
export const EMAIL_MAILS_PER_WINDOW = 5;
/** The window of {@link EMAIL_MAILS_PER_WINDOW}, in ms: 1 hour. */
export const EMAIL_MAIL_WINDOW_MS = 60 * 60 * 1000;

/** The caller's address and the one waiting for confirmation (`GET /api/v1/me/email`). */
export interface EmailStatus {
  /** The confirmed address mail goes to, or null. */
  email: string | null;
  /** The address a mailed link would confirm, or null when none is open. */
  pendingEmail: string | null;
}

/** The caller's {@link EmailStatus} at `now` (ms). */
export function* emailStatus(q: Sql, userId: string, now: number): Query<EmailStatus> {
  const creds = yield* credentialsOf(q, userId);
  const pending = yield* q.get<{ email: string }>(
    'SELECT email FROM email_changes WHERE user_id = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at DESC LIMIT 1',
    [userId, now],
  );
  return { email: creds?.email ?? null, pendingEmail: pending?.email ?? null };
}

/** Throws 409 `taken` when another account has `email` (compared without case). */
function* checkFree(q: Sql, userId: string, email: string): Query<void> {
  const other = yield* q.get<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower(?) AND id <> ?', [email, userId]);
  if (other) throw conflict(`email '${email}' is taken`, { field: 'email', reason: 'taken' });
}

/**
 * Opens a confirmation for `email` and queues its mail, in one transaction; older open links of
 * the account close. The caller checked the current password.
 * @returns the caller's status afterwards (its `pendingEmail` is `email`).
 * @throws ServiceError 400 (`email` `invalid_format`, `unchanged`); 409 CONFLICT when mail is not
 *   configured (`mail_not_configured`) or another account has the address (`taken`); 429
 *   RATE_LIMITED (`too_many_requests`) after {@link EMAIL_MAILS_PER_WINDOW} in an hour.
 */
export function requestEmailChange(svc: Services, userId: string, email: string): Query<EmailStatus> {
  const { config, clock, links } = svc;
  return svc.store.sql.transaction(function* (tx) {
    if (!mailEnabled(config)) {
      throw conflict('this Taskspace sends no mail (no TASKSPACE_SMTP_URL), so an address cannot be confirmed; an admin can set it', {
        field: 'email',
        reason: 'mail_not_configured',
      });
    }
    const clean = email.trim();
    if (clean.length > 254 || !EMAIL_PATTERN.test(clean)) throw badRequest('email', 'invalid_format', `invalid email '${clean}'`);
    const creds = (yield* credentialsOf(tx, userId))!;
    if (creds.email !== null && creds.email.toLowerCase() === clean.toLowerCase()) {
      throw badRequest('email', 'unchanged', `${clean} is already your address`);
    }
    yield* checkFree(tx, userId, clean);
    const now = clock.now();
    const recent = yield* tx.get<{ n: number }>(
      'SELECT CAST(count(*) AS INTEGER) AS n FROM email_changes WHERE user_id = ? AND created_at > ?',
      [userId, now - EMAIL_MAIL_WINDOW_MS],
    );
    if ((recent?.n ?? 0) >= EMAIL_MAILS_PER_WINDOW) {
      throw new ServiceError(429, 'RATE_LIMITED', 'too many confirmation mails; try again in an hour', {
        field: 'email',
        reason: 'too_many_requests',
      });
    }
    yield* tx.run('UPDATE email_changes SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
    const token = newSecret(32);
    yield* tx.run('INSERT INTO email_changes (id, user_id, email, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
      newId(),
      userId,
      clean,
      hashToken(token),
      now,
      now + EMAIL_LINK_TTL_MS,
    ]);
    const mail = emailVerificationMail({
      handle: creds.handle,
      email: clean,
      link: links.url(`/verify-email?token=${token}`),
      validHours: EMAIL_LINK_TTL_MS / 3_600_000,
    });
    yield* enqueueMail(tx, config, { kind: 'email_verification', to: [clean], userId, ...mail }, now);
    return { email: creds.email, pendingEmail: clean };
  });
}

/**
 * Uses a confirmation link: the address becomes the account's, the account is marked verified,
 * every open link of the account closes, and the previous address (if any) gets a notice — one
 * transaction, so a second use fails even when two requests race.
 * @returns the account's status afterwards.
 * @throws ServiceError 400 VALIDATION_ERROR, field `token`, reason `invalid_link`, `link_used` or
 *   `link_expired`; 409 `taken` when another account took the address meanwhile.
 */
export function confirmEmailChange(svc: Services, token: unknown): Query<EmailStatus> {
  const { config, clock } = svc;
  return svc.store.sql.transaction(function* (tx) {
    const now = clock.now();
    const link =
      typeof token === 'string' && token
        ? yield* tx.get<{ userId: string; email: string; expiresAt: number; usedAt: number | null }>(
            'SELECT user_id AS "userId", email, expires_at AS "expiresAt", used_at AS "usedAt" FROM email_changes WHERE token_hash = ?',
            [hashToken(token)],
          )
        : undefined;
    if (!link) throw badRequest('token', 'invalid_link', 'this confirmation link is not valid');
    if (link.usedAt !== null)
      throw badRequest('token', 'link_used', 'this confirmation link has already been used or replaced by a newer one');
    if (link.expiresAt <= now)
      throw badRequest('token', 'link_expired', 'this confirmation link has expired; ask for a new one under Profile');
    yield* checkFree(tx, link.userId, link.email);
    const before = (yield* credentialsOf(tx, link.userId))!;
    yield* tx.run('UPDATE email_changes SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, link.userId]);
    yield* tx.run('UPDATE users SET email = ?, verified = 1 WHERE id = ?', [link.email, link.userId]);
    // `verified` is part of every cached Actor: each process drops its cached token lookups.
    yield* notifyAuthChanged(tx);
    if (before.email !== null && before.email.toLowerCase() !== link.email.toLowerCase()) {
      const notice = emailChangedMail({ handle: before.handle, email: link.email });
      yield* enqueueMail(tx, config, { kind: 'email_changed', to: [before.email], userId: link.userId, ...notice }, now);
    }
    return { email: link.email, pendingEmail: null };
  });
}
