import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config';
import { DB_FILE } from '../platform/db/connection';
import { migrationsFor } from '../platform/db/migrate';
import { migrations } from '../platform/db/migrations';
import { createPostgresPool } from '../platform/db/postgres/pool';
import { describeUrl } from './backup';
import { checkSecrets, describeSecrets, postgresRows, sqliteRows, type ReadRows } from './secrets-check';
import { probeSmtp } from './smtp-probe';

/** Free space of the data directory below which `taskspace doctor` warns, in bytes (1 GiB). */
export const LOW_FREE_BYTES = 1024 ** 3;

/** One line of the doctor's report. */
export interface DoctorCheck {
  /** `fail` makes the exit code 1; `warn` does not. */
  level: 'ok' | 'warn' | 'fail';
  /** What was checked: `store`, `schema`, `migrations`, `secrets`, `smtp`, `disk`. */
  name: string;
  lines: string[];
}

/**
 * `taskspace doctor` (docs "Operations", "Doctor"): the store and its schema version, the
 * migrations this release would apply at the next start, the secrets key (present, and opening
 * every stored secret), the SMTP server of `smtpUrl` (`TASKSPACE_SMTP_URL`; connect and EHLO) and
 * the free space of the data directory. Reads only: creates no database, key or file.
 */
export async function doctor(config: Config, smtpUrl: string | undefined): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  const inspect = async (rows: ReadRows) => {
    checks.push(...(await schemaChecks(rows, dialect)));
    const secrets = describeSecrets(await checkSecrets(config, rows, dialect), config.dataDir);
    const missingKeyOnly = secrets.ok && secrets.lines[0]!.includes('secrets key: none');
    checks.push({ level: secrets.ok ? (missingKeyOnly ? 'warn' : 'ok') : 'fail', name: 'secrets', lines: secrets.lines });
  };
  if (config.databaseUrl) {
    const pool = createPostgresPool(config.databaseUrl, { max: 1 });
    pool.on('error', () => undefined);
    try {
      const rows = postgresRows(pool);
      const schema = await rows("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
      checks.push({ level: 'ok', name: 'store', lines: [`PostgreSQL database ${describeUrl(config.databaseUrl)} (DATABASE_URL)`] });
      if (schema[0]?.present) await inspect(rows);
      else checks.push({ level: 'fail', name: 'schema', lines: ['no Taskspace schema in the database (the first server start makes it)'] });
    } catch (error) {
      checks.push({ level: 'fail', name: 'store', lines: [`cannot read the database: ${(error as Error).message}`] });
    } finally {
      await pool.end();
    }
  } else {
    const file = path.join(config.dataDir, DB_FILE);
    if (fs.existsSync(file)) {
      checks.push({ level: 'ok', name: 'store', lines: [`SQLite file ${file}`] });
      const db = new Database(file, { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 5000');
        await inspect(sqliteRows(db));
      } finally {
        db.close();
      }
    } else {
      checks.push({ level: 'fail', name: 'store', lines: [`no Taskspace database in ${config.dataDir} (looked for ${DB_FILE})`] });
    }
  }
  checks.push(await smtpCheck(smtpUrl));
  checks.push(diskCheck(config.dataDir));
  return checks;
}

/** The schema version and the pending migrations, or a failure for a schema newer than this release. */
async function schemaChecks(rows: ReadRows, dialect: 'sqlite' | 'postgres'): Promise<DoctorCheck[]> {
  const applied = (await rows('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version));
  const known = migrationsFor(migrations, dialect);
  const knownVersions = new Set(known.map((m) => m.version));
  const unknown = applied.filter((v) => !knownVersions.has(v));
  const latest = Math.max(...known.map((m) => m.version));
  const version = applied.length > 0 ? Math.max(...applied) : 0;
  const schema: DoctorCheck =
    unknown.length > 0
      ? {
          level: 'fail',
          name: 'schema',
          lines: [`version ${version}: migrations ${unknown.join(', ')} are from a newer release than this one (knows up to ${latest})`],
        }
      : {
          level: 'ok',
          name: 'schema',
          lines: [`version ${version} (${applied.length} migrations applied; this release's latest is ${latest})`],
        };
  const done = new Set(applied);
  const pending = known.filter((m) => !done.has(m.version));
  const pendingCheck: DoctorCheck =
    pending.length === 0
      ? { level: 'ok', name: 'migrations', lines: ['none pending'] }
      : {
          level: 'warn',
          name: 'migrations',
          lines: [
            `${pending.length} pending, applied by the next server start: ${pending.map((m) => `${m.version} ${m.name}`).join(', ')}`,
          ],
        };
  return [schema, pendingCheck];
}

async function smtpCheck(smtpUrl: string | undefined): Promise<DoctorCheck> {
  if (!smtpUrl) return { level: 'ok', name: 'smtp', lines: ['not configured (TASKSPACE_SMTP_URL unset): no mail is sent'] };
  const probe = await probeSmtp(smtpUrl);
  return probe.ok
    ? { level: 'ok', name: 'smtp', lines: [`${probe.target} answers: ${probe.detail}`] }
    : { level: 'fail', name: 'smtp', lines: [`${probe.target} unreachable: ${probe.detail}`] };
}

/** Free space where the data directory is (its nearest existing folder). */
function diskCheck(dataDir: string): DoctorCheck {
  let folder = dataDir;
  while (!fs.existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  const stats = fs.statfsSync(folder);
  const free = stats.bavail * stats.bsize;
  const total = stats.blocks * stats.bsize;
  const line = `${dataDir}: ${gib(free)} free of ${gib(total)}`;
  return free < LOW_FREE_BYTES || free < total * 0.05
    ? { level: 'warn', name: 'disk', lines: [`${line} (low: writes fail when the disk is full)`] }
    : { level: 'ok', name: 'disk', lines: [line] };
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** The doctor's report as printed: `[ok] name: line`, continuation lines indented. */
export function formatDoctor(checks: DoctorCheck[]): string[] {
  return checks.flatMap((c) => c.lines.map((line, i) => (i === 0 ? `[${c.level}] ${c.name}: ${line}` : `       ${line}`)));
}
