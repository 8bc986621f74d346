import type { Dialect, Query, Sql } from '../../platform/db/query';
import { ownerGone } from '../../platform/db/postgres/presence';
import { carriesToken } from './outbox';

/**
 * The sender's queries over `mail_outbox` (docs/email.md "Delivery"): claiming due mails, writing
 * each attempt's outcome, and putting mails left `sending` by a process that is gone back in the queue.
 */

/** A claimed mail, as its attempt needs it. */
export interface MailRow {
  id: string;
  messageId: string;
  kind: string;
  workspaceId: string | null;
  toJson: string;
  ccJson: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  headersJson: string;
  attachmentsJson: string;
  /** A workspace's own SMTP URL, sealed; null: the service's. */
  smtpSealed: string | null;
  /** Attempts so far, this one included. */
  attempts: number;
}

const ROW = `id, message_id AS "messageId", kind, workspace_id AS "workspaceId", to_json AS "toJson", cc_json AS "ccJson",
  subject, text_body AS "textBody", html_body AS "htmlBody", headers_json AS "headersJson",
  attachments_json AS "attachmentsJson", smtp_sealed AS "smtpSealed", attempts`;

/**
 * Claims up to `limit` due mails for `sender` in one statement (marked `sending`, attempts
 * counted), oldest due first. PostgreSQL skips rows another process is claiming at that moment.
 * Parameters: sender, now, limit.
 */
const CLAIM: Record<Dialect, string> = {
  sqlite: `UPDATE mail_outbox SET status = 'sending', claimed_by = ?, attempts = attempts + 1
    WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
    RETURNING ${ROW}`,
  postgres: `UPDATE mail_outbox SET status = 'sending', claimed_by = ?, attempts = attempts + 1
    WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?
                 FOR UPDATE SKIP LOCKED)
    RETURNING ${ROW}`,
};

/** Claims up to `limit` mails due at `now` for `sender` (see {@link CLAIM}). */
export function claimMails(q: Sql, sender: string, now: number, limit: number): Query<MailRow[]> {
  return q.all<MailRow>(CLAIM[q.dialect], [sender, now, limit]);
}

/** Whether any mail is due at `now` (an idle poll opens no write). */
export function* anyDue(q: Sql, now: number): Query<boolean> {
  return (
    (yield* q.get<{ id: string }>("SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1", [now])) !==
    undefined
  );
}

/** When the next pending mail falls due (ms), if any is pending. */
export function* nextDue(q: Sql): Query<number | undefined> {
  const row = yield* q.get<{ at: number | null }>("SELECT min(next_attempt_at) AS at FROM mail_outbox WHERE status = 'pending'");
  return row?.at ?? undefined;
}

/**
 * Records that `sender`'s attempt of mail `id` was accepted by the SMTP server: `sent`, and the
 * bodies of mails carrying a link token cleared.
 */
export function* markSent(q: Sql, id: string, kind: string, sender: string, now: number): Query<void> {
  const clear = carriesToken(kind) ? ", text_body = '', html_body = NULL" : '';
  yield* q.run(
    `UPDATE mail_outbox SET status = 'sent', sent_at = ?, claimed_by = NULL, last_error = NULL${clear}
      WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
    [now, id, sender],
  );
}

/**
 * Records a failed attempt of `sender`: due again at `nextAt`, or given up (`failed`) when
 * `nextAt` is null. `error` is kept (at most 500 characters).
 */
export function* markFailedAttempt(q: Sql, id: string, sender: string, error: string, nextAt: number | null): Query<void> {
  yield* q.run(
    `UPDATE mail_outbox SET status = ?, next_attempt_at = COALESCE(?, next_attempt_at), claimed_by = NULL, last_error = ?
      WHERE id = ? AND status = 'sending' AND claimed_by = ?`,
    [nextAt === null ? 'failed' : 'pending', nextAt, error.slice(0, 500), id, sender],
  );
}

/** Puts a claimed mail back unattempted (the sender stopped before it was sent). */
export function* releaseMail(q: Sql, id: string, sender: string): Query<void> {
  yield* q.run(
    "UPDATE mail_outbox SET status = 'pending', claimed_by = NULL, attempts = attempts - 1 WHERE id = ? AND status = 'sending' AND claimed_by = ?",
    [id, sender],
  );
}

/**
 * Puts mails left `sending` back in the queue, to be sent again with the same Message-ID: on
 * SQLite every such row (one process: the previous one died), on PostgreSQL those whose sender's
 * presence lock is gone (platform/db/postgres/presence.ts).
 * @returns how many mails went back.
 */
export function* requeueAbandoned(q: Sql): Query<number> {
  const gone = q.dialect === 'postgres' ? ` AND (claimed_by IS NULL OR ${ownerGone('claimed_by')})` : '';
  return (yield* q.run(`UPDATE mail_outbox SET status = 'pending', claimed_by = NULL WHERE status = 'sending'${gone}`)).changes;
}

/** Rows `claimed_by` this sender and `sending` whose id is not in the JSON array `keep` (parameters: sender, keep). */
const OWN_STALE: Record<Dialect, string> = {
  sqlite: `UPDATE mail_outbox SET status = 'pending', claimed_by = NULL
    WHERE status = 'sending' AND claimed_by = ? AND id NOT IN (SELECT value FROM json_each(?))`,
  postgres: `UPDATE mail_outbox SET status = 'pending', claimed_by = NULL
    WHERE status = 'sending' AND claimed_by = ? AND id NOT IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))`,
};

/**
 * Puts back in the queue the mails this live process holds `sending` but is not sending (`keep`
 * lists those in flight): left behind when the write of an attempt's outcome failed past its
 * retries. They are sent again with the same Message-ID.
 * @returns how many went back.
 */
export function* requeueOwnStale(q: Sql, sender: string, keep: readonly string[]): Query<number> {
  return (yield* q.run(OWN_STALE[q.dialect], [sender, JSON.stringify(keep)])).changes;
}
