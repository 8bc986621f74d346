import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiter } from '../auth/rate-limit';
import { ServiceError } from '../errors';
import type { Services } from '../services';

/**
 * What the unauthenticated pages (public agents, shared projects) have in common: HTML escaping,
 * JSON-or-HTML negotiation and a per-address hourly rate limit.
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
 * A guard for one group of public pages: counts each request against the standard hourly limit
 * of the caller's address, sets the X-RateLimit-* headers and `Cache-Control: no-store`.
 * @throws ServiceError 429 RATE_LIMITED past the limit.
 */
export function publicPageGuard(svc: Services): (request: FastifyRequest, reply: FastifyReply) => void {
  const limiter = new RateLimiter(svc.clock);
  return (request, reply) => {
    const decision = limiter.hit(`ip:${request.ip}`, svc.config.rateLimits.standard);
    reply.header('X-RateLimit-Limit', decision.limit);
    reply.header('X-RateLimit-Remaining', decision.remaining);
    reply.header('X-RateLimit-Reset', decision.reset);
    reply.header('Cache-Control', 'no-store');
    if (!decision.allowed) throw new ServiceError(429, 'RATE_LIMITED', `rate limit of ${decision.limit} requests per hour exceeded`);
  };
}

/** Sends `html` as a public page with the {@link PUBLIC_PAGE_CSP}. */
export function sendHtml(reply: FastifyReply, html: string): string {
  reply.header('Content-Security-Policy', PUBLIC_PAGE_CSP);
  reply.type('text/html; charset=utf-8');
  return html;
}
