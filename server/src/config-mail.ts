import { ConfigError, int } from './config-values';

/** Outgoing mail (docs/email.md; issue 39). */
export interface MailConfig {
  /**
   * The SMTP server mail goes through (`TASKSPACE_SMTP_URL`, nodemailer's connection URL):
   * `smtp://user:pass@host:587` (STARTTLS when the server offers it; `?requireTLS=true` insists on
   * it) or `smtps://user:pass@host:465` (TLS from the first byte). `tls.*` query options go to
   * Node's TLS (`?tls.rejectUnauthorized=false` for a self-signed test server). Unset: no mail is
   * queued or sent and the service works as without mail (links are copied by hand).
   */
  smtpUrl: string | undefined;
  /** The `From` of every mail (`TASKSPACE_MAIL_FROM`, default `Taskspace <taskspace@localhost>`). */
  from: string;
  /** Attempts per mail before it is given up as failed (`TASKSPACE_MAIL_MAX_ATTEMPTS`, default 10). */
  maxAttempts: number;
  /** Wait before the first retry in ms; doubles per attempt (`TASKSPACE_MAIL_RETRY_BASE_MS`, default 30000). */
  retryBaseMs: number;
  /** Longest wait between two attempts in ms (`TASKSPACE_MAIL_RETRY_MAX_MS`, default 3600000 = 1 hour). */
  retryMaxMs: number;
  /** Longest one SMTP conversation may take, connect to the last reply, in ms (`TASKSPACE_MAIL_TIMEOUT_MS`, default 30000). */
  timeoutMs: number;
  /** Mails in flight at once per process (`TASKSPACE_MAIL_CONCURRENCY`, default 4). */
  concurrency: number;
  /** How often the sender looks for due mail when not woken, in ms (`TASKSPACE_MAIL_POLL_MS`, default 1000). */
  pollMs: number;
  /**
   * How long notifications chosen as a digest are gathered before one mail carries them, in ms
   * (`TASKSPACE_MAIL_DIGEST_MINUTES`, default 60; `TASKSPACE_MAIL_DIGEST_SECONDS` wins when set).
   */
  digestMs: number;
}

/**
 * Reads the mail settings ({@link MailConfig}).
 * @throws ConfigError when a value is malformed (an SMTP URL that is not `smtp:` or `smtps:`).
 */
export function mailConfig(env: NodeJS.ProcessEnv): MailConfig {
  const smtpUrl = env.TASKSPACE_SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      throw new ConfigError('TASKSPACE_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587');
    }
  }
  return {
    smtpUrl,
    from: env.TASKSPACE_MAIL_FROM || 'Taskspace <taskspace@localhost>',
    maxAttempts: int(env, 'TASKSPACE_MAIL_MAX_ATTEMPTS', 10, 1),
    retryBaseMs: int(env, 'TASKSPACE_MAIL_RETRY_BASE_MS', 30_000, 1),
    retryMaxMs: int(env, 'TASKSPACE_MAIL_RETRY_MAX_MS', 3_600_000, 1),
    timeoutMs: int(env, 'TASKSPACE_MAIL_TIMEOUT_MS', 30_000, 100),
    concurrency: int(env, 'TASKSPACE_MAIL_CONCURRENCY', 4, 1),
    pollMs: int(env, 'TASKSPACE_MAIL_POLL_MS', 1000, 10),
    digestMs: env.TASKSPACE_MAIL_DIGEST_SECONDS
      ? int(env, 'TASKSPACE_MAIL_DIGEST_SECONDS', 3600, 1) * 1000
      : int(env, 'TASKSPACE_MAIL_DIGEST_MINUTES', 60, 1) * 60_000,
  };
}
