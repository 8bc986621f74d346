import path from 'node:path';
import { Cron } from 'croner';
import { ConfigError, int } from './config-values';

/** Scheduled backups (docs "Operations", "Scheduled backups"). */
export interface BackupScheduleConfig {
  /**
   * When to make a backup (`TASKSPACE_BACKUP_CRON`): a cron pattern of 5 fields, or 6 with seconds
   * first, in the server's local time (croner's syntax: `0 3 * * *` is 03:00 every day). Undefined:
   * no scheduled backups.
   */
  cron: string | undefined;
  /** How many scheduled backups are kept, the newest (`TASKSPACE_BACKUP_KEEP`, default 7, at least 1). */
  keep: number;
  /** The folder they are written to (`TASKSPACE_BACKUP_DIR`, default `<data directory>/backups`). */
  dir: string;
}

/**
 * Reads {@link BackupScheduleConfig}.
 * @throws ConfigError when `TASKSPACE_BACKUP_CRON` is not a cron pattern, or the keep count is malformed.
 */
export function backupScheduleConfig(env: NodeJS.ProcessEnv, dataDir: string): BackupScheduleConfig {
  const cron = env.TASKSPACE_BACKUP_CRON?.trim() || undefined;
  if (cron !== undefined) {
    try {
      new Cron(cron, { paused: true }).stop();
    } catch (error) {
      throw new ConfigError(`TASKSPACE_BACKUP_CRON is not a cron pattern ('${cron}'): ${(error as Error).message}`);
    }
  }
  return {
    cron,
    keep: int(env, 'TASKSPACE_BACKUP_KEEP', 7, 1),
    dir: path.resolve(env.TASKSPACE_BACKUP_DIR || path.join(dataDir, 'backups')),
  };
}
