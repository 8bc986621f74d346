import type { Config } from '../../config';
import type { WorkerLog } from '../worker-loop';
import { WalCheckpointer } from './checkpointer';
import { openDatabase, type Db } from './connection';
import { lockDataDir } from './data-dir-lock';
import { migratePostgres } from './postgres/migrate';
import { createPostgresPool } from './postgres/pool';
import { lockDatabase, type ServerLock, type ServerLockLostError } from './postgres/server-lock';
import { postgresStore, sqliteStore, type Store } from './store';

/**
 * The storage a server runs on, opened from its configuration (docs "Operations", "Storage"):
 * the embedded SQLite file of the data directory by default, PostgreSQL when `DATABASE_URL` is set.
 */
export interface Storage {
  readonly store: Store;
  /** The SQLite connection (SQLite mode only): its WAL checkpoints and file-level tasks. */
  readonly db: Db | undefined;
  /** Starts the background work of the store once the server listens (SQLite's checkpoint worker). */
  start(log: WorkerLog): Promise<void>;
  /** Stops that work and closes the store; the server's last step. */
  close(): Promise<void>;
}

/** What {@link openStorage} reports while it opens the store and while the server runs. */
export interface StorageEvents {
  /** An idle PostgreSQL connection failed (not fatal: the pool replaces the connection). */
  onPoolError(error: Error): void;
  /** A standby (`TASKSPACE_STANDBY=1`) found the database held and waits to take over. */
  onStandby?(database: string, holder: string | undefined): void;
  /** The PostgreSQL server lock was lost while running: the server must stop working at once. */
  onLockLost(error: ServerLockLostError): void;
}

/**
 * Opens the configured store and brings its schema up to date.
 * - SQLite: takes the data directory's lock (one server per directory), opens the file and
 *   applies pending migrations.
 * - PostgreSQL: opens a pool, takes the database's server lock (postgres/server-lock.ts: one
 *   process doing the background work per database; with `config.standby` it waits for the lock
 *   instead of failing; `api` processes take none) and applies pending migrations under an
 *   advisory lock of their own.
 * @throws DataDirLockedError or DatabaseInUseError when another server holds the data directory
 *   or the database; the store's error when
 *   it cannot be opened or a migration fails (nothing is left open then).
 */
export async function openStorage(config: Config, events: StorageEvents): Promise<Storage> {
  if (config.databaseUrl) {
    const pool = createPostgresPool(config.databaseUrl);
    pool.on('error', (error) => events.onPoolError(error));
    let lock: ServerLock | undefined;
    try {
      // An api process does no background work: it runs beside the lock's holder.
      if (config.role !== 'api') lock = await lockDatabase(pool, { standby: config.standby, onWaiting: events.onStandby, onLost: events.onLockLost });
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
