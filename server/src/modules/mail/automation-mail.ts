import { permanent, type EmailParams, type ServiceContext } from '@taskspace/engine';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { ServiceError } from '../../errors';
import { enqueueMail, mailEnabled, messageIdOf } from './outbox';
import { isSmtpUrl } from './connection';

/** Largest total size of one mail's attachments, in bytes (20 MiB; most mail servers refuse more). */
export const EMAIL_ATTACHMENTS_MAX_BYTES = 20 * 1024 * 1024;

/** What an `email.send` step outputs. */
export interface AutomationMailOutput {
  mailId: string;
  messageId: string;
  to: string[];
  cc: string[];
  subject: string;
  /** How many files are attached. */
  attachments: number;
}

/**
 * Queues the mail of an `email.send` step (docs/email.md "Sending mail from an automation") on
 * the transaction `tx` (the engine host records the step's output in it: the mail is queued
 * exactly once). It goes through the instance's SMTP server, or the workspace's own (`smtpUrl`,
 * kept sealed in the outbox), from `TASKSPACE_MAIL_FROM`, with the header
 * `X-Taskspace-Automation: <automation id>`.
 * @throws ActionError `MAIL_NOT_CONFIGURED` (permanent) without `TASKSPACE_SMTP_URL`; ServiceError 404 for an
 *   attachment that is not a media item of the workspace; 413 when the attachments pass
 *   {@link EMAIL_ATTACHMENTS_MAX_BYTES}. All permanent for the step.
 */
export function* queueAutomationMail(tx: Sql, svc: Services, ctx: ServiceContext, p: EmailParams): Query<AutomationMailOutput> {
  if (p.smtpUrl !== undefined && !isSmtpUrl(p.smtpUrl)) {
    throw permanent('INVALID_INPUT', 'smtpUrl must be an smtp:// or smtps:// URL', { field: 'smtpUrl' });
  }
  if (p.smtpUrl === undefined && !mailEnabled(svc.config)) {
    throw permanent('MAIL_NOT_CONFIGURED', 'this service sends no mail: its administrator has not set TASKSPACE_SMTP_URL');
  }
  let bytes = 0;
  for (const [i, file] of p.attachments.entries()) {
    const media = yield* tx.get<{ size: number }>('SELECT size_bytes AS size FROM media WHERE id = ? AND workspace_id = ?', [
      file.mediaId,
      ctx.workspaceId,
    ]);
    if (!media) {
      throw new ServiceError(404, 'NOT_FOUND', `attachment ${file.mediaId} is not a media item of this workspace`, {
        field: `attachments[${i}].mediaId`,
        reason: 'not_found',
      });
    }
    bytes += media.size;
  }
  if (bytes > EMAIL_ATTACHMENTS_MAX_BYTES) {
    throw new ServiceError(413, 'PAYLOAD_TOO_LARGE', `the attachments add up to ${bytes} bytes; at most ${EMAIL_ATTACHMENTS_MAX_BYTES}`, {
      field: 'attachments',
      reason: 'too_large',
    });
  }
  const mailId = yield* enqueueMail(
    tx,
    svc.config,
    {
      kind: 'automation',
      to: p.to,
      cc: p.cc,
      subject: p.subject,
      text: p.text,
      html: p.html,
      workspaceId: ctx.workspaceId,
      attachments: p.attachments,
      headers: { 'X-Taskspace-Automation': ctx.automationId },
      smtpSealed: p.smtpUrl === undefined ? undefined : svc.secretBox.seal(p.smtpUrl),
    },
    svc.clock.now(),
  );
  return { mailId, messageId: messageIdOf(mailId, svc.config), to: p.to, cc: p.cc, subject: p.subject, attachments: p.attachments.length };
}
