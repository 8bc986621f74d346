import path from 'node:path';
import { addressList, ConfigError, flag, int } from './config-values';

/** Webhook and outbound-HTTP settings (README "Events and webhooks"). */
export interface WebhooksConfig {
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
}

function secretKey(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.TASKSPACE_WEBHOOKS_SECRET_KEY;
  if (!raw) return undefined;
  if (raw.length < 32) throw new ConfigError('TASKSPACE_WEBHOOKS_SECRET_KEY must be at least 32 characters');
  return raw;
}

/**
 * Reads the webhook and outbound-HTTP settings ({@link WebhooksConfig}).
 * @throws ConfigError when a value is malformed.
 */
export function webhooksConfig(env: NodeJS.ProcessEnv): WebhooksConfig {
  return {
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
  };
}
