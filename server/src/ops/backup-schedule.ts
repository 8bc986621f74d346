import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Leadership } from '../platform/leadership';
import { WorkerLoop, type WorkerLog } from '../platform/worker-loop';

/** The `taskspace` bin a scheduled backup runs (`taskspace backup`, in a process of its own). */
const BIN = path.resolve(__dirname, '../../bin/taskspace.js');
/** Names of scheduled backups: `taskspace-backup-<slot, ISO 8601 with - for : and .>.tar.gz`, sorting by time. */
const SCHEDULED = /^taskspace-backup-\d{4}-\d\d-\d\dT[\d-]+Z\.tar\.gz$/;
/** How often a process that does not lead looks again, in ms. */
const FOLLOWER_POLL_MS = 5000;

/** What the schedule needs of the server. */
export interface BackupScheduleHost {
  config: Config;
  leadership: Leadership;
}

/**
 * Scheduled backups (`TASKSPACE_BACKUP_CRON`, docs "Operations", "Scheduled backups"): at each
 * slot of the pattern the leading process (never an `api` process, and on PostgreSQL only the
 * holder of the server lock, so once across the processes of a database) runs `taskspace backup`
 * in a child process (off the event loop; the same command as by hand) into
 * `TASKSPACE_BACKUP_DIR`, then deletes the oldest scheduled backups beyond `TASKSPACE_BACKUP_KEEP`.
 * Slots that pass while a backup runs, or before the server started, are skipped, not caught up.
 * A backup file is named by its slot and never overwritten, so two processes that both took one
 * slot (a lead handed over at that moment) write it once.
 */
export function installBackupSchedule(app: FastifyInstance, host: BackupScheduleHost): void {
  const { config } = host;
  if (config.backup.cron === undefined || config.role === 'api') return;
  let loop: WorkerLoop | undefined;
  app.addHook('onListen', async () => {
    loop ??= scheduleLoop(host, app.log);
    loop.start();
  });
  app.addHook('preClose', async () => {
    await loop?.stop();
    loop = undefined;
  });
}

function scheduleLoop(host: BackupScheduleHost, log: FastifyInstance['log']): WorkerLoop {
  const { config, leadership } = host;
  const cron = new Cron(config.backup.cron!, { paused: true });
  let after = new Date();
  return new WorkerLoop(
    'scheduled backups',
    async () => {
      const next = cron.nextRun(after);
      if (!next) return 24 * 3600_000;
      const wait = next.getTime() - Date.now();
      // Looked at again at least hourly (a timer cannot wait past 24.8 days; the clock may be set meanwhile).
      if (wait > 0) return Math.min(wait, leadership.leading ? 3600_000 : FOLLOWER_POLL_MS);
      after = next;
      if (leadership.leading) {
        await runScheduledBackup(config, next, log);
        pruneBackups(config.backup.dir, config.backup.keep, log);
      }
      // Slots passed meanwhile are skipped.
      if (Date.now() > after.getTime()) after = new Date();
      return 0;
    },
    log,
    60_000,
  );
}

/** Runs `taskspace backup --out <dir>/taskspace-backup-<slot>.tar.gz` on the server's store; logs how it went. */
async function runScheduledBackup(config: Config, slot: Date, log: FastifyInstance['log']): Promise<void> {
  fs.mkdirSync(config.backup.dir, { recursive: true });
  const out = path.join(config.backup.dir, `taskspace-backup-${slot.toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  const env: NodeJS.ProcessEnv = { ...process.env, TASKSPACE_DATA_DIR: config.dataDir };
  if (config.databaseUrl) env.DATABASE_URL = config.databaseUrl;
  else delete env.DATABASE_URL;
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'backup', '--out', out], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const add = (chunk: Buffer) => (text = (text + chunk.toString()).slice(-4000));
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.once('error', (error) => resolve({ code: null, output: error.message }));
    child.once('close', (exit) => resolve({ code: exit, output: text }));
  });
  if (code === 0) log.info({ file: out }, 'scheduled backup written');
  else log.error({ file: out, exitCode: code, output: output.trim() }, 'scheduled backup failed');
}

/** Deletes the oldest scheduled backups of `dir` beyond the newest `keep` (other files are left alone). */
export function pruneBackups(dir: string, keep: number, log: WorkerLog): void {
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => SCHEDULED.test(name))
        .sort()
    : [];
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    try {
      fs.rmSync(path.join(dir, name), { force: true });
    } catch (error) {
      log.warn({ err: error, file: name }, 'could not delete an old scheduled backup');
    }
  }
}
