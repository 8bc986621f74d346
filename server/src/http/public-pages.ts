import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the unauthenticated pages (public agents, shared projects) have in common: HTML escaping,
 * JSON-or-HTML negotiation and no caching. Their requests count against the caller address's
 * anonymous hourly budget like every request without an API token (auth/hook.ts, `RequestMeter`).
 */

/** `text` with the five HTML special characters escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON when the Accept header names application/json and not text/html (browsers send text/html). */
export function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

/** The Content-Security-Policy of every public page: no scripts, inline styles, images over http(s). */
export const PUBLIC_PAGE_CSP = "default-src 'none'; img-src https: http:; style-src 'unsafe-inline'";

/**
 * A guard for one group of public pages: sets `Cache-Control: no-store`. Counting, the
 * X-RateLimit-* headers and 429 with `Retry-After` come from the app-wide request meter, which
 * has run before the route.
 */
export function publicPageGuard(): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // Async, so that it also works as an onRequest hook (a sync hook would have to call `done`).
  return async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  };
}

/** Sends `html` as a public page with the {@link PUBLIC_PAGE_CSP}. */
export function sendHtml(reply: FastifyReply, html: string): string {
  reply.header('Content-Security-Policy', PUBLIC_PAGE_CSP);
  reply.type('text/html; charset=utf-8');
  return html;
}

/**
 * The policy of the service's own form pages (setup link, OAuth consent): no scripts, inline
 * styles, no framing; forms post to this origin and, when given, to `formTargets` too (a form
 * whose answer redirects elsewhere needs that target allowed, as browsers apply `form-action`
 * to redirects).
 */
export function formPageCsp(formTargets: readonly string[] = []): string {
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formTargets.map((t) => ' ' + t).join('')}; frame-ancestors 'none'`;
}

/**
 * Sends a minimal server-rendered form page: `title` as the heading, `body` as trusted HTML
 * (escape every value in it with {@link escapeHtml}), the {@link formPageCsp} and the given
 * `Referrer-Policy` (default `no-referrer`).
 */
export function formPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
  options: { formTargets?: readonly string[]; referrerPolicy?: string } = {},
): string {
  reply.code(status);
  reply.header('Content-Security-Policy', formPageCsp(options.formTargets));
  reply.header('Referrer-Policy', options.referrerPolicy ?? 'no-referrer');
  reply.header('Cache-Control', 'no-store');
  reply.type('text/html; charset=utf-8');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Taskspace</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label,input,textarea,select,button{display:block;width:100%;margin:.4rem 0;box-sizing:border-box}input,textarea,select{padding:.5rem}button{padding:.6rem}label.check{display:flex;gap:.5rem;align-items:center}label.check input{width:auto}.error{color:#b00020}small{display:block;opacity:.75}ul.scopes li{margin:.3rem 0}.actions{display:flex;gap:.5rem}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
