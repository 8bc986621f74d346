import { transaction, type Db } from '../platform/db/connection';
import type { Actor } from '../auth/tokens';
import type { Services } from '../services';
import { revokeOtherSessions } from './sessions';
import { sql } from '../platform/db/statements';
import { badRequest, conflict } from '../errors';

/** Loose email syntax check: one '@', something either side, no spaces; at most 254 characters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** A user's sign-in identity: who they are and their stored password hash (never sent anywhere). */
export interface Credentials {
  userId: string;
  handle: string;
  email: string | null;
  passwordHash: string | null;
}

const SELECT = `SELECT id AS userId, handle, email, password_hash AS passwordHash FROM users`;

/** The account whose handle or email (both case-insensitive) is `login`, if any. */
export function findCredentials(db: Db, login: string): Credentials | undefined {
  const column = login.includes('@') ? 'email' : 'handle';
  return sql<[string], Credentials>(db, `${SELECT} WHERE ${column} = ?`).get(login);
}

/** The credentials of user `userId`, if the user exists. */
export function credentialsOf(db: Db, userId: string): Credentials | undefined {
  return sql<[string], Credentials>(db, `${SELECT} WHERE id = ?`).get(userId);
}

/** Stores a new password hash for a user (the caller hashed it). */
export function setPasswordHash(db: Db, userId: string, passwordHash: string): void {
  sql(db, 'UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
}

/**
 * Sets or clears a user's email.
 * @throws ServiceError 400 for a malformed email; 409 CONFLICT (reason `taken`) when another account has it.
 */
export function setEmail(db: Db, userId: string, email: string | null): void {
  if (email !== null && (email.length > 254 || !EMAIL_PATTERN.test(email))) {
    throw badRequest('email', 'invalid_format', `invalid email '${email}'`);
  }
  const other = email === null ? undefined : sql<[string, string], { id: string }>(db, 'SELECT id FROM users WHERE email = ? AND id <> ?').get(email, userId);
  if (other) throw conflict(`email '${email}' is taken`, { field: 'email', reason: 'taken' });
  sql(db, 'UPDATE users SET email = ? WHERE id = ?').run(email, userId);
}

/**
 * Sets the caller's new password (already hashed) and ends their other sessions, in one
 * transaction (docs "Accounts and sign-in": a password change signs out everywhere else).
 */
export function replacePassword(svc: Services, actor: Actor, passwordHash: string): void {
  transaction(svc.db, () => {
    setPasswordHash(svc.db, actor.userId, passwordHash);
    revokeOtherSessions(svc.db, actor.userId, actor.sessionId, svc.clock.now());
  });
}
