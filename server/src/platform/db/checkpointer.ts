import { Worker } from 'node:worker_threads';
import type { Db } from './connection';
import type { WorkerLog } from '../worker-loop';

/**
 * WAL checkpoints mostly off the request path (docs "Architecture", "Checkpoints"). SQLite in WAL
 * mode appends each commit to the `-wal` file; a checkpoint copies those pages back into the
 * database file and syncs both. By default the connection that commits runs it, inside that
 * commit, every 1,000 pages: the request that happens to cross the mark waits for the copy and two
 * fsyncs. While the server listens, a worker thread with a connection of its own runs a passive
 * checkpoint every {@link CHECKPOINT_EVERY_MS}, which never blocks a reader or a writer, and the
 * service's connection checkpoints only past {@link SERVICE_CHECKPOINT_PAGES}. Under a steady
 * stream of writes a passive checkpoint never catches up with the last commit, and only a
 * checkpoint that has caught up lets the next writer start the WAL again from its beginning; so
 * the service's own checkpoint stays, rarer, and finds nearly every page already copied. The WAL
 * stays bounded and a restarted WAL file is cut back to {@link WAL_SIZE_LIMIT_BYTES}. Durability
 * is unchanged: a commit is acknowledged once it is in the WAL, as before, and a crash replays
 * the WAL at the next open.
 *
 * If the worker cannot start or fails, the service's connection checkpoints as by default.
 */

/** Time between two passive checkpoints, in ms. */
export const CHECKPOINT_EVERY_MS = 200;
/** WAL pages past which the service's connection checkpoints while the worker runs (16 MiB of 4 KiB pages). */
export const SERVICE_CHECKPOINT_PAGES = 4000;
/** Size, in bytes, a restarted WAL file is truncated to. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/** SQLite's own default, restored when the worker stops: checkpoint after a commit past 1,000 WAL pages. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker's code: opens the database file and checkpoints it until told to stop. Run from source
 * text (`eval`) so that the same code serves the built server and the test suites that load its
 * TypeScript sources; `driver` is the resolved path of better-sqlite3.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/** The checkpoint worker of one database connection; owned by the app (started on listen, stopped on close). */
export class WalCheckpointer {
  private worker: Worker | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: WorkerLog,
  ) {}

  /** Starts the worker; once it has opened the database, the service's connection checkpoints only past {@link SERVICE_CHECKPOINT_PAGES}. */
  async start(): Promise<void> {
    if (this.worker) return;
    this.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { file: this.db.name, driver: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS },
      });
    } catch (error) {
      this.log.error({ err: error }, 'WAL checkpoint worker could not start; the database connection checkpoints as by default');
      return;
    }
    this.worker = worker;
    // A server that exits without closing must not be held open by its checkpointer.
    worker.unref();
    worker.on('error', (error) => {
      this.log.error({ err: error }, 'WAL checkpoint worker failed; the database connection checkpoints as by default');
      this.fallBack(worker);
    });
    worker.on('exit', () => this.fallBack(worker));
    await new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
    });
    if (this.worker === worker) this.db.pragma(`wal_autocheckpoint = ${SERVICE_CHECKPOINT_PAGES}`);
  }

  /** Stops the worker after a last checkpoint; the service's connection checkpoints as by default again. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Held while it stops: unref'd, it would leave a caller awaiting close() with an empty event
    // loop, and the process would exit before the last checkpoint and the database's close.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  /** `worker` is gone: the connection checkpoints as by default again. */
  private fallBack(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
