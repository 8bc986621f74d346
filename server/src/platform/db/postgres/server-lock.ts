import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { APPLICATION_NAME } from './pool';
import { PRESENCE_LOCK_CLASS } from './presence';

/**
 * Key of the session-level advisory lock of a database's leader: the one process that does the
 * work done once per database (the outbox dispatcher, the automation outbox consumer, schedules
 * and due dates, log retention; platform/leadership.ts). Every `all` and `worker` process executes
 * the automation runs and sends the webhook deliveries it claims, and serves the API as its role
 * says; one of them takes the lock over when its holder ends. A standby (`TASKSPACE_STANDBY=1`)
 * does nothing until it holds it.
 *
 * The lock comes with a lease (`TASKSPACE_LEADER_LEASE_MS`, {@link ServerLockOptions.leaseMs}):
 * the holder asks its lock's connection for an answer every fifth of the lease (at most every
 * {@link HEARTBEAT_MS}), and PostgreSQL records when each of those queries started
 * (`pg_stat_activity.query_start`). A holder that asked nothing for longer than the lease is
 * stalled (its process stopped, its event loop blocked): a follower or standby then terminates
 * every connection of that process (`pg_terminate_backend`, found by the holder's
 * `application_name`, `taskspace <presence key>`), which rolls back what it had in flight and drops
 * its locks, and takes the lock over. The holder counts its lead from the moment it sent its last
 * answered question, for the lease less a margin ({@link ServerLockOptions.onRenewed}), so a
 * stalled holder that wakes does no leader work before it finds its connection gone and stops.
 */
export const SERVER_LOCK_KEY = 7_461_002;

/** How often a standby or a follower tries to take the lock, in ms. */
export const STANDBY_POLL_MS = 500;

/** How soon a follower tries again after ending a stalled holder's connections (their sessions end within moments), in ms. */
const AFTER_TERMINATE_MS = 50;

/** How often the holder checks that the lock's connection still answers, in ms (more often for a short lease). */
const HEARTBEAT_MS = 5000;

/** Default {@link ServerLockOptions.leaseMs}. */
export const DEFAULT_LEADER_LEASE_MS = 15_000;

/** How long the holder waits for that answer before it takes the lock for lost, in ms. */
const HEARTBEAT_TIMEOUT_MS = 10_000;

/**
 * TCP keepalive of the lock's connection, set on PostgreSQL's side of it: the server notices a
 * holder whose machine or network died after about idle + interval × count seconds (10 + 5 × 3)
 * and drops its session, and with it the lock, instead of after the operating system's two hours.
 */
const KEEPALIVE_SETTINGS = ['SET tcp_keepalives_idle = 10', 'SET tcp_keepalives_interval = 5', 'SET tcp_keepalives_count = 3'];

/** The server lost its lock (its connection to PostgreSQL ended): another server may now take over. */
export class ServerLockLostError extends Error {
  constructor(override readonly cause: Error) {
    super(`lost the PostgreSQL server lock (${cause.message}); stopping so that only one server leads the database`);
    this.name = 'ServerLockLostError';
  }
}

/** How {@link lockDatabase} behaves when the lock is held and after it is taken. */
export interface ServerLockOptions {
  /**
   * What to do while another server holds the lock: `wait` (a standby: resolve once the lock is
   * taken) or `follow` (resolve at once with the lock not held, and keep trying every
   * {@link STANDBY_POLL_MS} in the background; `onAcquired` tells when it is taken).
   */
  whenHeld: 'wait' | 'follow';
  /**
   * This process's presence lock key (platform/db/postgres/presence.ts), held on the same connection
   * for the life of the process, whether it leads or not.
   */
  presenceKey?: number;
  /** Told once, when a standby or follower finds the lock held: the database and the holder as far as visible. */
  onWaiting?(database: string, holder: string | undefined): void;
  /** Told when a follower took the lock over (not when the lock was free at once). */
  onAcquired?(): void;
  /**
   * How long the holder's lead lasts without an answered heartbeat, in ms (default
   * {@link DEFAULT_LEADER_LEASE_MS}); past it (measured by the database) another process takes it
   * over. Every process of a database should use the same value.
   */
  leaseMs?: number;
  /** The lead is this process's until `until` (`performance.now()` time): at taking the lock and at each answered heartbeat. */
  onRenewed?(until: number): void;
  /** A stalled holder was found and its connections terminated (this process takes the lock next). */
  onStalledHolder?(holder: string): void;
  /**
   * Called once if the lock's connection ends while the lock is held (PostgreSQL restarted, the
   * session was terminated, the network failed): the lock is gone, so the server must stop working.
   */
  onLost(error: ServerLockLostError): void;
}

