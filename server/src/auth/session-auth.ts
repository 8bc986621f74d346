import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../errors';
import type { Services } from '../services';
import type { Actor } from './tokens';
import type { Query, Sql } from '../platform/db/query';
import { SESSION_COOKIE, actorForSession } from './sessions';

/** Methods that never change anything, so need no CSRF check. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The service's own origin as a browser names it: TASKSPACE_PUBLIC_URL's origin when set, else
 * the scheme and Host header the request arrived with.
 */
export function ownOrigin(services: Services, request: FastifyRequest): string | undefined {
  if (services.config.publicUrl) return new URL(services.config.publicUrl).origin;
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}`.toLowerCase() : undefined;
}

function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * CSRF defence for cookie-authenticated requests (docs "CSRF"): a write (any method but
 * GET/HEAD/OPTIONS) must carry an `Origin` header, else a `Referer`, naming the service's own
 * origin. Requests with neither are refused too.
 * @throws ServiceError 403 CSRF_REJECTED.
 */
export function checkSameOrigin(services: Services, request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const expected = ownOrigin(services, request);
  const origin = request.headers.origin;
  const presented = origin !== undefined ? originOf(origin) : originOf(request.headers.referer);
  if (!expected || presented !== expected.toLowerCase()) {
    throw new ServiceError(
      403,
      'CSRF_REJECTED',
      "cross-site request refused: a request authenticated by the session cookie must come from this service's own pages",
      { field: origin !== undefined ? 'origin' : 'referer', reason: presented ? 'cross_origin' : 'missing_origin' },
    );
  }
}

/**
 * Login-CSRF defence for sign-in: a browser posting the form from another site (its `Origin`, else
 * `Referer`, names another origin) is refused, so no site can sign a visitor into an account of
 * its choosing. Requests without either header (scripts, curl) pass: they carry no visitor.
 * @throws ServiceError 403 CSRF_REJECTED.
 */
export function refuseCrossSiteSignIn(services: Services, request: FastifyRequest): void {
  const origin = request.headers.origin;
  const presented = origin !== undefined ? originOf(origin) : originOf(request.headers.referer);
  if (presented === undefined && origin === undefined && request.headers.referer === undefined) return;
  const expected = ownOrigin(services, request);
  if (!expected || presented !== expected.toLowerCase()) {
    throw new ServiceError(403, 'CSRF_REJECTED', "cross-site sign-in refused: sign in from this service's own pages", {
      field: origin !== undefined ? 'origin' : 'referer',
      reason: 'cross_origin',
    });
  }
}

/** The outcome of presenting a session cookie. */
export interface SessionAuth {
  /** The account, or undefined when the session is unknown, revoked or expired. */
  actor: Actor | undefined;
}

/**
 * Resolves the session cookie of a request that has no Authorization header; undefined when it
 * carries no session cookie. Cookie-authenticated writes are CSRF-checked first. Records the
 * session's use (see `actorForSession`).
 * @throws ServiceError 403 CSRF_REJECTED (see {@link checkSameOrigin}).
 */
export function* sessionAuth(services: Services, request: FastifyRequest, q: Sql = services.store.sql): Query<SessionAuth | undefined> {
  const secret = request.cookies?.[SESSION_COOKIE];
  if (!secret) return undefined;
  checkSameOrigin(services, request);
  return { actor: yield* actorForSession(q, secret, services.clock.now(), services.config.accounts) };
}
