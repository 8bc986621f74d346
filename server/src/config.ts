import { isIP } from 'node:net';
import path from 'node:path';

/**
 * Every setting of the service, read once from the environment (README "Configuration").
 * Nothing else in the server reads `process.env`.
 */
/** Accounts and sessions (issue 10). */
export interface AccountsConfig {
  /** Password given to the bootstrap owner on first start (`TASKSPACE_BOOTSTRAP_PASSWORD`); no setup link is needed then. */
  bootstrapPassword: string | undefined;
  /** A session ends after this long without a request, in ms (`TASKSPACE_SESSION_IDLE_MINUTES`, default 10080 = 7 days). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in whatever its use, in ms (`TASKSPACE_SESSION_MAX_DAYS`, default 30). */
  sessionMaxMs: number;
  /**
   * Lifetime of an OAuth access token, in ms (`TASKSPACE_OAUTH_ACCESS_TOKEN_MINUTES`, default 60;
   * `TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS`, at least 1, wins when set: short lifetimes for tests).
   */
  oauthAccessTokenMs: number;
  /** Lifetime of an OAuth refresh token, in ms (`TASKSPACE_OAUTH_REFRESH_TOKEN_DAYS`, default 30); each use replaces it with a new one. */
  oauthRefreshTokenMs: number;
}

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
   * How long finished automation runs (with their steps and stored trigger and step bodies) are
   * kept, in days, counted from their end; the leader deletes older ones (docs "Automations",
   * "Run retention"). `days`: `TASKSPACE_RUN_RETENTION_DAYS` (default 30; 0 keeps them forever);
   * `failedDays`: failed runs, `TASKSPACE_RUN_RETENTION_FAILED_DAYS` (default 90; 0 forever),
   * never shorter than `days`. An automation's `retention` replaces either for its runs.
   */
  runRetention: { days: number; failedDays: number };
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
  model: {
    /** `offline` (deterministic, the embedded default) or `openai` (any OpenAI-compatible chat-completions API). */
    provider: 'offline' | 'openai';
    /** Base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 (`TASKSPACE_MODEL_BASE_URL`). */
    baseUrl: string;
    /** API key, sent as a bearer token (`TASKSPACE_MODEL_API_KEY`). */
    apiKey: string | undefined;
    /** Model name (`TASKSPACE_MODEL_NAME`, default gpt-4o-mini). */
    name: string;
    /** Timeout of one model call in ms (`TASKSPACE_MODEL_TIMEOUT_MS`, default 60000). */
    timeoutMs: number;
  };
  /** Webhook and outbound-HTTP settings (README "Events and webhooks"). */
  webhooks: {
    /**
     * Development switch: allow http targets and loopback/private addresses for signed webhooks,
     * legacy subscriptions and automation HTTP requests (`TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1`, default off).
     */
    allowInsecure: boolean;
    /**
     * Addresses or CIDR ranges (comma-separated, e.g. `10.1.2.0/24,127.0.0.1`) that outbound
     * deliveries may reach even though the SSRF guard would refuse them, while still requiring
     * https (`TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES`, default none). For receivers on an internal network.
     */
    allowAddresses: string[];
    /**
     * A PEM file of extra certificate authorities trusted for https deliveries, in addition to
     * Node's bundled roots (`TASKSPACE_WEBHOOKS_CA_FILE`, default none). Certificates are always verified.
     */
    caFile: string | undefined;
    /** Attempts per delivery before it is given up as failed (`TASKSPACE_WEBHOOKS_MAX_ATTEMPTS`, default 10). */
    maxAttempts: number;
    /** Delay before the first retry in ms; doubles per attempt (`TASKSPACE_WEBHOOKS_RETRY_BASE_MS`, default 30000). */
    retryBaseMs: number;
    /** Largest delay between two attempts in ms (`TASKSPACE_WEBHOOKS_RETRY_MAX_MS`, default 3600000 = 1 hour). */
    retryMaxMs: number;
    /** Timeout of one delivery attempt in ms, connect to last body byte (`TASKSPACE_WEBHOOKS_TIMEOUT_MS`, default 10000). */
    timeoutMs: number;
    /** Deliveries in flight at once per process (`TASKSPACE_WEBHOOKS_CONCURRENCY`, default 32). */
    concurrency: number;
    /**
     * Deliveries in flight at once to one registration or subscription, so a slow receiver cannot
     * hold every slot, counted over every process of the database (`TASKSPACE_WEBHOOKS_CONCURRENCY_PER_TARGET`, default 8).
     */
    concurrencyPerTarget: number;
    /** How often the outbox and due-date workers look for work when not woken, in ms (`TASKSPACE_WEBHOOKS_POLL_MS`, default 500). */
    pollMs: number;
    /**
     * Key that encrypts signing secrets at rest: any string of at least 32 characters
     * (`TASKSPACE_WEBHOOKS_SECRET_KEY`). Default: a random key kept in `<dataDir>/webhook-secrets.key`.
     */
    secretKey: string | undefined;
    /**
     * How long finished deliveries (with their attempts), and outbox events every reader has
     * handled, are kept, in days (`TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS`, default 30; 0 keeps them forever).
     */
    logRetentionDays: number;
    /**
     * How far back in ms a due time may lie and still fire when a task's date is set to a moment
     * that has already passed (`TASKSPACE_DUE_GRACE_MS`, default 86400000 = 24 hours).
     */
    dueGraceMs: number;
    /** Requests per minute accepted by each inbound webhook URL, also its burst (`TASKSPACE_INBOUND_RATE_PER_MINUTE`, default 60). */
    inboundPerMinute: number;
    /**
     * How long an inbound call to an automation with a `respond` step waits for that response
     * before it gets the usual `{ok, requestId}` answer, in ms
     * (`TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS`, default 30000).
     */
    respondTimeoutMs: number;
  };
}

