import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { openDatabase, type Db } from '../../server/src/platform/db/connection';
import { migrationsFor, type PairedMigration } from '../../server/src/platform/db/migrate';
import { migrations } from '../../server/src/platform/db/migrations';
import { migratePostgres } from '../../server/src/platform/db/postgres/migrate';
import { createPostgresPool } from '../../server/src/platform/db/postgres/pool';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';

/**
 * The PostgreSQL schema (server/src/platform/db/postgres) against the SQLite one it mirrors: the
 * migration runner, the catalog of both (tables, columns, keys, indexes, triggers), and the same
 * statements run on both databases giving the same rows, trigger effects and constraint errors.
 */

/** A time in ms past 2^31, so BIGINT (not INTEGER) columns are needed and read back as numbers. */
const T0 = 1_700_000_000_000;

/** What each store applies of the one migration list (server/src/platform/db/migrations). */
const [sqliteMigrations, postgresMigrations] = [migrationsFor(migrations, 'sqlite'), migrationsFor(migrations, 'postgres')];

/** The tables only the migration runners make. */
const RUNNER_TABLES = ['schema_migrations'];

/** One column as both catalogs can describe it. */
interface ColumnShape {
  name: string;
  /** PostgreSQL's name of the type (SQLite's declared type mapped). */
  type: string;
  notNull: boolean;
  /** The default's SQL text without a cast, or null. */
  default: string | null;
}

/** An explicitly created index: its table, key columns (or lower(column) expressions) and kind. */
interface IndexShape {
  table: string;
  columns: string[];
  unique: boolean;
  partial: boolean;
}

/** A trigger: its table, timing, event and, for UPDATE OF, the columns. */
interface TriggerShape {
  table: string;
  timing: string;
  event: string;
  columns: string[];
}

/** Everything compared between the two catalogs, by table (indexes and triggers by name). */
interface SchemaShape {
  columns: Record<string, ColumnShape[]>;
  primaryKeys: Record<string, string[]>;
  /** Per table, the column lists of its UNIQUE constraints, each joined with ',', sorted. */
  uniques: Record<string, string[]>;
  /** Per table, `cols -> table(cols) ON DELETE x ON UPDATE y`, sorted. */
  foreignKeys: Record<string, string[]>;
  /** Per table, how many CHECK constraints it has. */
  checks: Record<string, number>;
  indexes: Record<string, IndexShape>;
  triggers: Record<string, TriggerShape>;
}

/** PostgreSQL type of each SQLite declared type (pg's data_type spelling). */
const TYPE_MAP: Record<string, string> = { INTEGER: 'bigint', TEXT: 'text', REAL: 'double precision', BLOB: 'bytea' };

/** SQLite's spelling of a PostgreSQL foreign key action (pg_constraint.confdeltype/confupdtype). */
const FK_ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/** Groups `[key, value]` pairs into a record of arrays, keeping the order of the values. */
function group<T>(pairs: [string, T][]): Record<string, T[]> {
  const out: Record<string, T[]> = {};
  for (const [key, value] of pairs) (out[key] ??= []).push(value);
  return out;
}

