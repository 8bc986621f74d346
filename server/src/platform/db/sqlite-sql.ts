import { sql, type StatementCache } from './statements';
import type { Params, Query, RunResult, Sql } from './query';

/**
 * The {@link Sql} handle of the embedded store: statements run synchronously on the service's
 * one better-sqlite3 connection through its prepared-statement cache, so an operation never
 * yields and {@link runSync} runs it whole. Transactions nest with the connection's own
 * `transaction()` (platform/db/connection.ts) in either order: both use BEGIN IMMEDIATE outside
 * a transaction and a savepoint inside one.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;

  constructor(readonly db: StatementCache) {}

  // The generators below never yield: `yield*` on them returns at once.
  // eslint-disable-next-line require-yield
  *all<R>(text: string, params: Params = []): Query<R[]> {
    return sql<unknown[], R>(this.db, text).all(...params);
  }

  // eslint-disable-next-line require-yield
  *get<R>(text: string, params: Params = []): Query<R | undefined> {
    return sql<unknown[], R>(this.db, text).get(...params);
  }

  // eslint-disable-next-line require-yield
  *run(text: string, params: Params = []): Query<RunResult> {
    return { changes: sql(this.db, text).run(...params).changes };
  }

  /** Nothing: SQLite's single writer already orders transactions (see {@link Sql.lockForTransaction}). */
  // eslint-disable-next-line require-yield
  *lockForTransaction(): Query<void> {
    return;
  }

  /** False: SQLite takes no advisory locks (see {@link Sql.lockInNextStatement}). */
  lockInNextStatement(): boolean {
    return false;
  }

  *transaction<T>(body: (tx: Sql) => Query<T>): Query<T> {
    const db = this.db;
    const nested = db.inTransaction;
    sql(db, nested ? 'SAVEPOINT nested' : 'BEGIN IMMEDIATE').run();
    let finished = false;
    try {
      const result = yield* body(this);
      sql(db, nested ? 'RELEASE nested' : 'COMMIT').run();
      finished = true;
      return result;
    } finally {
      // Reached unfinished on a throw, and when runSync abandons an operation that yielded.
      // SQLite may already have rolled the whole transaction back (SQLITE_FULL, SQLITE_IOERR, ...).
      if (!finished && db.inTransaction) {
        if (nested) {
          sql(db, 'ROLLBACK TO nested').run();
          sql(db, 'RELEASE nested').run();
        } else sql(db, 'ROLLBACK').run();
      }
    }
  }
}
