import type { Query, Sql } from '../platform/db/query';
import type { Actor } from '../auth/tokens';
import type { Services } from '../services';
import { revokeOtherSessions } from '../auth/sessions';
import { badRequest, conflict } from '../errors';

/** Loose email syntax check: one '@', something either side, no spaces; at most 254 characters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * A user's sign-in identity: who they are (id, handle, display name, email) and their stored
 * password hash (never sent anywhere).
 */
export interface Credentials {
  userId: string;
  handle: string;
  displayName: string;
  email: string | null;
  passwordHash: string | null;
}

const SELECT = `SELECT id AS "userId", handle, display_name AS "displayName", email, password_hash AS "passwordHash" FROM users`;

/** The account whose handle or email (both case-insensitive) is `login`, if any. */
export function findCredentials(q: Sql, login: string): Query<Credentials | undefined> {
  const column = login.includes('@') ? 'email' : 'handle';
  return q.get<Credentials>(`${SELECT} WHERE lower(${column}) = lower(?)`, [login]);
}

/** The credentials of user `userId`, if the user exists. */
export function credentialsOf(q: Sql, userId: string): Query<Credentials | undefined> {
  return q.get<Credentials>(`${SELECT} WHERE id = ?`, [userId]);
}

/** Stores a new password hash for a user (the caller hashed it). */
export function* setPasswordHash(q: Sql, userId: string, passwordHash: string): Query<void> {
  yield* q.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, userId]);
}

/**
 * Sets or clears a user's email.
 * @throws ServiceError 400 for a malformed email; 409 CONFLICT (reason `taken`) when another account has it.
 */
export function* setEmail(q: Sql, userId: string, email: string | null): Query<void> {
  if (email !== null && (email.length > 254 || !EMAIL_PATTERN.test(email))) {
    throw badRequest('email', 'invalid_format', `invalid email '${email}'`);
  }
  const other =
    email === null
      ? undefined
      : yield* q.get<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower(?) AND id <> ?', [email, userId]);
  if (other) throw conflict(`email '${email}' is taken`, { field: 'email', reason: 'taken' });
  yield* q.run('UPDATE users SET email = ? WHERE id = ?', [email, userId]);
}

/**
 * Sets the caller's new password (already hashed) and ends their other sessions, in one
 * transaction (docs "Accounts and sign-in": a password change signs out everywhere else).
 */
export function replacePassword(svc: Services, actor: Actor, passwordHash: string): Query<void> {
  return svc.store.sql.transaction(function* (tx) {
    yield* setPasswordHash(tx, actor.userId, passwordHash);
    yield* revokeOtherSessions(tx, actor.userId, actor.sessionId, svc.clock.now());
  });
}