/** The SQLite schema made by the SQLite migrations, in the terms of {@link SchemaShape}. */
function sqliteShape(db: Db): SchemaShape {
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]
  ).filter((name) => !RUNNER_TABLES.includes(name));
  const shape: SchemaShape = { columns: {}, primaryKeys: {}, uniques: {}, foreignKeys: {}, checks: {}, indexes: {}, triggers: {} };
  for (const table of tables) {
    const columns = db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid').all(table) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    // A PRIMARY KEY column is NOT NULL on PostgreSQL; SQLite only guarantees it for INTEGER
    // PRIMARY KEY, and the code never writes a NULL key.
    shape.columns[table] = columns.map((c) => ({
      name: c.name,
      type: TYPE_MAP[c.type] ?? c.type,
      notNull: c.notnull === 1 || c.pk > 0,
      default: c.dflt_value,
    }));
    shape.primaryKeys[table] = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);

    shape.uniques[table] = [];
    const indexList = db.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(table) as {
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }[];
    for (const index of indexList) {
      const keys = db.prepare('SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno').all(index.name) as {
        name: string | null;
        coll: string;
      }[];
      // On PostgreSQL a NOCASE column is indexed as lower(column).
      const columnsOf = keys.map((k) => (k.coll === 'NOCASE' ? `lower(${k.name})` : (k.name ?? '<expression>')));
      if (index.origin === 'c')
        shape.indexes[index.name] = { table, columns: columnsOf, unique: index.unique === 1, partial: index.partial === 1 };
      else if (index.origin === 'u' && keys.length === 1 && keys[0]!.coll === 'NOCASE') {
        // A column-level UNIQUE on a NOCASE column: the unique index <table>_<column>_nocase.
        shape.indexes[`${table}_${keys[0]!.name}_nocase`] = { table, columns: columnsOf, unique: true, partial: false };
      } else if (index.origin === 'u') shape.uniques[table].push(keys.map((k) => k.name).join(','));
    }
    shape.uniques[table].sort();

    const fkRows = db
      .prepare('SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq')
      .all(table) as {
      id: number;
      table: string;
      from: string;
      to: string;
      on_update: string;
      on_delete: string;
    }[];
    shape.foreignKeys[table] = Object.values(group(fkRows.map((r) => [String(r.id), r])))
      .map(
        (parts) =>
          `${parts.map((p) => p.from).join(',')} -> ${parts[0]!.table}(${parts.map((p) => p.to).join(',')}) ON DELETE ${parts[0]!.on_delete} ON UPDATE ${parts[0]!.on_update}`,
      )
      .sort();
    const tableSql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table) as string;
    shape.checks[table] = tableSql.match(/\bCHECK\s*\(/gi)?.length ?? 0;
  }
  const triggers = db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
    name: string;
    tbl_name: string;
    sql: string;
  }[];
  for (const trigger of triggers) {
    const match = /^CREATE\s+TRIGGER\s+\w+\s+(BEFORE|AFTER|INSTEAD\s+OF)?\s*(INSERT|UPDATE|DELETE)(?:\s+OF\s+([\w\s,]+?))?\s+ON\b/i.exec(
      trigger.sql,
    );
    if (!match) throw new Error(`unparsed trigger ${trigger.name}: ${trigger.sql}`);
    shape.triggers[trigger.name] = {
      table: trigger.tbl_name,
      timing: (match[1] ?? 'BEFORE').toUpperCase(),
      event: match[2]!.toUpperCase(),
      columns: (match[3] ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
        .sort(),
    };
  }
  return shape;
}

