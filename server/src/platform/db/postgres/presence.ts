import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Presence of the processes of one PostgreSQL database (docs "Operations", "Roles"): every `all`
 * and `worker` process holds a session-level advisory lock `(PRESENCE_LOCK_CLASS, key)` on the
 * connection it keeps for its life (the server lock's, platform/db/postgres/server-lock.ts), where
 * `key` begins its worker id. PostgreSQL drops the lock when that connection ends, kill -9
 * included, so a claim (a run's lease) whose owner holds no such lock belongs to a dead process
 * and is free at once, without waiting for its lease time to run out.
 */

/** First key of the presence locks (the server lock uses the one-key form, so they never collide). */
export const PRESENCE_LOCK_CLASS = 7_461_003;

/**
 * A new worker id for this process: `<key>:<host>:<pid>`, `key` a random integer in [1, 2^31)
 * (the second key of its presence lock); the rest tells an operator which process holds a claim.
 */
export function newWorkerId(): string {
  return `${randomInt(1, 2 ** 31)}:${hostname()}:${process.pid}`;
}

/** The presence lock key of a worker id made by {@link newWorkerId}. */
export function presenceKey(workerId: string): number {
  return Number(workerId.slice(0, workerId.indexOf(':')));
}

/**
 * SQL condition: the worker id in `column` holds no presence lock on this database (its process
 * ended). An uncorrelated subquery, so PostgreSQL reads the lock table once per statement.
 */
export function ownerGone(column: string): string {
  return `split_part(${column}, ':', 1) NOT IN (SELECT objid::text FROM pg_locks
    WHERE locktype = 'advisory' AND classid = ${PRESENCE_LOCK_CLASS} AND objsubid = 2 AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
}
