import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageDocument } from './page-style';

/**
 * What the unauthenticated pages (public agents, shared projects) have in common: HTML escaping,
 * JSON-or-HTML negotiation and no caching. Their requests count against the caller address's
 * anonymous hourly budget like every request without an API token (auth/hook.ts, `RequestMeter`).
 */

export { escapeHtml } from './html';

/** JSON when the Accept header names application/json and not text/html (browsers send text/html). */
export function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

/**
 * The Content-Security-Policy of every public page: no scripts, the service's own stylesheet
 * only (web/src/pages.css), images over http(s).
 */
export const PUBLIC_PAGE_CSP = "default-src 'none'; img-src https: http:; style-src 'self'";

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
 * The policy of the service's own form pages (setup link, OAuth consent): no scripts, the
 * service's own stylesheet only, no framing; forms post to this origin and, when given, to `formTargets` too (a form
 * whose answer redirects elsewhere needs that target allowed, as browsers apply `form-action`
 * to redirects).
 */
export function formPageCsp(formTargets: readonly string[] = []): string {
  return `default-src 'none'; style-src 'self'; form-action 'self'${formTargets.map((t) => ' ' + t).join('')}; frame-ancestors 'none'`;
}

/**
 * Sends a server-rendered form page in the app's look (page-style.ts): `title` as the heading, `body` as trusted HTML
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
  return pageDocument(reply, title, body);
}