/** The PostgreSQL schema in schema `public`, in the terms of {@link SchemaShape}. */
async function postgresShape(pool: pg.Pool): Promise<SchemaShape> {
  const shape: SchemaShape = { columns: {}, primaryKeys: {}, uniques: {}, foreignKeys: {}, checks: {}, indexes: {}, triggers: {} };
  const columns = await pool.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> ALL ($1) ORDER BY table_name, ordinal_position`,
    [RUNNER_TABLES],
  );
  for (const c of columns.rows) {
    // PostgreSQL shows a literal default with its cast ('write'::text); SQLite without.
    const column = {
      name: c.column_name,
      type: c.data_type,
      notNull: c.is_nullable === 'NO',
      default: c.column_default?.replace(/::[\w ]+$/, '') ?? null,
    };
    (shape.columns[c.table_name] ??= []).push(column);
    shape.primaryKeys[c.table_name] ??= [];
    shape.uniques[c.table_name] ??= [];
    shape.foreignKeys[c.table_name] ??= [];
    shape.checks[c.table_name] ??= 0;
  }

  const constraints = await pool.query<{
    table: string;
    contype: string;
    columns: string[];
    ref_table: string;
    ref_columns: string[];
    confdeltype: string;
    confupdtype: string;
  }>(
    `SELECT c.conrelid::regclass::text AS table, c.contype,
            array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.ord) AS columns,
            c.confrelid::regclass::text AS ref_table,
            array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.ord) AS ref_columns,
            c.confdeltype, c.confupdtype
       FROM pg_constraint c
      WHERE c.connamespace = 'public'::regnamespace AND c.conrelid <> 0 AND c.conrelid::regclass::text <> ALL ($1)`,
    [RUNNER_TABLES],
  );
  for (const c of constraints.rows) {
    if (c.contype === 'p') shape.primaryKeys[c.table] = c.columns;
    else if (c.contype === 'u') shape.uniques[c.table]!.push(c.columns.join(','));
    else if (c.contype === 'c') shape.checks[c.table]! += 1;
    else if (c.contype === 'f') {
      shape.foreignKeys[c.table]!.push(
        `${c.columns.join(',')} -> ${c.ref_table}(${c.ref_columns.join(',')}) ON DELETE ${FK_ACTIONS[c.confdeltype]} ON UPDATE ${FK_ACTIONS[c.confupdtype]}`,
      );
    }
  }
  for (const table of Object.keys(shape.uniques)) {
    shape.uniques[table]!.sort();
    shape.foreignKeys[table]!.sort();
  }

  // Only the indexes created by CREATE INDEX: PostgreSQL also makes one for each PRIMARY KEY
  // (<table>_pkey) and UNIQUE constraint (<table>_<columns>_key), where SQLite makes its
  // sqlite_autoindex_* (which have no sql, so sqlite_master's explicit ones leave them out too).
  // Those constraints are compared above as primary keys and uniques. pg_index (what pg_indexes
  // is built on) also gives uniqueness, the partial predicate and each key column's definition.
  const indexes = await pool.query<{ name: string; table: string; columns: string[]; unique: boolean; partial: boolean }>(
    `SELECT ic.relname AS name, tc.relname AS table, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
            array(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts::int) k ORDER BY k) AS columns
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class tc ON tc.oid = i.indrelid
      WHERE tc.relnamespace = 'public'::regnamespace AND tc.relname <> ALL ($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))`,
    [RUNNER_TABLES],
  );
  for (const i of indexes.rows) shape.indexes[i.name] = { table: i.table, columns: i.columns, unique: i.unique, partial: i.partial };

  // information_schema.triggers has one row per event; triggered_update_columns the UPDATE OF list.
  const triggers = await pool.query<{ name: string; table: string; timing: string; event: string; columns: string[] }>(
    `SELECT t.trigger_name AS name, t.event_object_table AS table, t.action_timing AS timing, t.event_manipulation AS event,
            array(SELECT u.event_object_column::text FROM information_schema.triggered_update_columns u
                   WHERE u.trigger_schema = t.trigger_schema AND u.trigger_name = t.trigger_name ORDER BY 1) AS columns
       FROM information_schema.triggers t WHERE t.trigger_schema = 'public'`,
  );
  for (const t of triggers.rows) {
    if (shape.triggers[t.name]) throw new Error(`trigger ${t.name} has several events; SQLite triggers have one`);
    shape.triggers[t.name] = { table: t.table, timing: t.timing, event: t.event, columns: t.columns };
  }
  return shape;
}

/** One way to run the same statements on both databases, written with `$1`-style parameters. */
interface Store {
  run(text: string, params?: unknown[]): Promise<void>;
  all<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** SQL comparing a NOCASE column with a parameter, case-insensitively, as each database does it. */
  nocaseEquals(column: string, parameter: string): string;
}

/** SQLite: `$1` becomes the named parameter `@p1` (better-sqlite3 binds no numbered ones). */
function sqliteStore(db: Db): Store {
  const text = (sql: string): string => sql.replace(/\$(\d+)/g, '@p$1');
  const named = (params: unknown[]): Record<string, unknown> => Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
  return {
    run: async (sql, params = []) => void db.prepare(text(sql)).run(named(params)),
    all: async <T>(sql: string, params: unknown[] = []) => db.prepare(text(sql)).all(named(params)) as T[],
    nocaseEquals: (column, parameter) => `${column} = ${parameter}`,
  };
}

/** PostgreSQL through the service's pool. */
function postgresStore(pool: pg.Pool): Store {
  return {
    run: async (sql, params = []) => void (await pool.query(sql, params)),
    all: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    // The comparison m020Baseline's comment prescribes for NOCASE columns.
    nocaseEquals: (column, parameter) => `lower(${column}) = lower(${parameter} COLLATE "C")`,
  };
}

/** How a statement ended, in words both databases' errors map to. */
type Outcome = 'ok' | 'unique' | 'check' | 'foreign key' | 'not null';

/** SQLite's extended result codes and PostgreSQL's SQLSTATEs of constraint violations. */
const VIOLATIONS: Record<string, Outcome> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign key',
  SQLITE_CONSTRAINT_NOTNULL: 'not null',
  '23505': 'unique',
  '23514': 'check',
  '23503': 'foreign key',
  '23502': 'not null',
};

/** The outcome of `statement`; rethrows anything but a constraint violation. */
async function outcome(statement: Promise<unknown>): Promise<Outcome> {
  try {
    await statement;
    return 'ok';
  } catch (error) {
    const kind = VIOLATIONS[(error as { code?: string }).code ?? ''];
    if (!kind) throw error;
    return kind;
  }
}

/** Ids of a user, a workspace and its home folder, all prefixed with `p` (one prefix per test). */
async function seedWorkspace(s: Store, p: string): Promise<{ user: string; workspace: string; folder: string }> {
  const ids = { user: `${p}-user`, workspace: `${p}-ws`, folder: `${p}-ws` };
  await s.run('INSERT INTO users (id, handle, display_name, created_at) VALUES ($1, $1, $2, $3)', [ids.user, 'Ada', T0]);
  await s.run('INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)', [ids.workspace, 'Space', T0]);
  await s.run('INSERT INTO folders (id, workspace_id, name, created_at) VALUES ($1, $2, $3, $4)', [ids.folder, ids.workspace, 'Home', T0]);
  return ids;
}

/** Adds project `id` to the folder (defaults for is_template, version and the rest). */
async function addProject(
  s: Store,
  ws: { workspace: string; folder: string; user: string },
  id: string,
  folder = ws.folder,
): Promise<void> {
  await s.run(
    'INSERT INTO projects (id, workspace_id, folder_id, name, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
    [id, ws.workspace, folder, `Project ${id}`, ws.user, T0],
  );
}

/** Adds task `id` at `path` (its rank is the last segment) with the defaults for the rest. */
async function addTask(
  s: Store,
  project: string,
  id: string,
  path: string,
  parent: string | null = null,
  createdBy: string | null = null,
): Promise<void> {
  await s.run(
    'INSERT INTO tasks (id, project_id, parent_id, rank, path, text, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)',
    [id, project, parent, path.split('.').pop(), path, `Task ${id}`, createdBy, T0],
  );
}

describe('PostgreSQL schema', () => {
  const databases: TestDatabase[] = [];
  const pools: pg.Pool[] = [];
  /** A fresh database, dropped in afterAll. */
  const freshDatabase = async (): Promise<TestDatabase> => {
    const database = await createTestDatabase();
    databases.push(database);
    return database;
  };
  /** A service pool on `url`, ended in afterAll. */
  const openPool = (url: string): pg.Pool => {
    const pool = createPostgresPool(url, { max: 2 });
    pools.push(pool);
    return pool;
  };
  const lockCount = async (pool: pg.Pool): Promise<number> =>
    (
      await pool.query<{ n: number }>(
        "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      )
    ).rows[0]!.n;

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(databases.map((database) => database.drop()));
  });

  test('three processes migrating one database at once apply each migration once', async () => {
    const database = await freshDatabase();
    const [first, second, third] = [openPool(database.url), openPool(database.url), openPool(database.url)];
    await Promise.all([first, second, third].map((pool) => migratePostgres(pool)));
    const applied = (
      await first.query<{ version: number; name: string; applied_at: number }>(
        'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
      )
    ).rows;
    expect(applied.map(({ version, name }) => ({ version, name }))).toEqual(
      [...postgresMigrations].sort((a, b) => a.version - b.version).map(({ version, name }) => ({ version, name })),
    );
    expect(applied.every((row) => typeof row.applied_at === 'number' && row.applied_at > T0)).toBe(true);
    // A later start finds nothing to do, and nobody is left holding the migration lock.
    await migratePostgres(second);
    expect((await first.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')).rows).toEqual(applied);
    expect(await lockCount(first)).toBe(0);
  });

  test('a failing migration is rolled back and its error thrown; the ones before it stay', async () => {
    const database = await freshDatabase();
    const pool = openPool(database.url);
    const shipped = postgresMigrations.map((m) => ({ version: m.version })).sort((a, b) => a.version - b.version);
    const next = shipped[shipped.length - 1]!.version + 1;
    const broken: PairedMigration = {
      version: next,
      name: 'broken',
      up: { sqlite: '', postgres: 'CREATE TABLE made_by_broken (id BIGINT); SELECT * FROM no_such_table;' },
    };
    await expect(migratePostgres(pool, [...migrations, broken])).rejects.toMatchObject({ code: '42P01' });
    expect((await pool.query("SELECT to_regclass('made_by_broken') AS t")).rows[0].t).toBeNull();
    expect((await pool.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual(shipped);
    expect(await lockCount(pool)).toBe(0);
    const fixed: PairedMigration = { ...broken, up: { sqlite: '', postgres: 'CREATE TABLE made_by_broken (id BIGINT);' } };
    await migratePostgres(pool, [...migrations, fixed]);
    expect((await pool.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual([...shipped, { version: next }]);
  });

  describe('against SQLite', () => {
    let sqlite: Db;
    let pool: pg.Pool;
    let stores: { sqlite: Store; postgres: Store };

    beforeAll(async () => {
      // A data directory like helpers/server.ts's tempDataDir makes, without loading the whole app:
      // under jest, os.tmpdir() is the run's folder, removed by the global teardown.
      sqlite = openDatabase(fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-test-')));
      pool = openPool((await freshDatabase()).url);
      await migratePostgres(pool);
      stores = { sqlite: sqliteStore(sqlite), postgres: postgresStore(pool) };
    });
    afterAll(() => sqlite?.close());

    /** Runs `scenario` on SQLite, then on PostgreSQL: both must observe `expected`. */
    const onBoth = async <T>(scenario: (s: Store) => Promise<T>, expected: T): Promise<void> => {
      expect(await scenario(stores.sqlite)).toEqual(expected);
      expect(await scenario(stores.postgres)).toEqual(expected);
    };

    test('every PostgreSQL migration pairs a SQLite one: the latest versions are equal', () => {
      const latest = (list: { version: number }[]): number => Math.max(...list.map((m) => m.version));
      expect(latest(postgresMigrations)).toBe(latest(sqliteMigrations));
    });

    test('the same tables, with the same columns in the same order, types, nullability and defaults', async () => {
      const [expected, actual] = [sqliteShape(sqlite), await postgresShape(pool)];
      expect(Object.keys(actual.columns).sort()).toEqual(Object.keys(expected.columns).sort());
      expect(actual.columns).toEqual(expected.columns);
    });

    test('the same primary keys, UNIQUE constraints, foreign keys with their actions, and CHECK constraints', async () => {
      const [expected, actual] = [sqliteShape(sqlite), await postgresShape(pool)];
      expect(actual.primaryKeys).toEqual(expected.primaryKeys);
      expect(actual.uniques).toEqual(expected.uniques);
      expect(actual.foreignKeys).toEqual(expected.foreignKeys);
      expect(actual.checks).toEqual(expected.checks);
    });

    test('the same indexes (NOCASE ones on lower(column)) and triggers, by name', async () => {
      const [expected, actual] = [sqliteShape(sqlite), await postgresShape(pool)];
      expect(Object.keys(actual.indexes).sort()).toEqual(Object.keys(expected.indexes).sort());
      expect(actual.indexes).toEqual(expected.indexes);
      expect(actual.triggers).toEqual(expected.triggers);
    });

    test('every TEXT column compares bytewise, as SQLite BINARY does, whatever the database locale', async () => {
      const { rows } = await pool.query<{ column: string; collation: string | null }>(
        `SELECT table_name || '.' || column_name AS column, collation_name AS collation FROM information_schema.columns
          WHERE table_schema = 'public' AND data_type = 'text' AND table_name <> ALL ($1)`,
        [RUNNER_TABLES],
      );
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.filter((row) => row.collation !== 'C')).toEqual([]);
    });

    test('rows read back identical: column order, defaults, numbers, text order', async () => {
      const paths = ['a', 'B', 'a.b', 'a0', 'a-b', 'b', 'Z', 'é', '~'];
      const read = async (s: Store) => {
        const ws = await seedWorkspace(s, 'rows');
        await addProject(s, ws, 'rows-p');
        for (const [i, path] of paths.entries()) await addTask(s, 'rows-p', `rows-t${i}`, path);
        await s.run('INSERT INTO events (id, type, workspace_id, payload_json, created_at) VALUES ($1, $2, $3, $4, $5)', [
          'rows-e1',
          'task.created',
          ws.workspace,
          '{}',
          T0,
        ]);
        await s.run('INSERT INTO events (id, type, workspace_id, payload_json, created_at) VALUES ($1, $2, $3, $4, $5)', [
          'rows-e2',
          'task.created',
          ws.workspace,
          '{}',
          T0 + 1,
        ]);
        const events = await s.all<{ seq: number; id: string; depth: number }>("SELECT * FROM events WHERE id LIKE 'rows-%' ORDER BY seq");
        return {
          users: await s.all('SELECT * FROM users WHERE id = $1', [ws.user]),
          projects: await s.all('SELECT * FROM projects WHERE id = $1', ['rows-p']),
          tasks: await s.all('SELECT * FROM tasks WHERE project_id = $1 ORDER BY path', ['rows-p']),
          // seq values depend on what else the database holds; their type and order do not.
          events: events.map(({ seq, ...rest }) => ({ ...rest, seqIsNumber: typeof seq === 'number' })),
          seqAscending: events[1]!.seq > events[0]!.seq,
          aggregates: await s.all('SELECT count(*) AS n, max(created_at) AS latest FROM tasks WHERE project_id = $1', ['rows-p']),
        };
      };
      const onSqlite = await read(stores.sqlite);
      const onPostgres = await read(stores.postgres);
      expect(onPostgres).toEqual(onSqlite);
      // What both returned is what SQLite's schema promises, not an accident of the comparison.
      expect(onSqlite.projects).toEqual([
        expect.objectContaining({ id: 'rows-p', is_template: 0, version: paths.length, share_token: null, created_at: T0 }),
      ]);
      expect((onSqlite.tasks as { path: string; content_type: string; completed: number }[]).map((t) => t.path)).toEqual(
        [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
      expect(onSqlite.tasks[0]).toMatchObject({ content_type: 'text/markdown', completed: 0 });
      expect(onSqlite.events).toEqual([
        expect.objectContaining({ id: 'rows-e1', depth: 0, seqIsNumber: true }),
        expect.objectContaining({ id: 'rows-e2', depth: 0, seqIsNumber: true }),
      ]);
      expect(onSqlite.aggregates).toEqual([{ n: paths.length, latest: T0 }]);
    });

    test('a BIGINT beyond the safe integer range fails its query instead of losing precision', async () => {
      await expect(pool.query('SELECT 9007199254740993::bigint AS n')).rejects.toThrow(RangeError);
      expect((await pool.query('SELECT 9007199254740991::bigint AS n, -5::bigint AS m')).rows).toEqual([{ n: 9007199254740991, m: -5 }]);
    });

    test('tasks_bump_version_*: adding, removing, moving, renaming, reordering or (un)completing a task bumps its project', async () => {
      await onBoth(
        async (s) => {
          const ws = await seedWorkspace(s, 'bump');
          await addProject(s, ws, 'bump-p1');
          await addProject(s, ws, 'bump-p2');
          const versions = async (): Promise<number[]> =>
            (await s.all<{ version: number }>('SELECT version FROM projects WHERE id IN ($1, $2) ORDER BY id', ['bump-p1', 'bump-p2'])).map(
              (r) => r.version,
            );
          const seen: Record<string, number[]> = { created: await versions() };
          await addTask(s, 'bump-p1', 'bump-t1', 'a');
          seen.insert = await versions();
          await s.run(
            'INSERT INTO tasks (id, project_id, rank, path, text, created_at, updated_at) VALUES ($1, $2, $3, $3, $4, $5, $5), ($6, $2, $7, $7, $4, $5, $5)',
            ['bump-t2', 'bump-p1', 'b', 'Two at once', T0, 'bump-t3', 'c'],
          );
          seen.insertTwoRows = await versions();
          await s.run('UPDATE tasks SET text = $1 WHERE id = $2', ['Renamed', 'bump-t1']);
          seen.rename = await versions();
          await s.run('UPDATE tasks SET updated_at = $1, note_value = $2 WHERE id = $3', [T0 + 1, 'note', 'bump-t1']);
          seen.unlistedColumns = await versions();
          await s.run('UPDATE tasks SET rank = rank WHERE id = $1', ['bump-t1']);
          seen.listedColumnUnchanged = await versions();
          await s.run('UPDATE tasks SET completed = 1 WHERE id = $1', ['bump-t1']);
          seen.complete = await versions();
          await s.run('UPDATE tasks SET parent_id = $1, path = $2 WHERE id = $3', ['bump-t1', 'a.b', 'bump-t2']);
          seen.reparent = await versions();
          await s.run('UPDATE tasks SET project_id = $1 WHERE id = $2', ['bump-p2', 'bump-t3']);
          seen.moveToOtherProject = await versions();
          await s.run('DELETE FROM tasks WHERE id = $1', ['bump-t3']);
          seen.delete = await versions();
          return seen;
        },
        {
          created: [0, 0],
          insert: [1, 0],
          insertTwoRows: [3, 0],
          rename: [4, 0],
          unlistedColumns: [4, 0],
          listedColumnUnchanged: [5, 0],
          complete: [6, 0],
          reparent: [7, 0],
          moveToOtherProject: [8, 1],
          delete: [8, 2],
        },
      );
    });

    test('projects_drop_agent_knowledge and media_drop_agent_knowledge: links go with a deleted project or media item, however deleted', async () => {
      await onBoth(
        async (s) => {
          const ws = await seedWorkspace(s, 'know');
          await s.run('INSERT INTO folders (id, workspace_id, parent_id, name, created_at) VALUES ($1, $2, $3, $4, $5)', [
            'know-sub',
            ws.workspace,
            ws.folder,
            'Sub',
            T0,
          ]);
          await addProject(s, ws, 'know-p1');
          await addProject(s, ws, 'know-p2', 'know-sub');
          await s.run(
            'INSERT INTO media (id, workspace_id, folder_id, kind, name, content_type, size_bytes, storage_key, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
            ['know-m1', ws.workspace, ws.folder, 'file', 'a.txt', 'text/plain', 3, 'key', T0],
          );
          await s.run(
            "INSERT INTO agents (id, workspace_id, folder_id, name, data_json, created_at, updated_at) VALUES ($1, $2, $3, $4, '{}', $5, $5)",
            ['know-a', ws.workspace, ws.folder, 'Agent', T0],
          );
          // The media link to 'know-p1' names a media id equal to a project's: it must survive that project.
          for (const [kind, ref] of [
            ['project', 'know-p1'],
            ['project', 'know-p2'],
            ['media', 'know-m1'],
            ['media', 'know-p1'],
          ]) {
            await s.run('INSERT INTO agent_knowledge (agent_id, kind, ref_id, added_at) VALUES ($1, $2, $3, $4)', [
              'know-a',
              kind,
              ref,
              T0,
            ]);
          }
          const links = async (): Promise<string[]> =>
            (
              await s.all<{ link: string }>(
                "SELECT kind || ':' || ref_id AS link FROM agent_knowledge WHERE agent_id = $1 ORDER BY kind, ref_id",
                ['know-a'],
              )
            ).map((r) => r.link);
          const seen: Record<string, string[]> = { linked: await links() };
          await s.run('DELETE FROM projects WHERE id = $1', ['know-p1']);
          seen.projectDeleted = await links();
          await s.run('DELETE FROM media WHERE id = $1', ['know-m1']);
          seen.mediaDeleted = await links();
          await s.run('DELETE FROM folders WHERE id = $1', ['know-sub']);
          seen.folderOfProjectDeleted = await links();
          return seen;
        },
        {
          linked: ['media:know-m1', 'media:know-p1', 'project:know-p1', 'project:know-p2'],
          projectDeleted: ['media:know-m1', 'media:know-p1', 'project:know-p2'],
          mediaDeleted: ['media:know-p1', 'project:know-p2'],
          folderOfProjectDeleted: ['media:know-p1'],
        },
      );
    });

    test('foreign keys cascade and set null alike', async () => {
      await onBoth(
        async (s) => {
          const ws = await seedWorkspace(s, 'casc');
          await s.run('INSERT INTO users (id, handle, display_name, created_at) VALUES ($1, $1, $2, $3)', ['casc-bob', 'Bob', T0]);
          await addProject(s, ws, 'casc-p');
          await addTask(s, 'casc-p', 'casc-t1', 'a');
          await addTask(s, 'casc-p', 'casc-t2', 'a.a', 'casc-t1');
          await addTask(s, 'casc-p', 'casc-t3', 'b', null, 'casc-bob');
          await s.run('INSERT INTO comments (id, task_id, project_id, author_id, text, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
            'casc-c',
            'casc-t2',
            'casc-p',
            'casc-bob',
            'Hi',
            T0,
          ]);
          await s.run('INSERT INTO task_assignees (task_id, user_id, assigned_at) VALUES ($1, $2, $3)', ['casc-t3', 'casc-bob', T0]);
          await s.run('INSERT INTO project_members (project_id, user_id, created_at) VALUES ($1, $2, $3)', ['casc-p', 'casc-bob', T0]);
          const count = async (sql: string): Promise<number> => Number((await s.all<{ n: number }>(sql, ['casc-%']))[0]!.n);
          const state = async () => ({
            tasks: await count('SELECT count(*) AS n FROM tasks WHERE id LIKE $1'),
            comments: await count('SELECT count(*) AS n FROM comments WHERE id LIKE $1'),
            commentsWithAuthor: await count('SELECT count(*) AS n FROM comments WHERE id LIKE $1 AND author_id IS NOT NULL'),
            assignees: await count('SELECT count(*) AS n FROM task_assignees WHERE task_id LIKE $1'),
            members: await count('SELECT count(*) AS n FROM project_members WHERE project_id LIKE $1'),
            tasksWithCreator: await count('SELECT count(*) AS n FROM tasks WHERE id LIKE $1 AND created_by IS NOT NULL'),
            projects: await count('SELECT count(*) AS n FROM projects WHERE id LIKE $1'),
          });
          const seen = { seeded: await state(), orphanTask: await outcome(addTask(s, 'casc-none', 'casc-t9', 'z')) };
          await s.run('DELETE FROM users WHERE id = $1', ['casc-bob']);
          const userDeleted = await state();
          await s.run('DELETE FROM tasks WHERE id = $1', ['casc-t1']);
          const parentTaskDeleted = await state();
          await s.run('DELETE FROM workspaces WHERE id = $1', [ws.workspace]);
          return { ...seen, userDeleted, parentTaskDeleted, workspaceDeleted: await state() };
        },
        {
          seeded: { tasks: 3, comments: 1, commentsWithAuthor: 1, assignees: 1, members: 1, tasksWithCreator: 1, projects: 1 },
          orphanTask: 'foreign key' as Outcome,
          userDeleted: { tasks: 3, comments: 1, commentsWithAuthor: 0, assignees: 0, members: 0, tasksWithCreator: 0, projects: 1 },
          parentTaskDeleted: { tasks: 1, comments: 0, commentsWithAuthor: 0, assignees: 0, members: 0, tasksWithCreator: 0, projects: 1 },
          workspaceDeleted: { tasks: 0, comments: 0, commentsWithAuthor: 0, assignees: 0, members: 0, tasksWithCreator: 0, projects: 0 },
        },
      );
    });

    test('NOCASE columns: unique and matched regardless of ASCII case, and only ASCII case', async () => {
      await onBoth(
        async (s) => {
          const addUser = (id: string, handle: string, email: string | null) =>
            outcome(
              s.run('INSERT INTO users (id, handle, display_name, email, created_at) VALUES ($1, $2, $3, $4, $5)', [
                id,
                handle,
                'Someone',
                email,
                T0,
              ]),
            );
          const inserted = {
            first: await addUser('nc-1', 'NoCase-Ada', 'Ada@Example.com'),
            handleInOtherCase: await addUser('nc-2', 'NOCASE-ada', 'other@example.com'),
            emailInOtherCase: await addUser('nc-3', 'nocase-bob', 'ada@EXAMPLE.COM'),
            nonAsciiHandle: await addUser('nc-4', 'Émile', null),
            // NOCASE folds ASCII letters only: É and é differ.
            nonAsciiOtherCase: await addUser('nc-5', 'émile', null),
            secondNullEmail: await addUser('nc-6', 'nocase-eve', null),
          };
          const find = async (column: string, value: string): Promise<string[]> =>
            (await s.all<{ id: string }>(`SELECT id FROM users WHERE ${s.nocaseEquals(column, '$1')} ORDER BY id`, [value])).map(
              (r) => r.id,
            );
          const found = {
            handle: await find('handle', 'nocase-ADA'),
            email: await find('email', 'ADA@example.COM'),
            nonAscii: await find('handle', 'ÉMILE'),
            nonAsciiFolded: await find('handle', 'éMILE'),
          };
          return { inserted, found };
        },
        {
          inserted: {
            first: 'ok',
            handleInOtherCase: 'unique',
            emailInOtherCase: 'unique',
            nonAsciiHandle: 'ok',
            nonAsciiOtherCase: 'ok',
            secondNullEmail: 'ok',
          } as Record<string, Outcome>,
          found: { handle: ['nc-1'], email: ['nc-1'], nonAscii: ['nc-4'], nonAsciiFolded: ['nc-5'] },
        },
      );
    });

    test('CHECK constraints reject the same rows', async () => {
      await onBoth(
        async (s) => {
          const ws = await seedWorkspace(s, 'chk');
          await s.run(
            "INSERT INTO agents (id, workspace_id, folder_id, name, data_json, created_at, updated_at) VALUES ($1, $2, $3, $4, '{}', $5, $5)",
            ['chk-a', ws.workspace, ws.folder, 'Agent', T0],
          );
          await s.run(
            "INSERT INTO webhooks (id, user_id, url, events_json, space_ids_json, all_spaces, secret_sealed, created_at, updated_at) VALUES ($1, $2, $3, '[]', '[]', 1, 's', $4, $4)",
            ['chk-w', ws.user, 'https://example.com/hook', T0],
          );
          const knowledge = (kind: string) =>
            outcome(
              s.run('INSERT INTO agent_knowledge (agent_id, kind, ref_id, added_at) VALUES ($1, $2, $3, $4)', [
                'chk-a',
                kind,
                `chk-${kind}`,
                T0,
              ]),
            );
          const delivery = (id: string, webhook: string | null) =>
            outcome(
              s.run(
                "INSERT INTO webhook_deliveries (id, webhook_id, subscription_id, event_seq, event_type, status, created_at) VALUES ($1, $2, NULL, 1, 'x', 'pending', $3)",
                [id, webhook, T0],
              ),
            );
          const client = (type: string) =>
            outcome(
              s.run('INSERT INTO oauth_clients (id, workspace_id, name, redirect_uris, type, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
                `chk-c-${type}`,
                ws.workspace,
                'App',
                '[]',
                type,
                T0,
              ]),
            );
          return {
            knowledgeProject: await knowledge('project'),
            knowledgeFolder: await knowledge('folder'),
            deliveryToWebhook: await delivery('chk-d1', 'chk-w'),
            deliveryToNothing: await delivery('chk-d2', null),
            publicClient: await client('public'),
            otherClient: await client('other'),
            // One row only, id 1 (the shared databases never write it elsewhere).
            schedulerStateOtherId: await outcome(s.run('INSERT INTO due_scheduler_state (id, scanned_until) VALUES (2, $1)', [T0])),
            missingNotNull: await outcome(s.run('INSERT INTO workspaces (id, name, created_at) VALUES ($1, NULL, $2)', ['chk-ws2', T0])),
          };
        },
        {
          knowledgeProject: 'ok',
          knowledgeFolder: 'check',
          deliveryToWebhook: 'ok',
          deliveryToNothing: 'check',
          publicClient: 'ok',
          otherClient: 'check',
          schedulerStateOtherId: 'check',
          missingNotNull: 'not null',
        } as Record<string, Outcome>,
      );
    });
  });
});
