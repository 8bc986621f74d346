import type pg from 'pg';

/**
 * Key of the session-level advisory lock a server holds on its PostgreSQL database while it runs.
 * Until the work of several processes is shared out safely (claimed deliveries, runs and schedule
 * slots), one active server per database is the rule, as one server per data directory is with
 * SQLite; more processes may wait as standbys (`TASKSPACE_STANDBY=1`) and take over when it ends.
 */
export const SERVER_LOCK_KEY = 7_461_002;

/** How often a standby tries to take the lock, in ms. */
export const STANDBY_POLL_MS = 500;

/** How often the holder checks that the lock's connection still answers, in ms. */
const HEARTBEAT_MS = 5000;

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
    super(`lost the PostgreSQL server lock (${cause.message}); stopping so that only one server works on the database`);
    this.name = 'ServerLockLostError';
  }
}

/** How {@link lockDatabase} behaves when the lock is held and after it is taken. */
export interface ServerLockOptions {
  /** Wait for the holder to end and take over (a standby), instead of throwing DatabaseInUseError. */
  standby?: boolean;
  /** Told once, when a standby starts waiting: the database and the holder as far as visible. */
  onWaiting?(database: string, holder: string | undefined): void;
  /**
   * Called once if the lock's connection ends while the lock is held (PostgreSQL restarted, the
   * session was terminated, the network failed): the lock is gone, so the server must stop working.
   */
  onLost(error: ServerLockLostError): void;
}

/** A second server was started on a PostgreSQL database a running server holds. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly database: string,
    /** The holder's connection as PostgreSQL reports it (client address, backend start), if visible. */
    readonly holder: string | undefined,
  ) {
    super(
      `the PostgreSQL database ${database} is in use by another Taskspace server${holder ? ` (${holder})` : ''}. ` +
        'Stop that server first, point DATABASE_URL at another database, or start this one as a standby that takes over when it stops (TASKSPACE_STANDBY=1). ' +
        '(The admin CLI may run beside a server.)',
    );
    this.name = 'DatabaseInUseError';
  }
}

/** A held server lock. */
export interface ServerLock {
  /** Releases the lock and returns its connection to the pool (idempotent). */
  release(): Promise<void>;
}

/**
 * Takes the server lock of the pool's database on a connection kept for the life of the server:
 * PostgreSQL drops the lock when that connection ends in any way (the process killed included,
 * a dead machine within about 25 s by the TCP keepalive), so a stale lock never blocks the next
 * start. A standby tries again every {@link STANDBY_POLL_MS} until it gets the lock.
 * @throws DatabaseInUseError when another server holds it (not as a standby); the driver's error
 *   when the database cannot be reached.
 */
export async function lockDatabase(pool: pg.Pool, options: ServerLockOptions): Promise<ServerLock> {
  const client = await pool.connect();
  let held = false;
  let released = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const stopHeartbeat = () => clearInterval(heartbeat);
  const lost = (error: Error) => {
    if (!held || released) return;
    released = true;
    stopHeartbeat();
    // The pool drops the broken connection instead of handing it out again.
    client.release(error);
    options.onLost(new ServerLockLostError(error));
  };
  try {
    let waiting = false;
    for (;;) {
      const { rows } = await client.query<{ locked: boolean; database: string }>(
        'SELECT pg_try_advisory_lock($1) AS locked, current_database() AS database',
        [SERVER_LOCK_KEY],
      );
      if (rows[0]!.locked) break;
      if (!options.standby) throw new DatabaseInUseError(rows[0]!.database, await holderOf(client));
      if (!waiting) options.onWaiting?.(rows[0]!.database, await holderOf(client));
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, STANDBY_POLL_MS));
    }
    held = true;
    for (const setting of KEEPALIVE_SETTINGS) await client.query(setting);
  } catch (error) {
    client.release(held ? (error as Error) : undefined);
    throw error;
  }
  client.on('error', lost);
  client.on('end', () => lost(new Error('the connection ended')));
  // A connection cut off without a word (a network partition) raises no event: ask now and then.
  let asking = false;
  heartbeat = setInterval(() => {
    if (asking || released) return;
    asking = true;
    const timeout = setTimeout(() => lost(new Error(`no answer within ${HEARTBEAT_TIMEOUT_MS} ms`)), HEARTBEAT_TIMEOUT_MS);
    client
      .query('SELECT 1')
      .then(
        () => undefined,
        (error: Error) => lost(error),
      )
      .finally(() => {
        clearTimeout(timeout);
        asking = false;
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  client.once('end', stopHeartbeat);
  return {
    async release() {
      stopHeartbeat();
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock($1)', [SERVER_LOCK_KEY]);
        client.release();
      } catch (error) {
        // A connection that cannot unlock is closed instead, which drops the lock too.
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
