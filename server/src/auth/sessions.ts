import type { Query, Sql } from '../platform/db/query';
import { newId, newSecret } from '../platform/ids';
import { ACTOR_USER_COLUMNS, actorUserOf, hashToken, type Actor, type ActorUserRow } from './tokens';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'taskspace_session';

/**
 * A session's last-use time is written at most this often, in ms, so reads stay read-only; more
 * often when the idle time is short (see {@link sessionTouchIntervalMs}).
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/**
 * How long, in ms, a use of a session may go unrecorded: {@link SESSION_TOUCH_INTERVAL_MS}, or a
 * quarter of the idle time when that is shorter. A use is recorded once the last recorded one is
 * this old, so the recorded time lags a real use by less than this, and a session used at least
 * every `sessionIdleMs` − this (45 s with a 1-minute idle time) never idles out.
 */
export function sessionTouchIntervalMs(lifetimes: SessionLifetimes): number {
  return Math.max(1, Math.min(SESSION_TOUCH_INTERVAL_MS, Math.floor(lifetimes.sessionIdleMs / 4)));
}

/** Lifetimes of a session, in ms (configuration `accounts.sessionIdleMs` / `sessionMaxMs`). */
export interface SessionLifetimes {
  sessionIdleMs: number;
  sessionMaxMs: number;
}

/** A session as listed to its owner (never the cookie value). */
export interface SessionInfo {
  id: string;
  userAgent: string | null;
  createdAt: number;
  lastUsedAt: number;
  /** When the session ends at the latest (absolute expiry), ms since the epoch. */
  expiresAt: number;
}

/**
 * Starts a session for `userId`. The cookie value is 256 random bits (base64url); only its
 * SHA-256 hash is stored. The session ends after `sessionIdleMs` without use or `sessionMaxMs`
 * after now, whichever comes first.
 */
export function* createSession(
  q: Sql,
  userId: string,
  now: number,
  lifetimes: SessionLifetimes,
  userAgent?: string,
): Query<{ id: string; secret: string; expiresAt: number }> {
  const id = newId();
  const secret = newSecret(32);
  const expiresAt = now + lifetimes.sessionMaxMs;
  yield* q.run(
    'INSERT INTO sessions (id, user_id, secret_hash, user_agent, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [id, userId, hashToken(secret), userAgent ? userAgent.slice(0, 300) : null, now, now, expiresAt],
  );
  return { id, secret, expiresAt };
}

interface SessionActorRow extends ActorUserRow {
  sessionId: string;
  lastUsedAt: number;
  expiresAt: number;
}

/**
 * The account behind a session cookie value, or undefined when the session is unknown, revoked,
 * idle for longer than `sessionIdleMs` or past its absolute expiry. Records the use (at most once
 * per {@link sessionTouchIntervalMs}).
 */
export function* actorForSession(q: Sql, secret: string, now: number, lifetimes: SessionLifetimes): Query<Actor | undefined> {
  const row = yield* q.get<SessionActorRow>(
    `SELECT s.id AS "sessionId", s.last_used_at AS "lastUsedAt", s.expires_at AS "expiresAt",
            ${ACTOR_USER_COLUMNS}
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.secret_hash = ? AND s.revoked_at IS NULL`,
    [hashToken(secret)],
  );
  if (!row || row.expiresAt <= now || row.lastUsedAt + lifetimes.sessionIdleMs <= now) return undefined;
  if (now - row.lastUsedAt >= sessionTouchIntervalMs(lifetimes)) {
    yield* q.run('UPDATE sessions SET last_used_at = ? WHERE id = ?', [now, row.sessionId]);
  }
  return { ...actorUserOf(row), sessionId: row.sessionId };
}

/** A user's live sessions (not revoked, not expired), newest first. */
export function listSessions(q: Sql, userId: string, now: number, lifetimes: SessionLifetimes): Query<SessionInfo[]> {
  return q.all<SessionInfo>(
    `SELECT id, user_agent AS "userAgent", created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt"
       FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? AND last_used_at > ?
      ORDER BY created_at DESC`,
    [userId, now, now - lifetimes.sessionIdleMs],
  );
}

/** Ends one of `userId`'s sessions. @returns false when it has no live session `sessionId`. */
export function* revokeSession(q: Sql, userId: string, sessionId: string, now: number): Query<boolean> {
  const { changes } = yield* q.run('UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL', [
    now,
    sessionId,
    userId,
  ]);
  return changes === 1;
}

/** Ends every session of `userId` except `keepId` (when given). @returns how many ended. */
export function* revokeOtherSessions(q: Sql, userId: string, keepId: string | undefined, now: number): Query<number> {
  const { changes } = yield* q.run('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND id <> ?', [
    now,
    userId,
    keepId ?? '',
  ]);
  return changes;
}