/** The server lock, held or (a follower) still tried for. */
export interface ServerLock {
  /** Whether this process holds the lock now. */
  readonly held: boolean;
  /** Releases the lock, or stops trying for it, and returns its connection to the pool (idempotent). */
  release(): Promise<void>;
}

/**
 * Takes the server lock of the pool's database on a connection kept for the life of the server:
 * PostgreSQL drops the lock when that connection ends in any way (the process killed included,
 * a dead machine within about 25 s by the TCP keepalive), so a stale lock never blocks the next
 * start. See {@link ServerLockOptions.whenHeld} for a lock another server holds.
 * @throws the driver's error when the database cannot be reached.
 */
export async function lockDatabase(pool: pg.Pool, options: ServerLockOptions): Promise<ServerLock> {
  let held = false;
  let released = false;
  /** Stopping: no more tries. */
  let closing = false;
  /** The connection failed and went back to the pool closed; the next try opens another. */
  let broken = false;
  let trying: Promise<void> | undefined;
  /** A connection for the life of the process, showing this process present from the start. */
  const connect = async () => {
    const connection = await pool.connect();
    // Until the lock is held (then `lost` listens too): a failed connection is replaced by the next try.
    connection.on('error', (error: Error) => {
      if (held || connection !== client || broken) return;
      broken = true;
      connection.release(error);
    });
    if (options.presenceKey === undefined) return connection;
    try {
      await connection.query('SELECT pg_advisory_lock($1, $2)', [PRESENCE_LOCK_CLASS, options.presenceKey]);
      return connection;
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
  };
  // Declared before the first `connect` runs: its error listener compares against it.
  let client!: pg.PoolClient;
  client = await connect();
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  const stopTimers = () => {
    clearInterval(heartbeat);
    clearTimeout(retry);
  };
  const lost = (error: Error) => {
    if (!held || released) return;
    released = true;
    stopTimers();
    // The pool drops the broken connection instead of handing it out again.
    client.release(error);
    options.onLost(new ServerLockLostError(error));
  };
  const leaseMs = options.leaseMs ?? DEFAULT_LEADER_LEASE_MS;
  // The holder's own count of its lead ends this much before the database's.
  const margin = Math.min(1000, leaseMs / 10);
  const heartbeatMs = Math.min(HEARTBEAT_MS, Math.floor(leaseMs / 5));
  const heartbeatTimeoutMs = Math.max(HEARTBEAT_TIMEOUT_MS, leaseMs);
  /** When the last try was sent (`performance.now()`): a lock it took is held from then. */
  let triedAt = 0;
  const tryLock = async () => {
    triedAt = performance.now();
    return (
      await client.query<{ locked: boolean; database: string }>(
        'SELECT pg_try_advisory_lock($1) AS locked, current_database() AS database',
        [SERVER_LOCK_KEY],
      )
    ).rows[0]!;
  };
  /**
   * The lock is held by another process: when that holder has asked nothing on its lock's
   * connection for longer than the lease, terminates every connection of its process.
   * @returns whether it did (the lock is free as soon as those sessions have ended).
   */
  const endStalledHolder = async (): Promise<boolean> => {
    const { rows } = await client.query<{ pid: number; app: string | null }>(
      `SELECT a.pid, a.application_name AS app
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.granted
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND a.query_start IS NOT NULL AND now() - a.query_start > $2::bigint * interval '1 millisecond'`,
      [SERVER_LOCK_KEY, leaseMs],
    );
    const stalled = rows[0];
    if (!stalled) return false;
    // Its other connections too (named after its presence key): what they have in flight is rolled back.
    const app = stalled.app && stalled.app.startsWith(`${APPLICATION_NAME} `) ? stalled.app : null;
    await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND (pid = $1 OR application_name = $2)`,
      [stalled.pid, app],
    );
    options.onStalledHolder?.(`backend ${stalled.pid}${app ? `, ${app}` : ''}`);
    return true;
  };
  /** From the moment the lock is taken: keepalives, and watching the connection. */
  const hold = async () => {
    held = true;
    options.onRenewed?.(triedAt + leaseMs - margin);
    for (const setting of KEEPALIVE_SETTINGS) await client.query(setting);
    const watched = client;
    watched.on('error', lost);
    watched.on('end', () => lost(new Error('the connection ended')));
    // A connection cut off without a word (a network partition) raises no event: ask now and then.
    // Each answer renews the lease, counted from when the question was sent.
    let asking = false;
    heartbeat = setInterval(() => {
      if (asking || released) return;
      asking = true;
      const timeout = setTimeout(() => lost(new Error(`no answer within ${heartbeatTimeoutMs} ms`)), heartbeatTimeoutMs);
      const sent = performance.now();
      watched
        .query('SELECT 1')
        .then(
          () => {
            if (!released) options.onRenewed?.(sent + leaseMs - margin);
          },
          (error: Error) => lost(error),
        )
        .finally(() => {
          clearTimeout(timeout);
          asking = false;
        });
    }, heartbeatMs);
    heartbeat.unref();
    watched.once('end', () => clearInterval(heartbeat));
  };
  /** A follower's tries, in the background (one at a time); a connection that fails is replaced. */
  const attempt = async () => {
    let ended = false;
    try {
      if (broken) {
        client = await connect();
        broken = false;
      }
      if ((await tryLock()).locked) {
        await hold();
        if (!closing) options.onAcquired?.();
        return;
      }
      ended = await endStalledHolder();
    } catch (error) {
      if (held) return lost(error as Error);
      if (!broken) client.release(error as Error);
      broken = true;
    }
    follow(ended ? AFTER_TERMINATE_MS : STANDBY_POLL_MS);
  };
  const follow = (ms = STANDBY_POLL_MS) => {
    if (closing) return;
    retry = setTimeout(() => {
      trying = attempt().finally(() => (trying = undefined));
    }, ms);
    retry.unref();
  };
  try {
    let waiting = false;
    for (;;) {
      const { locked, database } = await tryLock();
      if (locked) break;
      if (!waiting) options.onWaiting?.(database, await holderOf(client));
      waiting = true;
      if (options.whenHeld === 'follow') break;
      const ended = await endStalledHolder();
      await new Promise((resolve) => setTimeout(resolve, ended ? AFTER_TERMINATE_MS : STANDBY_POLL_MS));
    }
    if (waiting && options.whenHeld === 'follow') follow();
    else await hold();
  } catch (error) {
    stopTimers();
    // Closed rather than pooled: it may hold the presence lock.
    client.release(error as Error);
    throw error;
  }
  return {
    get held() {
      return held && !released;
    },
    async release() {
      if (released || closing) return;
      closing = true;
      clearTimeout(retry);
      await trying;
      stopTimers();
      if (released) return;
      released = true;
      if (broken) return;
      try {
        // The server lock (when held) and the presence lock: the connection goes back to the pool.
        await client.query('SELECT pg_advisory_unlock_all()');
        client.release();
      } catch (error) {
        // A connection that cannot unlock is closed instead, which drops the locks too.
        client.release(error as Error);
      }
    },
  };
}

/** Where the lock's holder connects from, as far as this role may see. */
async function holderOf(client: pg.PoolClient): Promise<string | undefined> {
  const { rows } = await client.query<{ addr: string | null; started: Date | null }>(
    `SELECT a.client_addr::text AS addr, a.backend_start AS started
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.objid = $1 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      LIMIT 1`,
    [SERVER_LOCK_KEY],
  );
  const row = rows[0];
  if (!row) return undefined;
  const from = row.addr ? `connected from ${row.addr}` : 'connected through a local socket';
  return row.started ? `${from} since ${row.started.toISOString()}` : from;
}
