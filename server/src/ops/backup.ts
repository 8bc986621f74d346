import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { Config } from '../config';
import { DB_FILE } from '../platform/db/connection';
import { createPostgresPool } from '../platform/db/postgres/pool';
import { mediaDir } from '../modules/media/files';
import {
  DATABASE_DIR,
  MANIFEST_FILE,
  MEDIA_DIR,
  PG_DUMP_ENTRY,
  SQLITE_ENTRY,
  writeArchive,
  type BackupManifest,
  type BackupMethod,
} from './archive';
import { copyTables } from './table-copy';
import { findExecutable, libpqArgs, runTool } from './tools';

/** Thrown when a backup cannot be made as asked (the output exists, no database); the CLI prints it and exits with 1. */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** What {@link backup} needs. */
export interface BackupOptions {
  config: Config;
  /** The backup file to write; must not exist yet. */
  out: string;
  /** Progress lines (the CLI writes them to stderr). */
  log: (line: string) => void;
  /**
   * PostgreSQL: the `pg_dump` to run, or `null` to copy the tables instead (`--table-copy`); by default the
   * `pg_dump` found on `PATH` (`env.PATH`), else the table copy.
   */
  pgDump?: string | null;
  /** The environment `pg_dump` is looked up in (`PATH`). */
  env?: NodeJS.ProcessEnv;
}

/** The snapshot's facts that go into the manifest, read inside the snapshot. */
interface SnapshotFacts {
  migrations: number[];
  rows: Record<string, number>;
  /** Storage keys of media rows whose bytes are not in the database (kept as files). */
  mediaKeys: string[];
}

/**
 * Writes one backup file of the service's store and media files (archive.ts), while the service
 * runs and writes (docs "Operations", "Backup and restore"):
 * - SQLite: SQLite's online backup API (better-sqlite3 `backup`) copies the database of
 *   `config.dataDir` in one step, so the copy is one consistent snapshot however busy the server;
 * - PostgreSQL (`config.databaseUrl`): a REPEATABLE READ READ ONLY transaction exports its
 *   snapshot, and `pg_dump --snapshot` dumps exactly that (custom format), or, without `pg_dump`,
 *   every table is copied inside the same transaction (table-copy.ts).
 * The media files are those the snapshot's media rows name (files are placed before their row
 * commits and never change, so each named file is there unless deleted since: then it is listed
 * as missing). The secrets key is never included.
 * @returns the manifest written.
 * @throws OpsError when `out` exists or its folder does not, or there is no database; the
 *   store's or `pg_dump`'s error otherwise (nothing is left at `out` then).
 */
