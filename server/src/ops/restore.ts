import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { Config } from '../config';
import { DB_FILE } from '../platform/db/connection';
import { migrationsFor } from '../platform/db/migrate';
import { migrations } from '../platform/db/migrations';
import { createPostgresPool } from '../platform/db/postgres/pool';
import { SECRET_KEY_FILE } from '../platform/secret-box';
import { DATABASE_DIR, extractArchive, MEDIA_DIR, PG_DUMP_ENTRY, SQLITE_ENTRY, type BackupManifest } from './archive';
import { describeUrl, OpsError, postgresTables } from './backup';
import { checkSecrets, postgresRows, sqliteRows, type ReadRows, type SecretsCheck } from './secrets-check';
import { loadTables } from './table-copy';
import { findExecutable, libpqArgs, runTool } from './tools';

/** What {@link restore} needs. */
export interface RestoreOptions {
  config: Config;
  /** The backup file. */
  from: string;
  /** Progress lines (the CLI writes them to stderr). */
  log: (line: string) => void;
  /** The environment `pg_restore` is looked up in (`PATH`). */
  env?: NodeJS.ProcessEnv;
}

/** What a restore did. */
export interface RestoreReport {
  manifest: BackupManifest;
  /** The restored secrets as the configured key opens them. */
  secrets: SecretsCheck;
}

/**
 * Restores a backup made by `taskspace backup` (backup.ts) into an empty store (docs
 * "Operations", "Backup and restore"): a SQLite backup into `config.dataDir` (absent, or empty but
 * for a secrets key file put there for the restore), a PostgreSQL backup into the empty database
 * of `config.databaseUrl` (`pg_restore` in one transaction for a `pg_dump` backup; else the
 * migrations the backup had and then its rows, in one transaction), and the media files into
 * `<dataDir>/media/`. The schema stays at the backup's version: the next server start brings it
 * up to date as after any upgrade. The rows of every table are counted against the backup's
 * manifest (SQLite: before the file is put in place; a table copy: before its COMMIT; `pg_restore`:
 * after it), and every stored secret is tried with the configured key.
 * @throws OpsError when the store is not empty, the backup is of the other store or of a newer
 *   schema than this release knows, `pg_restore` is missing or fails, or the restored counts differ
 *   from the manifest's (after `pg_restore` the database then holds what it loaded: drop it);
 *   BackupFormatError for a file that is not a backup; the store's error (nothing is restored then).
 */
