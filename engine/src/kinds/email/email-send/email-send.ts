/**
 * `email.send` (docs "Actions", docs/email.md "Sending mail from an automation"): a mail to `to`
 * (and `cc`), its subject, a text body and optionally an HTML body, all templates, with files of
 * the workspace's media attached. The host queues it (`Service.sendEmail`) through its outgoing
 * mail, exactly once per step even across a crash; the output is what the host returns (the
 * server: `{mailId, messageId, to, cc, subject, attachments}`). A host without mail fails the step
 * with the permanent `NOT_SUPPORTED` (or the host's own permanent error when mail is not configured).
 */
import { Type } from '@sinclair/typebox';
import { permanent } from '../../../errors';
import { optionalString, requiredString } from '../../params';
import type { ActionKind } from '../../executor';
import type { EmailParams } from '../../../ports';
import type { Scope, Templates } from '../../../templates';
import { defineAction } from '../../kind';
import { Template } from '../../parts';
import type { ActionOf } from '../../kind';

/** Most recipients of one mail (`to` and `cc` together). */
export const EMAIL_MAX_RECIPIENTS = 50;
/** Most attachments of one mail. */
export const EMAIL_MAX_ATTACHMENTS = 10;

const parameters = Type.Object({
  to: Template({ title: 'To', description: 'Addresses, separated by commas (`ann@example.com, Ben <ben@example.com>`).' }),
  cc: Type.Optional(Template({ title: 'Cc', description: 'Addresses, separated by commas.' })),
  subject: Template({ title: 'Subject', description: 'One line.' }),
  text: Template({ title: 'Text body', description: 'The plain-text body; may span lines.' }),
  html: Type.Optional(
    Template({
      title: 'HTML body',
      description: 'An HTML alternative to the text body. Escape inserted values: {{ trigger.name | escape }}.',
    }),
  ),
  smtpUrl: Type.Optional(
    Template({
      title: 'SMTP connection',
      description:
        "A workspace's own SMTP server instead of the service's, from a secret: {{ secrets.SMTP_URL }} holding smtp://user:pass@host:587 or smtps://user:pass@host:465.",
    }),
  ),
  attachments: Type.Optional(
    Type.Array(
      Type.Object(
        {
          mediaId: Template({ title: 'Media', description: "The id of a media item of the automation's workspace." }),
          filename: Type.Optional(Template({ title: 'File name', description: "Default: the media item's name." })),
        },
        { additionalProperties: false },
      ),
      { maxItems: EMAIL_MAX_ATTACHMENTS, title: 'Attachments' },
    ),
  ),
});

/** Sends a mail through the host's outgoing mail. */
export type EmailSendAction = ActionOf<'email.send', typeof parameters>;

/** The addresses of a rendered list: split on commas, semicolons and line breaks, blanks dropped. */
function addresses(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,;\r\n]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Loose check of one address, plain or `Name <address>`. */
const ADDRESS = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function prepare(a: EmailSendAction, s: Scope, t: Templates): EmailParams {
  const to = addresses(requiredString(t, a.to, s, 'to'));
  const cc = addresses(optionalString(t, a.cc, s, 'cc'));
  if (to.length === 0) throw permanent('INVALID_INPUT', 'to names no address', { field: 'to' });
  if (to.length + cc.length > EMAIL_MAX_RECIPIENTS) {
    throw permanent('INVALID_INPUT', `at most ${EMAIL_MAX_RECIPIENTS} recipients`, { field: 'to' });
  }
  for (const [field, list] of [
    ['to', to],
    ['cc', cc],
  ] as const) {
    const bad = list.find((address) => !ADDRESS.test(address));
    if (bad !== undefined) throw permanent('INVALID_INPUT', `'${bad}' is not an email address`, { field });
  }
  const subject = requiredString(t, a.subject, s, 'subject').trim();
  if (/[\r\n]/.test(subject)) throw permanent('INVALID_INPUT', 'subject must be one line', { field: 'subject' });
  const p: EmailParams = { to, cc, subject, text: t.render(a.text, s, 'text'), attachments: [] };
  const smtpUrl = optionalString(t, a.smtpUrl, s, 'smtpUrl')?.trim();
  if (smtpUrl) p.smtpUrl = smtpUrl;
  const html = optionalString(t, a.html, s, 'html');
  if (html !== undefined && html !== '') p.html = html;
  (a.attachments ?? []).forEach((file, i) => {
    const mediaId = requiredString(t, file.mediaId, s, `attachments[${i}].mediaId`).trim();
    const filename = optionalString(t, file.filename, s, `attachments[${i}].filename`)?.trim();
    p.attachments.push(filename ? { mediaId, filename } : { mediaId });
  });
  return p;
}

const executor: ActionKind<EmailSendAction, EmailParams> = {
  prepare,
  // The connection holds credentials: the journal says only that there was one.
  journalInput: (p) => (p.smtpUrl === undefined ? p : { ...p, smtpUrl: '[workspace SMTP connection]' }),
  execute: (ctx, p) => {
    if (ctx.service.sendEmail === undefined) throw permanent('NOT_SUPPORTED', 'this host does not send mail');
    return ctx.service.sendEmail(ctx.serviceContext, p);
  },
};

/** The `email.send` kind. */
export const EMAIL_SEND_KIND = defineAction({
  type: 'email.send',
  title: 'Send an email',
  summary: 'Mails people through the service’s SMTP server, with files attached.',
  category: 'Email',
  icon: 'mail',
  sideEffects: true,
  timeout: true,
  parameters,
  output: Type.Object(
    {
      mailId: Type.String(),
      messageId: Type.String(),
      to: Type.Array(Type.String()),
      cc: Type.Array(Type.String()),
      subject: Type.String(),
      attachments: Type.Number(),
    },
    { title: 'Mail' },
  ),
  executor,
});

declare module '../../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    emailSend: EmailSendAction;
  }
}
