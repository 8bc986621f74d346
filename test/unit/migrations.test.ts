import Database from 'better-sqlite3';
import { migrate, migrationsFor, type Migration, type PairedMigration } from '../../server/src/platform/db/migrate';
import { migrations } from '../../server/src/platform/db/migrations';

/**
 * The one migration list (server/src/platform/db/migrations): its order, the frozen baseline pair
 * as installed databases recorded it, both stores' SQL in every later entry, and the SQLite runner
 * taking its own store's SQL. test/postgres/schema.test.ts compares the schemas both sides make.
 */

const [baseline, ...later] = migrations;

/** True when `versions` only go up. */
const strictlyIncreasing = (versions: number[]): boolean => versions.every((v, i) => i === 0 || v > versions[i - 1]!);

/** The version and name of each migration, as `schema_migrations` records them. */
const records = (list: readonly Migration[]): { version: number; name: string }[] => list.map(({ version, name }) => ({ version, name }));

describe('the migration list', () => {
  test('versions strictly increase: the baseline, then each later entry', () => {
    expect(strictlyIncreasing([baseline.version, ...later.map((m) => m.version)])).toBe(true);
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const versions = migrationsFor(migrations, dialect).map((m) => m.version);
      expect(strictlyIncreasing(versions)).toBe(true);
    }
  });

  test('the baseline pair ends, on both stores, at its version, under the versions and names installed databases recorded', () => {
    expect(baseline.version).toBe(20);
    expect(records(baseline.sqlite)).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'webhooks' },
      { version: 3, name: 'automations' },
      { version: 4, name: 'task_parent_index' },
      { version: 6, name: 'agent_knowledge_cleanup' },
      { version: 10, name: 'accounts' },
      { version: 13, name: 'project_version' },
      { version: 14, name: 'run_replay' },
      { version: 15, name: 'approval_links' },
      { version: 16, name: 'oauth' },
      { version: 17, name: 'workspace_secrets' },
      { version: 18, name: 'inbound_runs' },
      { version: 19, name: 'task_children_index' },
      { version: 20, name: 'delivery_event_index' },
    ]);
    expect(records(baseline.postgres)).toEqual([{ version: 20, name: 'baseline' }]);
    for (const step of [...baseline.sqlite, ...baseline.postgres]) expect(step.up.trim()).not.toBe('');
  });

  test('every entry after the baseline has a name and SQL for both stores', () => {
    expect(later.length).toBeGreaterThan(0);
    for (const migration of later) {
      expect(migration.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(Object.keys(migration.up).sort()).toEqual(['postgres', 'sqlite']);
      expect(migration.up.sqlite.trim()).not.toBe('');
      expect(migration.up.postgres.trim()).not.toBe('');
    }
    // The same versions and names on both stores after the baseline.
    const after = (list: Migration[]): { version: number; name: string }[] => records(list.filter((m) => m.version > baseline.version));
    expect(after(migrationsFor(migrations, 'postgres'))).toEqual(after(migrationsFor(migrations, 'sqlite')));
  });

  test('the SQLite runner applies its own SQL of a later entry, once', () => {
    const db = new Database(':memory:');
    try {
      const next = later[later.length - 1]!.version + 1;
      const extra: PairedMigration = {
        version: next,
        name: 'extra',
        up: { sqlite: 'CREATE TABLE made_on_sqlite (id INTEGER);', postgres: 'CREATE TABLE made_on_postgres (id BIGINT);' },
      };
      migrate(db, [...migrations, extra]);
      migrate(db, [...migrations, extra]);
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'made_on_%'").pluck().all();
      expect(tables).toEqual(['made_on_sqlite']);
      const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
      expect(applied).toEqual(records(migrationsFor([...migrations, extra], 'sqlite')));
    } finally {
      db.close();
    }
  });
});
