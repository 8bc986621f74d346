import { ConfigError, flag, int } from './config-values';

/** Background work settings: process roles, standby, automation runs and their retention (docs "Operations"). */

/** The values of `TASKSPACE_ROLE` (see `Config.role`). */
export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
/** One of {@link SERVER_ROLES}. */
export type ServerRole = (typeof SERVER_ROLES)[number];

/** How long finished automation runs are kept, in days (see `Config.runRetention`). */
export interface RunRetentionConfig {
  /** `TASKSPACE_RUN_RETENTION_DAYS` (default 30; 0 keeps them forever). */
  days: number;
  /** Failed runs: `TASKSPACE_RUN_RETENTION_FAILED_DAYS` (default 90; 0 forever). */
  failedDays: number;
}

/**
 * `TASKSPACE_ROLE`: `all` unless set; `api` and `worker` only on PostgreSQL.
 * @throws ConfigError for an unknown role, `api`/`worker` without `DATABASE_URL`, or `api` with `TASKSPACE_STANDBY`.
 */
export function serverRole(env: NodeJS.ProcessEnv): ServerRole {
  const value = (env.TASKSPACE_ROLE ?? '').trim().toLowerCase() || 'all';
  if (!(SERVER_ROLES as readonly string[]).includes(value)) {
    throw new ConfigError(`TASKSPACE_ROLE must be 'all', 'api' or 'worker', got '${env.TASKSPACE_ROLE}'`);
  }
  if (value !== 'all' && !env.DATABASE_URL) {
    throw new ConfigError(`TASKSPACE_ROLE=${value} needs DATABASE_URL: on SQLite one process serves the API and does the background work`);
  }
  if (value === 'api' && flag(env, 'TASKSPACE_STANDBY')) {
    throw new ConfigError(
      'TASKSPACE_STANDBY=1 is for processes that do the background work (TASKSPACE_ROLE=all or worker); api processes never wait',
    );
  }
  return value as ServerRole;
}

/**
 * `TASKSPACE_STANDBY`; only PostgreSQL can hand a database over (one server owns a SQLite data directory).
 * @throws ConfigError when on without `DATABASE_URL` or without `TASKSPACE_WEBHOOKS_SECRET_KEY`.
 */
export function standby(env: NodeJS.ProcessEnv): boolean {
  const on = flag(env, 'TASKSPACE_STANDBY');
  if (on && !env.DATABASE_URL)
    throw new ConfigError('TASKSPACE_STANDBY=1 needs DATABASE_URL: a standby waits to take over a PostgreSQL database');
  if (on && !env.TASKSPACE_WEBHOOKS_SECRET_KEY) {
    throw new ConfigError(
      'TASKSPACE_STANDBY=1 needs TASKSPACE_WEBHOOKS_SECRET_KEY, the same on every server of the database: a key file in this data directory could not open the secrets another server sealed',
    );
  }
  return on;
}

/**
 * Reads the run retention settings ({@link RunRetentionConfig}).
 * @throws ConfigError when a value is malformed.
 */
export function runRetentionConfig(env: NodeJS.ProcessEnv): RunRetentionConfig {
  return {
    days: int(env, 'TASKSPACE_RUN_RETENTION_DAYS', 30, 0),
    failedDays: int(env, 'TASKSPACE_RUN_RETENTION_FAILED_DAYS', 90, 0),
  };
}

/** The code sandbox of this process's engine (docs/automations.md "Code", "Sharing the sandbox"; see `Config.codeSandbox`). */
export interface CodeSandboxConfig {
  /** Worker threads running code steps: `TASKSPACE_CODE_WORKERS` (default 2, at least 1). */
  workers: number;
  /** Code steps of one workspace running at once: `TASKSPACE_CODE_WORKERS_PER_WORKSPACE` (default all workers but one, at least 1). */
  workersPerWorkspace: number;
  /** Code steps of one workspace waiting for a worker: `TASKSPACE_CODE_QUEUE_PER_WORKSPACE` (default 100, at least 1). */
  queuePerWorkspace: number;
}

/**
 * Reads the code sandbox settings ({@link CodeSandboxConfig}).
 * @throws ConfigError when a value is malformed.
 */
export function codeSandboxConfig(env: NodeJS.ProcessEnv): CodeSandboxConfig {
  const workers = int(env, 'TASKSPACE_CODE_WORKERS', 2, 1);
  return {
    workers,
    workersPerWorkspace: int(env, 'TASKSPACE_CODE_WORKERS_PER_WORKSPACE', Math.max(1, workers - 1), 1),
    queuePerWorkspace: int(env, 'TASKSPACE_CODE_QUEUE_PER_WORKSPACE', 100, 1),
  };
}
