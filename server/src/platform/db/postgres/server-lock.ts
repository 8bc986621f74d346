import type pg from 'pg';

/**
 * Key of the session-level advisory lock a server holds on its PostgreSQL database while it runs.
 * Until the work of several processes is shared out safely (claimed deliveries, runs and schedule
 * slots), one server per database is the rule, as one server per data directory is with SQLite.
 */
export const SERVER_LOCK_KEY = 7_461_002;

/** A second server was started on a PostgreSQL database a running server holds. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly database: string,
    /** The holder's connection as PostgreSQL reports it (client address, backend start), if visible. */
    readonly holder: string | undefined,
  ) {
    super(
      `the PostgreSQL database ${database} is in use by another Taskspace server${holder ? ` (${holder})` : ''}. ` +
        'Stop that server first, or point DATABASE_URL at another database. (The admin CLI may run beside a server; two servers may not yet.)',
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
 * PostgreSQL drops the lock when that connection ends in any way (the process killed included),
 * so a stale lock never blocks the next start.
 * @throws DatabaseInUseError when another server holds it; the driver's error when the database
 *   cannot be reached.
 */
export async function lockDatabase(pool: pg.Pool): Promise<ServerLock> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean; database: string }>(
      'SELECT pg_try_advisory_lock($1) AS locked, current_database() AS database',
      [SERVER_LOCK_KEY],
    );
    if (!rows[0]!.locked) throw new DatabaseInUseError(rows[0]!.database, await holderOf(client));
  } catch (error) {
    client.release();
    throw error;
  }
  let released = false;
  return {
    async release() {
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