export async function backup(options: BackupOptions): Promise<BackupManifest> {
  const out = path.resolve(options.out);
  if (fs.existsSync(out)) throw new OpsError(`${out} exists already; a backup never overwrites a file`);
  if (!fs.existsSync(path.dirname(out))) throw new OpsError(`the folder ${path.dirname(out)} does not exist`);
  const staging = fs.mkdtempSync(path.join(path.dirname(out), '.taskspace-backup-'));
  try {
    fs.mkdirSync(path.join(staging, DATABASE_DIR));
    const createdAt = new Date().toISOString();
    const { config } = options;
    let method: BackupMethod;
    let facts: SnapshotFacts;
    if (config.databaseUrl) {
      const pgDump = options.pgDump === undefined ? findExecutable('pg_dump', options.env ?? process.env) : options.pgDump;
      method = pgDump ? 'pg_dump' : 'table-copy';
      options.log(`backing up the PostgreSQL database ${describeUrl(config.databaseUrl)} with ${pgDump ?? 'a table copy (no pg_dump)'}`);
      facts = await snapshotPostgres(config.databaseUrl, staging, pgDump);
    } else {
      method = 'sqlite-online-backup';
      options.log(`backing up ${path.join(config.dataDir, DB_FILE)} with SQLite's online backup`);
      facts = await snapshotSqlite(config.dataDir, path.join(staging, DATABASE_DIR, SQLITE_ENTRY));
    }
    const media = copyMediaFiles(config.dataDir, facts.mediaKeys, path.join(staging, MEDIA_DIR));
    if (media.missing.length > 0)
      options.log(`warning: ${media.missing.length} media file(s) named by the database were gone (deleted meanwhile?)`);
    const manifest: BackupManifest = {
      format: 'taskspace-backup',
      formatVersion: 1,
      createdAt,
      store: config.databaseUrl ? 'postgres' : 'sqlite',
      method,
      migrations: facts.migrations,
      rows: facts.rows,
      media,
    };
    fs.writeFileSync(path.join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await writeArchive(out, staging);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** `host/database` of a PostgreSQL URL, without its credentials. */
export function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/**
 * Copies the SQLite database of `dataDir` to `target` through the online backup API, all pages
 * in one step (one read transaction: a consistent snapshot; the WAL lets the server write on).
 * @throws OpsError when there is no database in `dataDir`.
 */
async function snapshotSqlite(dataDir: string, target: string): Promise<SnapshotFacts> {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) throw new OpsError(`no Taskspace database in ${dataDir} (looked for ${DB_FILE})`);
  const source = new Database(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // The first step only sizes the copy; the second copies every page at once.
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new Database(target, { fileMustExist: true });
  try {
    const tables = copy
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const rows: Record<string, number> = {};
    for (const table of tables) rows[table] = copy.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
    const migrations = copy.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
    return { migrations, rows, mediaKeys: copy.prepare(mediaKeysSql(tables)).pluck().all() as string[] };
  } finally {
    copy.close();
  }
}

/** The storage keys of media rows without chunks in the database (their bytes are files). */
function mediaKeysSql(tables: string[]): string {
  return tables.includes('media_chunks')
    ? 'SELECT storage_key FROM media m WHERE NOT EXISTS (SELECT 1 FROM media_chunks c WHERE c.media_id = m.id) ORDER BY storage_key'
    : 'SELECT storage_key FROM media ORDER BY storage_key';
}

/**
 * Takes a REPEATABLE READ READ ONLY snapshot of the database, reads the manifest's facts in it
 * and dumps it: `pg_dump --snapshot` (custom format) into `staging/database/postgres.dump`, or
 * the table copy when `pgDump` is null.
 */
async function snapshotPostgres(url: string, staging: string, pgDump: string | null): Promise<SnapshotFacts> {
  const pool = createPostgresPool(url, { max: 1 });
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!.id;
    const tables = await postgresTables(client);
    if (!tables.includes('schema_migrations')) throw new OpsError(`no Taskspace schema in the PostgreSQL database ${describeUrl(url)}`);
    const rows: Record<string, number> = {};
    for (const table of tables) rows[table] = Number((await client.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
    const migrations = (await client.query<{ v: string }>('SELECT version::text AS v FROM schema_migrations ORDER BY version')).rows.map(
      (r) => Number(r.v),
    );
    const mediaKeys = (await client.query<{ storage_key: string }>(mediaKeysSql(tables))).rows.map((r) => r.storage_key);
    const database = path.join(staging, DATABASE_DIR);
    if (pgDump) {
      const libpq = libpqArgs(url);
      await runTool(
        pgDump,
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          `--snapshot=${snapshot}`,
          `--file=${path.join(database, PG_DUMP_ENTRY)}`,
          `--dbname=${libpq.dbname}`,
        ],
        libpq.env,
      ).catch((error: Error) => {
        throw new OpsError(`${error.message} (\`taskspace backup --table-copy\` backs up without pg_dump)`);
      });
    } else {
      await copyTables(client, tables, database);
    }
    await client.query('COMMIT');
    return { migrations, rows, mediaKeys };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
    await pool.end();
  }
}

/** The tables of the connection's current schema, by name. */
export async function postgresTables(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
  );
  return rows.map((r) => r.name);
}

/** Copies the media files named by `keys` from the data directory into `target` (cloned where the file system can). */
function copyMediaFiles(dataDir: string, keys: string[], target: string): BackupManifest['media'] {
  const missing: string[] = [];
  let files = 0;
  for (const key of keys) {
    const source = path.join(mediaDir(dataDir), key);
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(key) || !fs.existsSync(source)) {
      missing.push(key);
      continue;
    }
    if (files === 0) fs.mkdirSync(target, { recursive: true });
    try {
      fs.copyFileSync(source, path.join(target, key), fs.constants.COPYFILE_FICLONE);
      files++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(key);
    }
  }
  return { files, missing };
}