export async function restore(options: RestoreOptions): Promise<RestoreReport> {
  const { config } = options;
  const from = path.resolve(options.from);
  if (!fs.existsSync(from)) throw new OpsError(`no backup file ${from}`);
  refuseNonEmptyDataDir(config);
  const pool = config.databaseUrl ? createPostgresPool(config.databaseUrl, { max: 1 }) : undefined;
  pool?.on('error', () => undefined);
  try {
    if (pool) await refuseNonEmptyDatabase(pool, config.databaseUrl!);
    fs.mkdirSync(config.dataDir, { recursive: true });
    const staging = fs.mkdtempSync(path.join(config.dataDir, '.taskspace-restore-'));
    try {
      const manifest = await extractArchive(from, staging);
      const expected = pool ? 'postgres' : 'sqlite';
      if (manifest.store !== expected) {
        throw new OpsError(
          manifest.store === 'sqlite'
            ? 'this is a backup of a SQLite data directory: restore it without DATABASE_URL'
            : 'this is a backup of a PostgreSQL database: restore it with DATABASE_URL set to a new, empty database',
        );
      }
      const known = new Set(migrationsFor(migrations, manifest.store).map((m) => m.version));
      const unknown = manifest.migrations.filter((v) => !known.has(v));
      if (unknown.length > 0) {
        throw new OpsError(
          `the backup's schema has migrations this release does not know (${unknown.join(', ')}): restore it with a newer release`,
        );
      }
      options.log(`restoring the backup of ${manifest.createdAt} (${manifest.method}, schema version ${Math.max(...manifest.migrations)})`);
      const database = path.join(staging, DATABASE_DIR);
      let secrets: SecretsCheck;
      if (pool) {
        await restorePostgres(pool, config.databaseUrl!, manifest, database, options.env ?? process.env);
        await verifyCounts(postgresRows(pool), manifest);
        secrets = await checkSecrets(config, postgresRows(pool), 'postgres');
      } else {
        // Checked where it was unpacked: a file that does not match is never put in place.
        const staged = path.join(database, SQLITE_ENTRY);
        secrets = await checkSqlite(config, staged, manifest);
        fs.renameSync(staged, path.join(config.dataDir, DB_FILE));
      }
      if (fs.existsSync(path.join(staging, MEDIA_DIR))) fs.renameSync(path.join(staging, MEDIA_DIR), path.join(config.dataDir, MEDIA_DIR));
      return { manifest, secrets };
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    await pool?.end();
  }
}

/**
 * Refuses a data directory holding anything but a secrets key file: its database (SQLite) or
 * media files would be overwritten.
 * @throws OpsError naming what it holds.
 */
function refuseNonEmptyDataDir(config: Config): void {
  if (!fs.existsSync(config.dataDir)) return;
  const held = fs.readdirSync(config.dataDir).filter((name) => name !== SECRET_KEY_FILE);
  // On PostgreSQL the data directory holds only media files (and the key): anything else may stay.
  const blocking = config.databaseUrl
    ? held.filter((name) => name === MEDIA_DIR && fs.readdirSync(path.join(config.dataDir, name)).length > 0)
    : held;
  if (blocking.length === 0) return;
  throw new OpsError(
    `the data directory ${config.dataDir} is not empty (it holds ${blocking.slice(0, 5).join(', ')}${blocking.length > 5 ? ', …' : ''}); ` +
      'a restore never overwrites data: restore into a new or empty directory (--data-dir DIR)',
  );
}

/** @throws OpsError when the database has any table in its schema. */
async function refuseNonEmptyDatabase(pool: pg.Pool, url: string): Promise<void> {
  const client = await pool.connect();
  try {
    const tables = await postgresTables(client);
    if (tables.length === 0) return;
    throw new OpsError(
      `the PostgreSQL database ${describeUrl(url)} is not empty (${tables.length} tables, such as ${tables.slice(0, 3).join(', ')}); ` +
        'a restore never overwrites data: restore into a new, empty database (CREATE DATABASE …) named by DATABASE_URL',
    );
  } finally {
    client.release();
  }
}

/** Loads the database part of a PostgreSQL backup: `pg_restore`, or the migrations and the table copy. */
async function restorePostgres(
  pool: pg.Pool,
  url: string,
  manifest: BackupManifest,
  database: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (manifest.method === 'pg_dump') {
    const pgRestore = findExecutable('pg_restore', env);
    if (!pgRestore) throw new OpsError('this backup was made by pg_dump: restoring it needs pg_restore on PATH (PostgreSQL client tools)');
    const libpq = libpqArgs(url, env);
    await runTool(
      pgRestore,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${libpq.dbname}`,
        path.join(database, PG_DUMP_ENTRY),
      ],
      libpq.env,
    ).catch((error: Error) => {
      throw new OpsError(error.message);
    });
    return;
  }
  const wanted = new Set(manifest.migrations);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    for (const migration of migrationsFor(migrations, 'postgres').filter((m) => wanted.has(m.version))) await client.query(migration.up);
    await loadTables(client, database);
    await verifyCounts(postgresRows(client), manifest);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The counts ({@link verifyCounts}) and secrets of the unpacked SQLite `file`. */
async function checkSqlite(config: Config, file: string, manifest: BackupManifest): Promise<SecretsCheck> {
  const db = new Database(file, { fileMustExist: true });
  try {
    const rows = sqliteRows(db);
    await verifyCounts(rows, manifest);
    return await checkSecrets(config, rows, 'sqlite');
  } finally {
    db.close();
  }
}

/**
 * Counts the rows of every table the manifest lists against its counts.
 * @throws OpsError naming the tables whose counts differ (a damaged or incomplete backup).
 */
async function verifyCounts(rows: ReadRows, manifest: BackupManifest): Promise<void> {
  const wrong: string[] = [];
  for (const [table, expected] of Object.entries(manifest.rows)) {
    const found = Number((await rows(`SELECT count(*) AS n FROM "${table}"`))[0]?.n);
    if (found !== expected) wrong.push(`${table} (${found} rows, the backup had ${expected})`);
  }
  if (wrong.length > 0) throw new OpsError(`the restored store does not match the backup: ${wrong.join(', ')}`);
}
