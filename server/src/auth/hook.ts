import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors';
import type { Services } from '../services';
import { RateLimiter } from './rate-limit';
import { ActorCache, type Actor } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the bearer-token hook on /api routes. */
    actor: Actor;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Requests per hour for a rate tier (0 = unlimited). Unknown tiers get the standard limit. */
export function limitForTier(services: Services, tier: string): number {
  const limits = services.config.rateLimits;
  return tier === 'premium' ? limits.premium : tier === 'enterprise' ? limits.enterprise : limits.standard;
}

/**
 * Builds the onRequest hook for bearer-authenticated API routes (spec section 5.1, 8):
 * resolves the token, counts the request against the account's hourly limit (or the caller
 * address's standard limit when unauthenticated), sets the X-RateLimit-* headers, and rejects
 * with 429 RATE_LIMITED or 401 INVALID_TOKEN. Every call for the same `services` returns the same
 * hook, so all API versions share one budget per account.
 */
export function bearerAuth(services: Services): BearerHook {
  let hook = hooks.get(services);
  if (!hook) {
    hook = createBearerAuth(services);
    hooks.set(services, hook);
  }
  return hook;
}

type BearerHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** One hook per server, so /api/v1 and /api/v2 share one rate-limit budget and one token cache. */
const hooks = new WeakMap<Services, BearerHook>();

function createBearerAuth(services: Services): BearerHook {
  const limiter = new RateLimiter(services.clock);
  const actors = new ActorCache(services.db);
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const actor = match ? actors.lookup(match[1]!) : undefined;
    const decision = actor
      ? limiter.hit(`u:${actor.userId}`, limitForTier(services, actor.rateTier))
      : limiter.hit(`ip:${request.ip}`, services.config.rateLimits.standard);
    reply.header('X-RateLimit-Limit', decision.limit);
    reply.header('X-RateLimit-Remaining', decision.remaining);
    reply.header('X-RateLimit-Reset', decision.reset);
    if (!decision.allowed) {
      reply.header('Retry-After', Math.max(1, decision.reset - Math.floor(services.clock.now() / 1000)));
      throw new ServiceError(429, 'RATE_LIMITED', `rate limit of ${decision.limit} requests per hour exceeded`);
    }
    if (!actor) {
      throw new ServiceError(401, 'INVALID_TOKEN', match ? 'the access token is invalid or revoked' : 'missing bearer token', {
        field: 'authorization',
        reason: match ? 'invalid_token' : 'missing_token',
      });
    }
    request.actor = actor;
  };
}
