import { escapeHtml } from '../../../http/html';

/**
 * The one layout of every mail Taskspace writes (docs/email.md "Templates"): a heading, a few
 * paragraphs, at most one button with its link, and a footer, rendered both as plain text and as
 * HTML (every value escaped). Each mail kind is a template in this folder that fills it.
 */

/** What a mail says, before rendering. Texts are plain (never HTML). */
export interface MailContent {
  subject: string;
  /** The heading. */
  title: string;
  paragraphs: readonly string[];
  /** The one thing to do: a button in HTML, a line with the link in text. */
  action?: { label: string; url: string };
  /** Small print at the bottom (why this mail came, how to stop it). */
  footer?: readonly string[];
}

/** A rendered mail: subject and both bodies. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Renders `content` as text and HTML. */
export function renderMail(content: MailContent): RenderedMail {
  const text = [
    content.title,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    ...(content.footer && content.footer.length > 0 ? ['--', ...content.footer] : []),
  ]
    .join('\n')
    .trimEnd();
  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="font-size:13px;color:#555">Or open this link: <a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const footer =
    content.footer && content.footer.length > 0
      ? `<hr style="border:none;border-top:1px solid #ddd;margin:24px 0"><p style="font-size:12px;color:#777">${content.footer.map(escapeHtml).join('<br>')}</p>`
      : '';
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:24px">` +
    `<h1 style="font-size:20px">${escapeHtml(content.title)}</h1>` +
    content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    button +
    footer +
    `</body></html>`;
  return { subject: content.subject, text, html };
}
