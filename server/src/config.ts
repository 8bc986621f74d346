import path from 'node:path';
import { backupScheduleConfig, type BackupScheduleConfig } from './config-backup';
import { accountsConfig, checkBootstrapPassword, type AccountsConfig } from './config-accounts';
import {
  codeSandboxConfig,
  runRetentionConfig,
  serverRole,
  standby,
  type CodeSandboxConfig,
  type RunRetentionConfig,
  type ServerRole,
} from './config-automations';
import { pieceOAuthApps, type PieceOAuthApp } from './config-piece-apps';
import { publicUrl, requestTimeouts, trustProxy, type TrustProxy } from './config-http';
import { modelConfig, modelProvider, type ModelConfig } from './config-model';
import { databaseUrl, mediaStore, postgresConfig, type MediaStoreKind, type PostgresConfig } from './config-storage';
import { int } from './config-values';
import { mailConfig, type MailConfig } from './config-mail';
import { webhooksConfig, type WebhooksConfig } from './config-webhooks';

export { type AccountsConfig } from './config-accounts';
export { type BackupScheduleConfig } from './config-backup';
export { SERVER_ROLES, type RunRetentionConfig, type ServerRole } from './config-automations';
export { type TrustProxy } from './config-http';
export { type ModelConfig } from './config-model';
export { MEDIA_STORE_KINDS, type MediaStoreKind, type PostgresConfig } from './config-storage';
export { ConfigError } from './config-values';
export { type WebhooksConfig } from './config-webhooks';
export { type MailConfig } from './config-mail';

/**
 * Every setting of the service, read once from the environment (README "Configuration").
 * Nothing else in the server reads `process.env`. Each settings group is read by its own module
 * (`config-accounts.ts`, `config-automations.ts`, `config-http.ts`, `config-model.ts`,
 * `config-storage.ts`, `config-webhooks.ts`); this one composes them in {@link loadConfig}.
 */
