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
