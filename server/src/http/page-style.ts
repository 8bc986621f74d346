import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from './html';

/** The key of the pages stylesheet in Vite's build manifest (web/vite.config.ts). */
const PAGES_ENTRY = 'src/pages.css';

/**
 * The URL path of the server-rendered pages' stylesheet (`/assets/pages-<hash>.css`, built from
 * web/src/pages.css with the web app's design tokens), read from the web build's manifest
 * (`<webDir>/.vite/manifest.json`); undefined when the web app is not built (the pages then
 * show unstyled, still usable).
 */
export function pagesStylesheet(webDir: string): string | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file?: string }>;
    const file = manifest[PAGES_ENTRY]?.file;
    return file ? `/${file}` : undefined;
  } catch {
    return undefined;
  }
}

/** The `<link rel=stylesheet>` of the pages stylesheet for the app that sends `reply`, or ''. */
export function pagesStylesheetLink(reply: FastifyReply): string {
  const href = pagesStylesheet(reply.server.services.config.webDir);
  return href ? `<link rel="stylesheet" href="${escapeHtml(href)}">` : '';
}

/**
 * A whole server-rendered page in the shared look: the Taskspace mark, `title` as the heading
 * (when `heading` is true) and `body` (trusted HTML: escape every value in it) in a centred card.
 * `wide` for content pages (shared projects, public agents).
 */
export function pageDocument(
  reply: FastifyReply,
  title: string,
  body: string,
  options: { heading?: boolean; wide?: boolean } = {},
): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><title>${escapeHtml(title)} · Taskspace</title>${pagesStylesheetLink(reply)}</head>` +
    `<body class="page${options.wide ? ' page-wide' : ''}"><main class="page-main"><p class="page-brand">Taskspace</p>` +
    `${options.heading === false ? '' : `<h1>${escapeHtml(title)}</h1>`}${body}</main></body></html>`
  );
}