export interface Config {
  /** TCP port to listen on (`PORT`, default 8787; 0 picks a free port). */
  port: number;
  /** Interface to bind (`HOST`, default 127.0.0.1). */
  host: string;
  /**
   * Which peers may tell the client's address in `X-Forwarded-For` (`TASKSPACE_TRUST_PROXY`,
   * default `false`: the address is the TCP peer's). Fastify's `trustProxy`: `true` trusts every
   * hop, a number trusts that many hops next to the server, a list trusts those addresses and
   * CIDR ranges. The address decides the sign-in throttle's and the hourly limit's address buckets.
   */
  trustProxy: TrustProxy;
  /** Directory holding the SQLite file, media files (TASKSPACE_MEDIA_STORE=files) and the webhook secret key file (`TASKSPACE_DATA_DIR`, default ./.data). */
  dataDir: string;
  /**
   * PostgreSQL connection URL (`DATABASE_URL`, `postgres://` or `postgresql://`): when set, the
   * service stores everything there instead of in the SQLite file of the data directory
   * (docs "Operations", "PostgreSQL").
   */
  databaseUrl: string | undefined;
  /** PostgreSQL connections of a process (docs "Operations", "PostgreSQL"). */
  postgres: PostgresConfig;
  /**
   * On PostgreSQL, do nothing until this process leads the database: wait for the leading server
   * to end and take over (`TASKSPACE_STANDBY=1`, default off: a process that finds another one
   * leading follows it; docs "Operations", "Standby servers").
   */
  standby: boolean;
  /**
   * What this process does (`TASKSPACE_ROLE`, default `all`; docs "Operations", "Roles"): `all`
   * serves the API and does background work; `worker` does background work and answers only
   * `/healthz`; `api` serves the API and does no background work. Every `all` and `worker` process
   * executes the automation runs and sends the webhook deliveries it claims; the one holding the
   * database's server lock (the leader) also does the work done once per database (the outbox,
   * schedules, due dates; see platform/leadership.ts). `api` and `worker` need PostgreSQL.
   */
  role: ServerRole;
  /**
   * Automation runs executing at once in this process (`TASKSPACE_ENGINE_CONCURRENCY`, default 16,
   * at least 1); one automation holds at most three quarters of them unless its `concurrency` says
   * otherwise (docs/automations.md "Concurrency").
   */
  engineConcurrency: number;
  /**
   * How long a process's claim on an automation run holds without renewal, in ms
   * (`TASKSPACE_RUN_LEASE_MS`, default 30000, at least 1000; engine `EngineOptions.leaseMs`). The
   * runs of a process that died are free at once (platform/db/postgres/presence.ts); this is how
   * long those of a process that is alive but stalled or cut off wait before another takes them.
   */
  runLeaseMs: number;
  /**
   * How often the leader polls the polling triggers of Activepieces pieces, in ms
   * (`TASKSPACE_PIECES_POLL_MS`, default 300000, at least 100; docs/integrations.md "Triggers").
   */
  piecesPollMs: number;
  /**
   * The instance's provider apps of OAuth2 pieces, by piece short name
   * (`TASKSPACE_PIECE_OAUTH_<PIECE>_CLIENT_ID`/`_CLIENT_SECRET`; docs/integrations.md "OAuth2 apps").
   */
  pieceOAuthApps: Record<string, PieceOAuthApp>;
  /**
   * How long finished automation runs (with their steps and stored trigger and step bodies) are
   * kept, in days, counted from their end; the leader deletes older ones (docs "Automations",
   * "Run retention"). `days`: `TASKSPACE_RUN_RETENTION_DAYS` (default 30; 0 keeps them forever);
   * `failedDays`: failed runs, `TASKSPACE_RUN_RETENTION_FAILED_DAYS` (default 90; 0 forever),
   * never shorter than `days`. An automation's `retention` replaces either for its runs.
   */
  runRetention: RunRetentionConfig;
  /** The code sandbox: `TASKSPACE_CODE_WORKERS`, `TASKSPACE_CODE_WORKERS_PER_WORKSPACE`, `TASKSPACE_CODE_QUEUE_PER_WORKSPACE`. */
  codeSandbox: CodeSandboxConfig;
  /**
   * How long deleted tasks stay restorable, in days (`TASKSPACE_TRASH_RETENTION_DAYS`, default 30;
   * 0 keeps them forever); the leader purges older entries (docs "API", "Deleted tasks").
   */
  trashRetentionDays: number;
  /**
   * How often a process renews the presence rows of its open project streams, in ms
   * (`TASKSPACE_PRESENCE_HEARTBEAT_MS`, default 15000, at least 100; docs "API", "Presence"). A row
   * not renewed for two heartbeats (its process died) no longer counts, so a person shown present
   * by a dead process disappears within twice this; the hub looks at least this often.
   */
  presenceHeartbeatMs: number;
  /**
   * PostgreSQL: how long the leader's lead lasts without an answered heartbeat, in ms
   * (`TASKSPACE_LEADER_LEASE_MS`, default 15000, at least 1000; platform/db/postgres/server-lock.ts).
   * A leader stalled longer (stopped, its event loop blocked) has its connections ended by a
   * follower, which takes the lead over.
   */
  leaderLeaseMs: number;
  /**
   * Base URL for absolute links (share links, public agents, media), without a trailing slash
   * (`TASKSPACE_PUBLIC_URL`; default `http://HOST:PORT` once the port is known).
   */
  publicUrl: string | undefined;
  /** Personal access token given to the bootstrap owner on first start (`TASKSPACE_BOOTSTRAP_TOKEN`). */
  bootstrapToken: string | undefined;
  /** Sign-in settings (docs "Accounts and sign-in"). */
  accounts: AccountsConfig;
  /** pino log level (`TASKSPACE_LOG_LEVEL`, default info; `silent` turns logging off). */
  logLevel: string;
  /** Requests per hour per account by rate tier; 0 = unlimited (`TASKSPACE_RATE_LIMIT_*`). */
  rateLimits: { standard: number; premium: number; enterprise: number };
  /**
   * Folder of the built web app served at `/` (`TASKSPACE_WEB_DIR`, default the repository's
   * `web/dist`, which `npm start` builds).
   */
  webDir: string;
  /**
   * Longest time to receive a whole request, headers and body, in ms (`TASKSPACE_REQUEST_TIMEOUT_MS`,
   * default 120000); a client still sending then gets 408 and the connection is closed.
   */
  requestTimeoutMs: number;
  /** Longest time to receive a request's headers, in ms (`TASKSPACE_HEADERS_TIMEOUT_MS`, default 30000, at most the request timeout). */
  headersTimeoutMs: number;
  /**
   * Deepest nesting of a JSON request body, inbound webhook calls included
   * (`TASKSPACE_JSON_MAX_DEPTH`, default 100 levels of objects and arrays); deeper is 400.
   */
  jsonMaxDepth: number;
  /** Largest request body in bytes, uploads excluded (`TASKSPACE_BODY_LIMIT_BYTES`, default 1 MiB). */
  bodyLimitBytes: number;
  /** Largest media upload in bytes (`TASKSPACE_MEDIA_MAX_BYTES`, default 25 MiB). */
  mediaMaxBytes: number;
  /**
   * Where media bytes live (`TASKSPACE_MEDIA_STORE`): `files`, one file each under
   * `<dataDir>/media/` (the default on SQLite), or `database`, in the database beside the rows
   * (the default on PostgreSQL, so that every process reaches them). Docs "Operations", "Media bytes".
   */
  mediaStore: MediaStoreKind;
  /** Model provider for agent generation and commands (README "Model providers"). */
  model: ModelConfig;
  /** Webhook and outbound-HTTP settings (README "Events and webhooks"). */
  webhooks: WebhooksConfig;
  /** Scheduled backups (docs "Operations", "Scheduled backups"). */
  backup: BackupScheduleConfig;
  /** Outgoing mail: SMTP, sender, retries, digests (docs/email.md). */
  mail: MailConfig;
}

