import type Database from 'better-sqlite3';
import type { Dialect } from './query';

/**
 * One schema change as one store applies it: `up` runs as one transaction, recorded in
 * `schema_migrations` under `version` (unique) and `name`. The frozen baseline (versions 1–20)
 * is made of these, one list per store; {@link migrationsFor} turns the whole list into these.
 */
export interface Migration {
  version: number;
  name: string;
  /** SQL run as one transaction. */
  up: string;
}

/** One schema change after the baseline: its SQL for each store, bringing both schemas to the same state. */
export interface PairedMigration {
  version: number;
  name: string;
  /** The SQL run as one transaction, per store (SQLite's, PostgreSQL's). */
  up: Readonly<Record<Dialect, string>>;
}

/**
 * The frozen start of the list: the schema at `version` (20) as each store reached it, each
 * store's migrations applied and recorded one by one. SQLite went there in 14 steps
 * (001…020, with gaps), PostgreSQL in one (version 20, `baseline`).
 */
export interface MigrationBaseline {
  /** The version the schema is at once the baseline is applied: the last version of each side. */
  version: number;
  sqlite: readonly Migration[];
  postgres: readonly Migration[];
}

/** Every schema change: the baseline pair, then one {@link PairedMigration} per later version. */
export type MigrationList = readonly [MigrationBaseline, ...PairedMigration[]];

/**
 * The migrations `dialect` applies, in list order: its side of the baseline, then each later
 * migration with that store's SQL as `up`. Versions and names are the ones already recorded in
 * existing databases (SQLite: 1, 2, 3, 4, 6, 10, 13…; PostgreSQL: 20, 21…).
 */
export function migrationsFor(list: MigrationList, dialect: Dialect): Migration[] {
  const [baseline, ...later] = list;
  return [...baseline[dialect], ...later.map(({ version, name, up }) => ({ version, name, up: up[dialect] }))];
}

/**
 * Applies every SQLite migration of `list` not yet recorded in `schema_migrations`, each in its
 * own transaction together with its record, in ascending version order. Recording each one
 * (rather than only the highest version) means a migration numbered below one already applied
 * still runs.
 * @param list the migrations: the service's are `migrations` of `./migrations` (passed in, so
 *   that the list, whose entries import this module's types, is not imported here).
 * @throws the SQLite error of the first failing migration (that migration is rolled back).
 */
export function migrate(db: Database.Database, list: MigrationList): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const pending = migrationsFor(list, 'sqlite')
    .sort((a, b) => a.version - b.version)
    .filter((m) => !applied.has(m.version));
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
