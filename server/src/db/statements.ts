import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for `text` on `db`, prepared once and reused (better-sqlite3 statements
 * are cheap to run but not to prepare).
 */
export function sql<P extends unknown[] | {} = unknown[], R = unknown>(
  db: Database.Database,
  text: string,
): Database.Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    cache.set(text, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}
