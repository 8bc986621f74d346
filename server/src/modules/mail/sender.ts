import { createTransport } from 'nodemailer';
import type { Readable } from 'node:stream';
import type { Services } from '../../services';
import { WorkerLoop, type WorkerLog } from '../../platform/worker-loop';
import { DEFAULT_WORKER_ID } from '@taskspace/engine';
import { mediaContents } from '../media/contents';
import {
  anyDue,
  claimMails,
  markFailedAttempt,
  markSent,
  nextDue,
  releaseMail,
  requeueAbandoned,
  requeueOwnStale,
  type MailRow,
} from './queue';
import type { Query } from '../../platform/db/query';
import type { MailAttachmentRef } from './outbox';
import { transportOptions, UnusableSmtpError } from './connection';

/**
 * The mail sender (docs/email.md "Delivery"): every `all` and `worker` process with
 * `TASKSPACE_SMTP_URL` set runs one. It claims due `mail_outbox` rows (`sending`, with its worker
 * id), sends each through nodemailer's SMTP transport (a connection per mail; STARTTLS when offered,
 * implicit TLS for `smtps://`), and marks it `sent`, or due again after a wait that doubles from
 * `TASKSPACE_MAIL_RETRY_BASE_MS` up to `TASKSPACE_MAIL_RETRY_MAX_MS` (a permanent 5xx refusal, or
 * `TASKSPACE_MAIL_MAX_ATTEMPTS` attempts, gives it up as `failed`).
 *
 * Crashes: a mail is claimed before it is sent and marked sent right after the SMTP server
 * accepted it. A process that dies mid-attempt leaves the row `sending`; it goes back to
 * `pending` at the next start (SQLite) or once the process's presence lock is gone (PostgreSQL)
 * and is sent again with the same `Message-ID`. So no mail is lost; the one window for a
 * duplicate is a crash after the server's final `250` and before the row is marked (a few
 * milliseconds), and that duplicate carries the same Message-ID, which mail clients and many
 * servers use to drop it.
 */

/** How often a PostgreSQL process looks for mails left `sending` by processes that are gone, in ms. */
const REQUEUE_EVERY_MS = 5000;

/** Tries of the write of one attempt's outcome. */
const OUTCOME_TRIES = 6;

/** Why an attempt failed, in one line for `last_error` (never the SMTP URL or credentials). */
function describe(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const code = e.responseCode ?? e.code ?? 'Error';
  return `${code}: ${e.response ?? e.message ?? String(error)}`.replace(/\s+/g, ' ').slice(0, 500);
}

/** Whether an SMTP error is a permanent refusal (5xx): trying again would get the same answer. */
function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Wait before attempt `attempts + 1`, in ms: base × 2^(attempts − 1), at most the cap, with ±20 % jitter. */
export function mailRetryDelayMs(attempts: number, config: { retryBaseMs: number; retryMaxMs: number }, random = Math.random()): number {
  const raw = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.max(1, Math.round(raw * (0.8 + 0.4 * random)));
}

/** Sends queued mail; see the module comment. */
export class MailSender {
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly loop: WorkerLoop;
  private readonly sender: string;
  private lastRequeue = 0;
  private stopping = false;
  /** Aborted by {@link MailSender.stop}: conversations in progress end (their mails stay queued). */
  private readonly abort = new AbortController();

  constructor(
    private readonly svc: Services,
    private readonly log: WorkerLog,
  ) {
    this.loop = new WorkerLoop('mail sender', () => this.step(), log);
    this.sender = svc.workerId ?? DEFAULT_WORKER_ID;
  }

  /** Starts sending; the first step puts back the mails a previous process left in flight. */
  start(): void {
    this.loop.start();
  }

  /** Looks for due mail now. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming, ends the SMTP conversations in progress (their mails stay queued) and waits for them to settle. */
  async stop(): Promise<void> {
    this.stopping = true;
    const stepping = this.loop.stop();
    this.abort.abort();
    await stepping;
    await Promise.allSettled([...this.inflight.values()]);
  }

