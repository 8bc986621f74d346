import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { migrations } from './migrations';
import { sql } from './statements';
import { SqliteSql } from './sqlite-sql';

/**
 * The SQLite connection used across the server. It carries its own prepared-statement cache
 * ({@link sql} in platform/db/statements.ts), so two apps in one process share nothing.
 */
export class Db extends Database {
  /** Prepared statements by SQL text, prepared on first use. */
  readonly statements: Map<string, Database.Statement<unknown[], unknown>> = new Map();
  /** This connection as a {@link SqliteSql} handle, for storage operations (platform/db/query.ts). */
  readonly handle: SqliteSql = new SqliteSql(this);
}

/** File name of the embedded database inside the data directory. */
export const DB_FILE = 'taskspace.sqlite';

/**
 * Opens (creating if needed) the service database in `dataDir`, switches it to WAL mode with
 * foreign keys on, and applies pending migrations.
 * @throws when the directory cannot be created or a migration fails (the failed one is rolled back).
 */
export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Db(path.join(dataDir, DB_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A 64 MiB page cache and memory-mapped reads keep hot pages out of read() calls.
  db.pragma('cache_size = -65536');
  db.pragma('mmap_size = 268435456');
  db.pragma('temp_store = MEMORY');
  migrate(db, migrations);
  return db;
}

/**
 * Runs `fn` inside one SQLite transaction (BEGIN IMMEDIATE), committing on return and rolling
 * back on throw. Nested calls join the outer transaction through a savepoint, rolled back alone
 * when `fn` throws. The same semantics as better-sqlite3's `db.transaction(fn).immediate()`, without
 * building a wrapper function per call: the write path opens one or two of these per request.
 * @throws whatever `fn` throws (after the rollback); a TypeError when `fn` returns a promise (the
 *   transaction is rolled back: a transaction cannot span an await).
 */
export function transaction<T>(db: Db, fn: () => T): T {
  const nested = db.inTransaction;
  sql(db, nested ? 'SAVEPOINT nested' : 'BEGIN IMMEDIATE').run();
  try {
    const result = fn();
    if (typeof (result as { then?: unknown } | null)?.then === 'function')
      throw new TypeError('a transaction function cannot return a promise');
    sql(db, nested ? 'RELEASE nested' : 'COMMIT').run();
    return result;
  } catch (error) {
    // SQLite may already have rolled the whole transaction back (SQLITE_FULL, SQLITE_IOERR, ...).
    if (db.inTransaction) {
      if (nested) {
        sql(db, 'ROLLBACK TO nested').run();
        sql(db, 'RELEASE nested').run();
      } else sql(db, 'ROLLBACK').run();
    }
    throw error;
  }
}
