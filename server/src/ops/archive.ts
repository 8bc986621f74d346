import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';

/**
 * The backup file (docs "Operations", "Backup and restore"): a gzip-compressed tar archive
 * (POSIX ustar/pax, written by node-tar) holding
 * - `taskspace-backup.json`: the {@link BackupManifest};
 * - `database/taskspace.sqlite` (a SQLite data directory's database, copied by SQLite's online
 *   backup API), or `database/postgres.dump` (PostgreSQL, `pg_dump --format=custom`), or
 *   `database/tables/<table>.jsonl` (PostgreSQL without `pg_dump`: one JSON row per line);
 * - `media/<storage key>`: the bytes of every media item kept as a file in the data directory.
 *
 * Never the secrets key (`webhook-secrets.key`): the archive is made from these entries only.
 */

/** Name of the manifest entry at the root of the archive. */
export const MANIFEST_FILE = 'taskspace-backup.json';
/** Folder of the database entries. */
export const DATABASE_DIR = 'database';
/** Folder of the media files (as in the data directory). */
export const MEDIA_DIR = 'media';
/** The SQLite database entry (under {@link DATABASE_DIR}). */
export const SQLITE_ENTRY = 'taskspace.sqlite';
/** The pg_dump entry (under {@link DATABASE_DIR}). */
export const PG_DUMP_ENTRY = 'postgres.dump';
/** The folder of the table copies (under {@link DATABASE_DIR}). */
export const TABLES_DIR = 'tables';

/** How the database part of a backup was made. */
export type BackupMethod = 'sqlite-online-backup' | 'pg_dump' | 'table-copy';

/** What `taskspace-backup.json` says about a backup. */
export interface BackupManifest {
  format: 'taskspace-backup';
  /** Version of this layout (1). */
  formatVersion: 1;
  /** When the database snapshot was taken, ISO 8601. */
  createdAt: string;
  /** The store it was made from. */
  store: 'sqlite' | 'postgres';
  method: BackupMethod;
  /** Every schema version recorded in `schema_migrations` of the snapshot, ascending. */
  migrations: number[];
  /** Rows of every table in the snapshot, by table name. */
  rows: Record<string, number>;
  /** Media files included (`files`), and storage keys of media rows whose file was missing. */
  media: { files: number; missing: string[] };
}

/** Thrown for a file that is not a Taskspace backup, or one this release cannot read. */
export class BackupFormatError extends Error {
  override name = 'BackupFormatError';
}

/**
 * Writes `stagingDir`'s entries into a gzip tar at `out`: first as `<out>.partial`, renamed into
 * place once complete, so `out` is either a whole backup or absent.
 * @throws the file system's error (the partial file is removed).
 */
export async function writeArchive(out: string, stagingDir: string): Promise<void> {
  const partial = `${out}.partial`;
  try {
    await tar.c({ gzip: true, file: partial, cwd: stagingDir, portable: true }, fs.readdirSync(stagingDir).sort());
    fs.renameSync(partial, out);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Extracts the backup `file` into the (empty) folder `into` and returns its manifest.
 * @throws BackupFormatError when `file` is not a gzip tar holding a Taskspace manifest of a known format.
 */
export async function extractArchive(file: string, into: string): Promise<BackupManifest> {
  try {
    await tar.x({ file, cwd: into, strict: true });
  } catch (error) {
    throw new BackupFormatError(`${file} is not a Taskspace backup (a gzip tar archive): ${(error as Error).message}`);
  }
  const manifestFile = path.join(into, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) throw new BackupFormatError(`${file} is not a Taskspace backup: it holds no ${MANIFEST_FILE}`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== 'taskspace-backup' || manifest.formatVersion !== 1) {
    throw new BackupFormatError(`${file} is a backup of an unknown format (${manifest.format} ${manifest.formatVersion})`);
  }
  return manifest;
}

/** The entry names of the archive `file` (for tests and `taskspace restore` messages). */
export async function listArchive(file: string): Promise<string[]> {
  const names: string[] = [];
  await tar.t({ file, onReadEntry: (entry) => names.push(entry.path) });
  return names;
}
