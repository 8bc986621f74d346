import type Database from 'better-sqlite3';
import { migrations } from './migrations';

/** One schema change. `version` numbers are unique and applied in ascending order. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run as one transaction. */
  up: string;
}

/**
 * Applies every migration whose version is above the stored `user_version`, each in its own
 * transaction, recording the new version as it goes.
 * @throws the SQLite error of the first failing migration (that migration is rolled back).
 */
export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => m.version > current);
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.up);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
