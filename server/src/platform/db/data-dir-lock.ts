import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The lock file and the note naming its holder, inside the data directory. */
const LOCK_FILE = 'taskspace.lock';
const HOLDER_FILE = 'taskspace.lock.json';

/** Who holds a data directory (written by the holder, read by a refused second server). */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO 8601. */
  startedAt: string;
}

/** A second server was started on a data directory a running server holds. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder ? `process ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}` : 'another process';
    super(
      `the data directory ${dataDir} is in use by another Taskspace server (${who}). ` +
        'Stop that server first, or start this one with TASKSPACE_DATA_DIR pointing at another directory. ' +
        '(The admin CLI may run beside a server; two servers may not.)',
    );
    this.name = 'DataDirLockedError';
  }
}

/** A held data directory lock. */
export interface DataDirLock {
  /** Releases the lock (idempotent). */
  release(): void;
}

function readHolder(dataDir: string): LockHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * Takes the exclusive lock of a data directory for one server process (docs "Operations",
 * "One server per data directory"). The lock is SQLite's own exclusive file lock on
 * `taskspace.lock`, held for the life of the connection: the operating system drops it when the
 * process ends in any way (kill -9 included), so a stale lock never blocks the next start, and a
 * second server — in another process or the same one — is refused at once.
 * @throws DataDirLockedError naming the directory and the holder (pid, host, start time).
 */
export function lockDataDir(dataDir: string, now: () => number = Date.now): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, LOCK_FILE));
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in EXCLUSIVE locking mode it is kept after COMMIT.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (id INTEGER PRIMARY KEY); COMMIT;');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirLockedError(dataDir, readHolder(dataDir));
    throw error;
  }
  const holder: LockHolder = { pid: process.pid, hostname: os.hostname(), startedAt: new Date(now()).toISOString() };
  fs.writeFileSync(path.join(dataDir, HOLDER_FILE), JSON.stringify(holder) + '\n');
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      fs.rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
      db.close();
    },
  };
}
