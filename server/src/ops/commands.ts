import type { Config } from '../config';
import { BackupFormatError } from './archive';
import { backup, describeUrl, OpsError } from './backup';
import { doctor, formatDoctor } from './doctor';
import { restore } from './restore';
import { describeSecrets } from './secrets-check';

/** The CLI's commands about the whole store (docs "Operations"), each a single word. */
export const OPS_COMMANDS = new Set(['backup', 'restore', 'doctor']);

/** The usage lines of {@link OPS_COMMANDS}. */
export const OPS_USAGE = `  backup --out FILE [--table-copy]        one file: the database (a consistent snapshot, also while the server writes) and media files; never the secrets key
  restore --from FILE [--data-dir DIR]    into an empty data directory (SQLite) or the empty database of DATABASE_URL; refuses a non-empty one
  doctor                                  schema version, pending migrations, secrets key, SMTP (TASKSPACE_SMTP_URL), free disk space`;

/** What an ops command reads from the command line. */
export interface OpsArgs {
  out?: string;
  from?: string;
  /** PostgreSQL: copy the tables instead of running `pg_dump`. */
  'table-copy'?: boolean;
}

/**
 * Runs `backup`, `restore` or `doctor` (ops/backup.ts, restore.ts, doctor.ts) and resolves to the
 * exit code: 0 done, 1 refused or failed (the reason on `err`), 2 usage. `env` is the CLI's
 * environment (`PATH` for `pg_dump`, `TASKSPACE_SMTP_URL` for the doctor).
 */
export async function runOpsCommand(
  command: string,
  args: OpsArgs,
  config: Config,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const log = (line: string) => err(`taskspace: ${line}`);
  log(
    config.databaseUrl
      ? `PostgreSQL database ${describeUrl(config.databaseUrl)} (DATABASE_URL), data directory ${config.dataDir}`
      : `data directory ${config.dataDir}`,
  );
  try {
    switch (command) {
      case 'backup': {
        if (!args.out) return usage(err, 'backup needs --out FILE');
        const manifest = await backup({ config, out: args.out, log, env, ...(args['table-copy'] ? { pgDump: null } : {}) });
        const rows = manifest.rows;
        out(
          `backup written to ${args.out}: schema version ${Math.max(...manifest.migrations)}, ${rows.tasks ?? 0} tasks, ` +
            `${rows.automations ?? 0} automations, ${rows.automation_runs ?? 0} runs, ${rows.media ?? 0} media (${manifest.media.files} files), ` +
            `${rows.users ?? 0} accounts`,
        );
        return 0;
      }
      case 'restore': {
        if (!args.from) return usage(err, 'restore needs --from FILE');
        const report = await restore({ config, from: args.from, log, env });
        const counts = Object.values(report.manifest.rows);
        out(
          `restored the backup of ${report.manifest.createdAt} into ${config.databaseUrl ? 'the PostgreSQL database' : config.dataDir}: ` +
            `${counts.reduce((a, b) => a + b, 0)} rows in ${counts.length} tables, each table's count as in the backup`,
        );
        const secrets = describeSecrets(report.secrets, config.dataDir);
        for (const line of secrets.lines) (secrets.ok ? out : err)(secrets.ok ? line : `taskspace: ${line}`);
        out('start the server on it: pending migrations are applied then');
        return 0;
      }
      case 'doctor': {
        const checks = await doctor(config, env.TASKSPACE_SMTP_URL || undefined);
        for (const line of formatDoctor(checks)) out(line);
        return checks.some((c) => c.level === 'fail') ? 1 : 0;
      }
      default:
        return usage(err, `unknown command '${command}'`);
    }
  } catch (error) {
    // Refusals say why; anything else (the store unreachable, a full disk, pg_dump failing) is reported the same way.
    err(
      `taskspace: ${error instanceof OpsError || error instanceof BackupFormatError ? '' : `${command} failed: `}${(error as Error).message}`,
    );
    return 1;
  }
}

function usage(err: (line: string) => void, message: string): number {
  err(`taskspace: ${message}`);
  err(`Usage:\n${OPS_USAGE}`);
  return 2;
}
