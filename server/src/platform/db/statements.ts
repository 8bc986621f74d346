import type Database from 'better-sqlite3';

/**
 * A SQLite connection with its own prepared-statement cache (`connection.ts` `Db`; declared here
 * so that this module and `sqlite-sql.ts` do not import the connection module that imports them).
 */
export type StatementCache = Database.Database & {
  /** Prepared statements by SQL text, prepared on first use. */
  readonly statements: Map<string, Database.Statement<unknown[], unknown>>;
};

/**
 * A prepared statement for `text` on `db`, prepared once per connection and reused
 * (better-sqlite3 statements are cheap to run but not to prepare).
 */
export function sql<P extends unknown[] | {} = unknown[], R = unknown>(db: StatementCache, text: string): Database.Statement<P, R> {
  let statement = db.statements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    db.statements.set(text, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}
