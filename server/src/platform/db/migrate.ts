import type Database from 'better-sqlite3';
import { migrations } from './migrations';

/** One schema change. `version` numbers are unique; pending ones are applied in ascending order. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run as one transaction. */
  up: string;
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, each in its own transaction
 * together with its record, in ascending version order. Recording each one (rather than only
 * the highest version) means a migration numbered below one already applied still runs.
 * @throws the SQLite error of the first failing migration (that migration is rolled back).
 */
export function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.up);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
    }).immediate();
  }
}