/** A value of {@link Config.trustProxy}, as Fastify's `trustProxy` option takes it. */
export type TrustProxy = boolean | number | string[];

/** Names `proxy-addr` (Fastify's `trustProxy`) accepts in a list besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Thrown when an environment variable has a value the service cannot use. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got '${raw}'`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on';
}

/** A comma-separated list of IP addresses or CIDR ranges (`10.0.0.0/8`, `::1`); `names` are accepted as they are. */
function addressList(env: NodeJS.ProcessEnv, name: string, names: string[] = []): string[] {
  const entries = (env[name] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (names.includes(entry)) continue;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || extra !== undefined || !prefixOk) {
      throw new ConfigError(`${name} must list IP addresses or CIDR ranges, got '${entry}'`);
    }
  }
  return entries;
}

/**
 * `TASKSPACE_TRUST_PROXY`: unset, empty or `false` trusts no proxy; `true` every hop; a whole
 * number that many hops; otherwise a comma-separated list of addresses, CIDR ranges or the
 * names `loopback`, `linklocal`, `uniquelocal`.
 * @throws ConfigError for anything else (a negative or fractional number, a malformed address).
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TASKSPACE_TRUST_PROXY ?? '').trim();
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false') return false;
  if (lower === 'true') return true;
  if (/^\d{1,9}$/.test(raw)) return Number(raw);
  // A number that is not a whole count of hops (an address like 10.0.0.1 has more dots).
  if (/^[-+]?\d+(?:\.\d*)?$/.test(raw)) {
    throw new ConfigError(
      `TASKSPACE_TRUST_PROXY must be true, false, a whole number of hops or a list of addresses and CIDR ranges, got '${raw}'`,
    );
  }
  try {
    return addressList(env, 'TASKSPACE_TRUST_PROXY', PROXY_RANGE_NAMES);
  } catch {
    throw new ConfigError(
      `TASKSPACE_TRUST_PROXY must be true, false, a whole number of hops or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal, got '${raw}'`,
    );
  }
}

function secretKey(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.TASKSPACE_WEBHOOKS_SECRET_KEY;
  if (!raw) return undefined;
  if (raw.length < 32) throw new ConfigError('TASKSPACE_WEBHOOKS_SECRET_KEY must be at least 32 characters');
  return raw;
}

/**
 * Reads the configuration from an environment map (default `process.env`).
 * @throws ConfigError when a value is malformed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const provider = (env.TASKSPACE_MODEL_PROVIDER ?? 'offline').toLowerCase();
  if (provider !== 'offline' && provider !== 'openai') {
    throw new ConfigError(`TASKSPACE_MODEL_PROVIDER must be 'offline' or 'openai', got '${provider}'`);
  }
  const publicUrl = env.TASKSPACE_PUBLIC_URL?.trim();
  if (publicUrl) {
    try {
      new URL(publicUrl);
    } catch {
      throw new ConfigError(`TASKSPACE_PUBLIC_URL must be an absolute URL, got '${publicUrl}'`);
    }
  }
  const requestTimeoutMs = int(env, 'TASKSPACE_REQUEST_TIMEOUT_MS', 120_000, 100);
  const headersTimeoutMs = int(env, 'TASKSPACE_HEADERS_TIMEOUT_MS', Math.min(30_000, requestTimeoutMs), 100);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `TASKSPACE_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed TASKSPACE_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  const bootstrapPassword = env.TASKSPACE_BOOTSTRAP_PASSWORD;
  if (bootstrapPassword && [...bootstrapPassword].length < 10) {
    throw new ConfigError('TASKSPACE_BOOTSTRAP_PASSWORD must have at least 10 characters');
  }
  return {
    port: int(env, 'PORT', 8787),
    host: env.HOST || '127.0.0.1',
    trustProxy: trustProxy(env),
    dataDir: path.resolve(env.TASKSPACE_DATA_DIR || './.data'),
    databaseUrl: databaseUrl(env),
    standby: standby(env),
    role: serverRole(env),
    runLeaseMs: int(env, 'TASKSPACE_RUN_LEASE_MS', 30_000, 1000),
    runRetention: {
      days: int(env, 'TASKSPACE_RUN_RETENTION_DAYS', 30, 0),
      failedDays: int(env, 'TASKSPACE_RUN_RETENTION_FAILED_DAYS', 90, 0),
    },
    engineConcurrency: int(env, 'TASKSPACE_ENGINE_CONCURRENCY', 16, 1),
    leaderLeaseMs: int(env, 'TASKSPACE_LEADER_LEASE_MS', 15_000, 1000),
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, '') : undefined,
    bootstrapToken: env.TASKSPACE_BOOTSTRAP_TOKEN || undefined,
    logLevel: env.TASKSPACE_LOG_LEVEL || 'info',
    accounts: {
      bootstrapPassword: env.TASKSPACE_BOOTSTRAP_PASSWORD || undefined,
      sessionIdleMs: int(env, 'TASKSPACE_SESSION_IDLE_MINUTES', 7 * 24 * 60, 1) * 60000,
      sessionMaxMs: int(env, 'TASKSPACE_SESSION_MAX_DAYS', 30, 1) * 86400000,
      oauthAccessTokenMs: env.TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS
        ? int(env, 'TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS', 3600, 1) * 1000
        : int(env, 'TASKSPACE_OAUTH_ACCESS_TOKEN_MINUTES', 60, 1) * 60000,
      oauthRefreshTokenMs: int(env, 'TASKSPACE_OAUTH_REFRESH_TOKEN_DAYS', 30, 1) * 86400000,
    },
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
    model: {
      provider,
      baseUrl: (env.TASKSPACE_MODEL_BASE_URL || 'https://api.openai.com/v1').replace(/\/+$/, ''),
      apiKey: env.TASKSPACE_MODEL_API_KEY || undefined,
      name: env.TASKSPACE_MODEL_NAME || 'gpt-4o-mini',
      timeoutMs: int(env, 'TASKSPACE_MODEL_TIMEOUT_MS', 60000, 1),
    },
    webhooks: {
      allowInsecure: flag(env, 'TASKSPACE_WEBHOOKS_ALLOW_INSECURE'),
      allowAddresses: addressList(env, 'TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES'),
      caFile: env.TASKSPACE_WEBHOOKS_CA_FILE ? path.resolve(env.TASKSPACE_WEBHOOKS_CA_FILE) : undefined,
      maxAttempts: int(env, 'TASKSPACE_WEBHOOKS_MAX_ATTEMPTS', 10, 1),
      retryBaseMs: int(env, 'TASKSPACE_WEBHOOKS_RETRY_BASE_MS', 30000, 0),
      retryMaxMs: int(env, 'TASKSPACE_WEBHOOKS_RETRY_MAX_MS', 3600000, 0),
      timeoutMs: int(env, 'TASKSPACE_WEBHOOKS_TIMEOUT_MS', 10000, 1),
      concurrency: int(env, 'TASKSPACE_WEBHOOKS_CONCURRENCY', 32, 1),
      concurrencyPerTarget: int(env, 'TASKSPACE_WEBHOOKS_CONCURRENCY_PER_TARGET', 8, 1),
      pollMs: int(env, 'TASKSPACE_WEBHOOKS_POLL_MS', 500, 10),
      secretKey: secretKey(env),
      logRetentionDays: int(env, 'TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS', 30, 0),
      dueGraceMs: int(env, 'TASKSPACE_DUE_GRACE_MS', 86400000, 0),
      inboundPerMinute: int(env, 'TASKSPACE_INBOUND_RATE_PER_MINUTE', 60, 1),
      respondTimeoutMs: int(env, 'TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS', 30000, 0),
    },
  };
}

/** The places media bytes can live (see {@link Config.mediaStore}). */
export const MEDIA_STORE_KINDS = ['files', 'database'] as const;
/** One of {@link MEDIA_STORE_KINDS}. */
export type MediaStoreKind = (typeof MEDIA_STORE_KINDS)[number];

