import type Database from 'better-sqlite3';
import type { Db } from './connection';

/**
 * A prepared statement for `text` on `db`, prepared once per connection and reused
 * (better-sqlite3 statements are cheap to run but not to prepare).
 */
export function sql<P extends unknown[] | {} = unknown[], R = unknown>(db: Db, text: string): Database.Statement<P, R> {
  let statement = db.statements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    db.statements.set(text, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}
