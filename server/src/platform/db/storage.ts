import type { Config } from '../../config';
import type { WorkerLog } from '../worker-loop';
import { WalCheckpointer } from './checkpointer';
import { openDatabase, type Db } from './connection';
import { lockDataDir } from './data-dir-lock';
import { migratePostgres } from './postgres/migrate';
import { APPLICATION_NAME, createPostgresPool } from './postgres/pool';
import { lockDatabase, type ServerLock, type ServerLockLostError } from './postgres/server-lock';
import { Leadership } from '../leadership';
import { newWorkerId, presenceKey } from './postgres/presence';
import { postgresStore, sqliteStore, type Store } from './store';

/**
 * The storage a server runs on, opened from its configuration (docs "Operations", "Storage"):
 * the embedded SQLite file of the data directory by default, PostgreSQL when `DATABASE_URL` is set.
 */
export interface Storage {
  readonly store: Store;
  /** The SQLite connection (SQLite mode only): its WAL checkpoints and file-level tasks. */
  readonly db: Db | undefined;
  /** Whether this process leads the database (the server lock's holder on PostgreSQL). */
  readonly leadership: Leadership;
  /**
   * On PostgreSQL, for an `all` or `worker` process: its id in the leases of the runs it claims
   * (postgres/presence.ts; its presence lock is held with the server lock's connection).
   */
  readonly workerId: string | undefined;
  /** Starts the background work of the store once the server listens (SQLite's checkpoint worker). */
  start(log: WorkerLog): Promise<void>;
  /** Stops that work and closes the store; the server's last step. */
  close(): Promise<void>;
}

/** What {@link openStorage} reports while it opens the store and while the server runs. */
export interface StorageEvents {
  /** An idle PostgreSQL connection failed (not fatal: the pool replaces the connection). */
  onPoolError(error: Error): void;
  /**
   * The database's server lock is held by another server: a standby (`TASKSPACE_STANDBY=1`) waits
   * to take over; any other `all` or `worker` process goes on as a follower (`standby` false).
   */
  onLockHeld?(database: string, holder: string | undefined, standby: boolean): void;
  /** The PostgreSQL server lock was lost while running: the server must stop working at once. */
  onLockLost(error: ServerLockLostError): void;
  /** The holder of the server lock stalled past its lease: its connections were terminated and this process takes the lead over. */
  onStalledLeader?(holder: string): void;
}

/**
 * Opens the configured store and brings its schema up to date.
 * - SQLite: takes the data directory's lock (one server per directory), opens the file and
 *   applies pending migrations.
 * - PostgreSQL: opens a pool, tries the database's server lock (postgres/server-lock.ts: the
 *   process holding it leads, see {@link Leadership}; another one follows and takes it over when
 *   it can; with `config.standby` it waits for the lock before going on; `api` processes take
 *   none) and applies pending migrations under an advisory lock of their own.
 * @throws DataDirLockedError when another server holds the data directory; the store's error when
 *   it cannot be opened or a migration fails (nothing is left open then).
 */
export async function openStorage(config: Config, events: StorageEvents): Promise<Storage> {
  if (config.databaseUrl) {
    // An api process never leads nor claims: it runs beside the processes that do the background work.
    const workerId = config.role === 'api' ? undefined : newWorkerId();
    // Connections name their process (its presence key), so a follower can end every connection
    // of a leader that stalled (postgres/server-lock.ts).
    const pool = createPostgresPool(config.databaseUrl, {
      max: config.postgres.poolSize,
      statementTimeoutMs: config.postgres.statementTimeoutMs,
      ...(workerId === undefined ? {} : { applicationName: `${APPLICATION_NAME} ${presenceKey(workerId)}` }),
    });
    pool.on('error', (error) => events.onPoolError(error));
    let lock: ServerLock | undefined;
    const leadership = new Leadership(false);
    try {
      if (workerId !== undefined) {
        lock = await lockDatabase(pool, {
          whenHeld: config.standby ? 'wait' : 'follow',
          presenceKey: presenceKey(workerId),
          onWaiting: (database, holder) => events.onLockHeld?.(database, holder, config.standby),
          onAcquired: () => leadership.promote(),
          leaseMs: config.leaderLeaseMs,
          onRenewed: (until) => leadership.renew(until),
          onStalledHolder: (holder) => events.onStalledLeader?.(holder),
          onLost: (error) => {
            // No leader work from now on, whatever the server does next.
            leadership.renew(0);
            events.onLockLost(error);
          },
        });
        if (lock.held) leadership.promote();
      }
      await migratePostgres(pool);
    } catch (error) {
      await lock?.release();
      await pool.end();
      throw error;
    }
    const held = lock;
    return {
      store: postgresStore(pool),
      db: undefined,
      leadership,
      workerId,
      start: async () => undefined,
      async close() {
        await held?.release();
        await pool.end();
      },
    };
  }
  const lock = lockDataDir(config.dataDir);
  let db: Db;
  try {
    db = openDatabase(config.dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  let checkpointer: WalCheckpointer | undefined;
  return {
    store: sqliteStore(db),
    db,
    leadership: new Leadership(true),
    workerId: undefined,
    async start(log) {
      // WAL checkpoints run in a worker thread while the server listens (checkpointer.ts).
      checkpointer ??= new WalCheckpointer(db, log);
      await checkpointer.start();
    },
    async close() {
      await checkpointer?.stop();
      db.close();
      lock.release();
    },
  };
}
