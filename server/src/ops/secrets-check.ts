import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Config } from '../config';
import { SecretBox, SecretUnreadableError, SECRET_KEY_FILE } from '../platform/secret-box';

/**
 * Which stored secrets the configured key opens (`taskspace restore`, `taskspace doctor`; docs
 * "Operations", "Backup and restore"). Sealed values are the columns named `*_sealed` of any
 * table (webhook signing secrets, workspace secrets, …), each named by its table, column and
 * primary key.
 */

/** A store as these checks read it: every row of a statement without parameters. */
export type ReadRows = (sql: string) => Promise<Record<string, unknown>[]>;

/** {@link ReadRows} over a SQLite connection. */
export function sqliteRows(db: Database.Database): ReadRows {
  return async (sql) => db.prepare(sql).all() as Record<string, unknown>[];
}

/** {@link ReadRows} over a PostgreSQL client or pool. */
export function postgresRows(client: pg.ClientBase | pg.Pool): ReadRows {
  return async (sql) => (await client.query(sql)).rows as Record<string, unknown>[];
}

/** Where the secrets key of `config` comes from, or undefined when there is none (nothing is created). */
export function secretKeySource(config: Config): string | undefined {
  if (config.webhooks.secretKey !== undefined) return 'TASKSPACE_WEBHOOKS_SECRET_KEY';
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  return fs.existsSync(file) ? file : undefined;
}

/** The outcome of {@link checkSecrets}. */
export interface SecretsCheck {
  /** Where the key comes from ({@link secretKeySource}); undefined: no key. */
  keySource: string | undefined;
  /** Sealed values stored. */
  total: number;
  /** Those the key does not open, as `table.column (key=value, …)`. */
  unreadable: string[];
}

/** A sealed column and the primary key of its table. */
interface SealedColumn {
  table: string;
  column: string;
  keys: string[];
}

/**
 * Tries every sealed value of the store with the key of `config` (a missing key opens none).
 * Never creates a key file.
 * @throws the store's error.
 */
export async function checkSecrets(config: Config, rows: ReadRows, dialect: 'sqlite' | 'postgres'): Promise<SecretsCheck> {
  const keySource = secretKeySource(config);
  const box = keySource === undefined ? undefined : new SecretBox(config);
  const unreadable: string[] = [];
  let total = 0;
  for (const { table, column, keys } of await sealedColumns(rows, dialect)) {
    const select = [...keys, column].map((c) => `"${c}"`).join(', ');
    for (const row of await rows(`SELECT ${select} FROM "${table}" ORDER BY ${keys.map((c) => `"${c}"`).join(', ') || 1}`)) {
      total++;
      if (box && opens(box, String(row[column]))) continue;
      unreadable.push(`${table}.${column} (${keys.map((k) => `${k}=${String(row[k])}`).join(', ')})`);
    }
  }
  return { keySource, total, unreadable };
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch (error) {
    if (error instanceof SecretUnreadableError) return false;
    throw error;
  }
}

/** Every `*_sealed` column of the schema with its table's primary key columns. */
async function sealedColumns(rows: ReadRows, dialect: 'sqlite' | 'postgres'): Promise<SealedColumn[]> {
  const found: SealedColumn[] = [];
  if (dialect === 'sqlite') {
    const tables = await rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    for (const { name } of tables) {
      const info = (await rows(`PRAGMA table_info("${String(name)}")`)) as { name: string; pk: number }[];
      const keys = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      for (const c of info)
        if (c.name.endsWith('_sealed')) found.push({ table: String(name), column: c.name, keys: keys.map((k) => k.name) });
    }
    return found;
  }
  const columns = await rows(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name LIKE '%\\_sealed' ORDER BY table_name, column_name`,
  );
  for (const { t, c } of columns) {
    const keys = await rows(
      `SELECT a.attname AS k FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = '"${String(t)}"'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
    );
    found.push({ table: String(t), column: String(c), keys: keys.map((k) => String(k.k)) });
  }
  return found;
}

/** The lines `taskspace restore` and `taskspace doctor` print about {@link SecretsCheck}. */
export function describeSecrets(check: SecretsCheck, dataDir: string): { ok: boolean; lines: string[] } {
  const key = check.keySource ?? `none (neither TASKSPACE_WEBHOOKS_SECRET_KEY nor ${path.join(dataDir, SECRET_KEY_FILE)})`;
  if (check.keySource === undefined && check.total === 0) {
    return { ok: true, lines: [`secrets key: ${key}; no secret is stored yet (the server makes a key file when it first seals one)`] };
  }
  if (check.unreadable.length === 0) {
    return { ok: true, lines: [`secrets key: ${key}; it opens all ${check.total} stored secret(s)`] };
  }
  return {
    ok: false,
    lines: [
      `secrets key: ${key}; ${check.unreadable.length} of ${check.total} stored secret(s) cannot be opened with it:`,
      ...check.unreadable.map((name) => `  unreadable: ${name}`),
      `Give the service the key they were sealed with (copy the original ${SECRET_KEY_FILE} into ${dataDir}, or set ` +
        'TASKSPACE_WEBHOOKS_SECRET_KEY as before), or set those secrets again; `taskspace doctor` checks again.',
    ],
  };
}