/** `TASKSPACE_MEDIA_STORE`; by default `database` when `DATABASE_URL` is set, else `files`. */
function mediaStore(env: NodeJS.ProcessEnv): MediaStoreKind {
  const value = (env.TASKSPACE_MEDIA_STORE ?? '').trim().toLowerCase();
  if (!value) return env.DATABASE_URL ? 'database' : 'files';
  if (!(MEDIA_STORE_KINDS as readonly string[]).includes(value)) {
    throw new ConfigError(`TASKSPACE_MEDIA_STORE must be 'files' or 'database', got '${env.TASKSPACE_MEDIA_STORE}'`);
  }
  return value as MediaStoreKind;
}

/** The values of `TASKSPACE_ROLE` (see {@link Config.role}). */
export const SERVER_ROLES = ['all', 'api', 'worker'] as const;
/** One of {@link SERVER_ROLES}. */
export type ServerRole = (typeof SERVER_ROLES)[number];

/** `TASKSPACE_ROLE`: `all` unless set; `api` and `worker` only on PostgreSQL. */
function serverRole(env: NodeJS.ProcessEnv): ServerRole {
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

/** `TASKSPACE_STANDBY`; only PostgreSQL can hand a database over (one server owns a SQLite data directory). */
function standby(env: NodeJS.ProcessEnv): boolean {
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

/** `DATABASE_URL`, checked to be a PostgreSQL URL; undefined when unset or empty. */
function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.DATABASE_URL;
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql:// (got '${url.protocol}//'); leave it unset for the embedded SQLite file`,
    );
  }
  return value;
}