/**
 * Reads the configuration from an environment map (default `process.env`).
 * @throws ConfigError when a value is malformed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const provider = modelProvider(env);
  const publicBase = publicUrl(env);
  const { requestTimeoutMs, headersTimeoutMs } = requestTimeouts(env);
  checkBootstrapPassword(env);
  return {
    port: int(env, 'PORT', 8787),
    host: env.HOST || '127.0.0.1',
    trustProxy: trustProxy(env),
    dataDir: path.resolve(env.TASKSPACE_DATA_DIR || './.data'),
    databaseUrl: databaseUrl(env),
    postgres: postgresConfig(env),
    standby: standby(env),
    role: serverRole(env),
    runLeaseMs: int(env, 'TASKSPACE_RUN_LEASE_MS', 30_000, 1000),
    piecesPollMs: int(env, 'TASKSPACE_PIECES_POLL_MS', 300_000, 100),
    pieceOAuthApps: pieceOAuthApps(env),
    runRetention: runRetentionConfig(env),
    codeSandbox: codeSandboxConfig(env),
    trashRetentionDays: int(env, 'TASKSPACE_TRASH_RETENTION_DAYS', 30, 0),
    presenceHeartbeatMs: int(env, 'TASKSPACE_PRESENCE_HEARTBEAT_MS', 15_000, 100),
    engineConcurrency: int(env, 'TASKSPACE_ENGINE_CONCURRENCY', 16, 1),
    leaderLeaseMs: int(env, 'TASKSPACE_LEADER_LEASE_MS', 15_000, 1000),
    publicUrl: publicBase,
    bootstrapToken: env.TASKSPACE_BOOTSTRAP_TOKEN || undefined,
    logLevel: env.TASKSPACE_LOG_LEVEL || 'info',
    accounts: accountsConfig(env),
    rateLimits: {
      standard: int(env, 'TASKSPACE_RATE_LIMIT_STANDARD', 1000),
      premium: int(env, 'TASKSPACE_RATE_LIMIT_PREMIUM', 5000),
      enterprise: int(env, 'TASKSPACE_RATE_LIMIT_ENTERPRISE', 0),
    },
    webDir: path.resolve(env.TASKSPACE_WEB_DIR || path.join(__dirname, '../../web/dist')),
    requestTimeoutMs,
    headersTimeoutMs,
    jsonMaxDepth: int(env, 'TASKSPACE_JSON_MAX_DEPTH', 100, 2),
    bodyLimitBytes: int(env, 'TASKSPACE_BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    mediaMaxBytes: int(env, 'TASKSPACE_MEDIA_MAX_BYTES', 25 * 1024 * 1024, 1),
    mediaStore: mediaStore(env),
    model: modelConfig(env, provider),
    webhooks: webhooksConfig(env),
    backup: backupScheduleConfig(env, path.resolve(env.TASKSPACE_DATA_DIR || './.data')),
    mail: mailConfig(env),
  };
}
