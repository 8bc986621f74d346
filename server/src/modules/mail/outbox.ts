import type { Query, Sql } from '../../platform/db/query';
import type { MailConfig } from '../../config';
import { newId } from '../../platform/ids';

/**
 * The mail outbox (docs/email.md; table `mail_outbox`, migration 038): a mail is a row written in
 * the transaction of what caused it (a password reset, an invitation, a notification, an
 * `email.send` step), so it exists exactly when its cause committed; the sender
 * (`sender.ts`) sends it later, in the background. No request waits for SMTP.
 */

/** What a mail is about; notifications (`NOTIFICATION_KINDS`) follow each person's choice. */
export type MailKind =
  | 'password_reset'
  | 'email_verification'
  | 'email_changed'
  | 'invitation'
  | 'approval'
  | 'failure'
  | 'assignment'
  | 'mention'
  | 'digest'
  | 'automation'
  | 'test';

/** Kinds whose body carries a link token: their bodies are cleared once sent. */
const SECRET_BEARING: ReadonlySet<MailKind> = new Set(['password_reset', 'email_verification', 'invitation', 'approval']);

/** Whether mails of `kind` carry a token in their body (cleared from the outbox once sent). */
export function carriesToken(kind: string): boolean {
  return SECRET_BEARING.has(kind as MailKind);
}

/** A file attached to a mail: a media item of the mail's workspace, read when the mail is sent. */
export interface MailAttachmentRef {
  mediaId: string;
  /** The attachment's file name (default: the media item's name). */
  filename?: string;
}

/** A mail to queue. Addresses are plain (`a@example.com`) or with a name (`Ann <a@example.com>`). */
export interface NewMail {
  kind: MailKind;
  to: readonly string[];
  cc?: readonly string[];
  subject: string;
  /** The plain-text body (always sent). */
  text: string;
  /** The HTML body (sent as the alternative to `text`). */
  html?: string;
  /** The workspace the mail belongs to (attachments are read from it). */
  workspaceId?: string;
  /** The person it is for, when it is a notification (digests gather by person). */
  userId?: string;
  /** Extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`). */
  headers?: Record<string, string>;
  attachments?: readonly MailAttachmentRef[];
  /** The notification's link, for its line in a digest. */
  link?: string;
  /** Gather for the person's digest instead of sending now. */
  held?: boolean;
  /** A workspace's own SMTP URL, sealed (platform/secret-box.ts); absent: the service's `TASKSPACE_SMTP_URL`. */
  smtpSealed?: string;
}

/** Whether outgoing mail is configured (`TASKSPACE_SMTP_URL`): without it nothing is queued. */
export function mailEnabled(config: { mail: MailConfig }): boolean {
  return config.mail.smtpUrl !== undefined;
}

/** The domain part of the configured `From` address (for Message-IDs), `localhost` when it has none. */
export function senderDomain(from: string): string {
  const match = /@([^\s>]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'localhost';
}

/** The `Message-ID` of mail `id`: `<id@domain of TASKSPACE_MAIL_FROM>`. */
export function messageIdOf(id: string, config: { mail: MailConfig }): string {
  return `<${id}@${senderDomain(config.mail.from)}>`;
}

/**
 * Queues `mail` on handle `q` (join the caller's transaction to queue it with its cause), due now.
 * Its `Message-ID` is `<id@domain of TASKSPACE_MAIL_FROM>`, kept on every attempt.
 * @returns the mail's id.
 */
export function* enqueueMail(q: Sql, config: { mail: MailConfig }, mail: NewMail, now: number): Query<string> {
  const id = newId();
  const messageId = messageIdOf(id, config);
  yield* q.run(
    `INSERT INTO mail_outbox (id, message_id, kind, workspace_id, user_id, to_json, cc_json, subject, text_body, html_body,
       headers_json, attachments_json, link, smtp_sealed, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    [
      id,
      messageId,
      mail.kind,
      mail.workspaceId ?? null,
      mail.userId ?? null,
      JSON.stringify(mail.to),
      JSON.stringify(mail.cc ?? []),
      mail.subject,
      mail.text,
      mail.html ?? null,
      JSON.stringify(mail.headers ?? {}),
      JSON.stringify(mail.attachments ?? []),
      mail.link ?? null,
      mail.smtpSealed ?? null,
      mail.held ? 'held' : 'pending',
      now,
      now,
    ],
  );
  return id;
}