  private async step(): Promise<number> {
    const { store, clock, config } = this.svc;
    const poll = config.mail.pollMs;
    if (this.lastRequeue === 0 || Date.now() - this.lastRequeue >= REQUEUE_EVERY_MS) {
      // SQLite: once, before anything is sent; PostgreSQL: now and then, for every process that died.
      if (this.lastRequeue === 0 || store.sql.dialect === 'postgres') {
        const back = await store.run(requeueAbandoned(store.sql));
        if (back > 0) this.log.warn({ worker: 'mail sender', mails: back }, 'mails left in flight by a stopped process were queued again');
      }
      // This process's own rows left `sending` by a failed write of an outcome.
      const own = await store.run(requeueOwnStale(store.sql, this.sender, [...this.inflight.keys()]));
      if (own > 0) this.log.warn({ worker: 'mail sender', mails: own }, 'mails this process left in flight were queued again');
      this.lastRequeue = Date.now();
    }
    const free = config.mail.concurrency - this.inflight.size;
    const wait = store.sql.dialect === 'postgres' ? Math.min(poll, REQUEUE_EVERY_MS) : poll;
    if (free <= 0) return wait;
    const now = clock.now();
    if (!(await store.run(anyDue(store.sql, now)))) {
      const next = await store.run(nextDue(store.sql));
      return next === undefined ? wait : Math.min(wait, Math.max(0, next - now));
    }
    const rows = await store.run(claimMails(store.sql, this.sender, now, free));
    for (const row of rows) this.launch(row);
    return rows.length === free ? wait : 0;
  }

  private launch(row: MailRow): void {
    const attempt = this.attempt(row)
      .catch((error: unknown) => this.log.error({ err: error, mail: row.id }, 'a mail attempt failed unexpectedly'))
      .finally(() => {
        this.inflight.delete(row.id);
        this.loop.wake();
      });
    this.inflight.set(row.id, attempt);
  }

  /** The attachments of `row`, read into memory before the SMTP conversation starts. */
  private async attachments(row: MailRow): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
    const refs = JSON.parse(row.attachmentsJson) as MailAttachmentRef[];
    if (refs.length === 0) return [];
    const { store, config } = this.svc;
    const contents = mediaContents(config, store);
    const out: { filename: string; content: Buffer; contentType: string }[] = [];
    for (const ref of refs) {
      const media = await store.run(
        store.sql.get<{ id: string; name: string; contentType: string; storageKey: string }>(
          'SELECT id, name, content_type AS "contentType", storage_key AS "storageKey" FROM media WHERE id = ? AND workspace_id = ?',
          [ref.mediaId, row.workspaceId],
        ),
      );
      const stream = media ? await store.run(contents.open(store.sql, media)) : undefined;
      if (!media || !stream) throw Object.assign(new Error(`attachment ${ref.mediaId} no longer exists`), { responseCode: 550 });
      out.push({ filename: ref.filename ?? media.name, content: await readAll(stream), contentType: media.contentType });
    }
    return out;
  }

  private async attempt(row: MailRow): Promise<void> {
    const { store, clock, config } = this.svc;
    const mail = config.mail;
    let transport: ReturnType<typeof createTransport> | undefined;
    try {
      if (row.smtpSealed === null && mail.smtpUrl === undefined) {
        throw new UnusableSmtpError('this service has no TASKSPACE_SMTP_URL');
      }
      const workspaceUrl = row.smtpSealed === null ? undefined : this.svc.secretBox.open(row.smtpSealed);
      transport = createTransport(await transportOptions(mail, this.svc.addressPolicy, workspaceUrl));
      await transport.sendMail({
        from: mail.from,
        to: JSON.parse(row.toJson) as string[],
        cc: JSON.parse(row.ccJson) as string[],
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody ?? undefined,
        messageId: row.messageId,
        headers: JSON.parse(row.headersJson) as Record<string, string>,
        attachments: await this.attachments(row),
        signal: this.abort.signal,
      });
    } catch (error) {
      if (this.stopping && !permanent(error)) {
        await store.run(releaseMail(store.sql, row.id, this.sender));
        return;
      }
      const given = permanent(error) || row.attempts >= mail.maxAttempts;
      const nextAt = given ? null : clock.now() + mailRetryDelayMs(row.attempts, mail);
      this.log.warn(
        { worker: 'mail sender', mail: row.id, attempts: row.attempts, error: describe(error), givenUp: given },
        given ? 'a mail was given up' : 'a mail attempt failed; it is tried again later',
      );
      await this.record(() => markFailedAttempt(store.sql, row.id, this.sender, describe(error), nextAt));
      return;
    } finally {
      transport?.close();
    }
    const sentAt = clock.now();
    await this.record(() => markSent(store.sql, row.id, row.kind, this.sender, sentAt));
  }

  /**
   * Writes an attempt's outcome, tried again with a growing wait (up to {@link OUTCOME_TRIES}
   * tries) when the database refuses it; past that the row stays `sending` and goes back to the
   * queue at the next look for stale rows (sent again, same Message-ID).
   */
  private async record(write: () => Query<void>): Promise<void> {
    const { store } = this.svc;
    for (let attempt = 1; ; attempt++) {
      try {
        await store.run(write());
        return;
      } catch (error) {
        if (attempt >= OUTCOME_TRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** attempt)));
      }
    }
  }
}

/** The whole of `stream` as one buffer. */
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
