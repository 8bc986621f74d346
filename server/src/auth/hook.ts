import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors';
import type { Services } from '../services';
import { RateLimiter, type RateDecision } from './rate-limit';
import { RateCounterSync } from './rate-counters';
import { ActorCache, type Actor } from './tokens';
import { sessionAuth, type SessionAuth } from './session-auth';
import { requiredScope, scopeAllows } from './scopes';
import { requireFirstPartyCredential } from './access';
import { rateLimitHeaders } from '../http/rate-limit-headers';
import { AUTH_TOPIC, WorkListener } from '../platform/db/postgres/notifications';
import type { WorkerLog } from '../platform/worker-loop';

/**
 * How a route takes part in the hourly request budget (route option `config.rateLimit`):
 * - absent: counted, against the account on `/api` with a valid token, else against the caller's address;
 * - `'uncounted'`: the caller address's budget is reported in the headers but not spent (health probes);
 * - `'per-url'`: the route reports a limit of its own in the X-RateLimit-* headers (inbound webhooks).
 */
export type RatePolicy = 'uncounted' | 'per-url';

/**
 * How a route under `/api` authenticates (route option `config.auth`): absent, it needs a valid
 * credential (bearer token, else the session cookie); `'none'`, it takes none and is counted
 * against the caller's address (sign-in, the setup link, accepting an invitation as a new account);
 * `'optional'`, a credential is read as usual (counted against its account, scopes checked) but
 * the route also runs without one, with `request.actor` unset, when none is presented or the
 * session cookie's session has ended (the session probe, `GET /api/v1/auth/session`). A bearer
 * token that is presented and invalid or expired is still 401.
 */
export type AuthPolicy = 'none' | 'optional';

/**
 * Routes that manage who may do what — members, invitations, personal access tokens, secrets,
 * OAuth clients and grants, sessions, the password — are marked `config: { firstParty: true }`
 * (docs/oauth.md "Threat model"). Only first-party credentials (a session or a personal access
 * token) may use them: an OAuth access token gets 403 FORBIDDEN, `details.reason:
 * oauth_token_not_allowed`, so an app can never mint itself a wider or longer-lived credential.
 */
export type FirstPartyPolicy = boolean;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set by the request meter on /api routes. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** See {@link RatePolicy}. */
    rateLimit?: RatePolicy;
    /** See {@link AuthPolicy}. */
    auth?: AuthPolicy;
    /** See {@link FirstPartyPolicy}. */
    firstParty?: FirstPartyPolicy;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Paths behind the bearer token: `/api`, `/api/…`, `/api?…`. */
const API_PATH = /^\/api(?:[/?]|$)/;

/** Requests per hour for a rate tier (0 = unlimited). Unknown tiers get the standard limit. */
export function limitForTier(services: Services, tier: string): number {
  const limits = services.config.rateLimits;
  return tier === 'premium' ? limits.premium : tier === 'enterprise' ? limits.enterprise : limits.standard;
}

/** Something headers can be set on: a Fastify reply. */
interface HeaderSink {
  header(name: string, value: number | string): unknown;
}

/** How often a token's `last_used_at` is written at most, in ms. */
const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * Refuses a request the credential's scopes do not cover (docs/oauth.md "Scopes"): `webhooks`
 * for `/api/v2`, else `read` for GET/HEAD/OPTIONS and `write` for the rest. Credentials without
 * scopes (sessions, automations) may do everything their roles allow.
 * @throws ServiceError 403 INSUFFICIENT_SCOPE, `details.scope` naming the scope needed.
 */
export function requireScopeFor(method: string, url: string, actor: Actor): void {
  if (!actor.scopes) return;
  const needed = requiredScope(method, url);
  if (scopeAllows(actor.scopes, needed)) return;
  throw new ServiceError(403, 'INSUFFICIENT_SCOPE', `this credential lacks the '${needed}' scope this request needs`, {
    field: 'authorization',
    reason: 'insufficient_scope',
    scope: needed,
  });
}

/**
 * The one hourly request budget of a server and its credential check (spec sections 5.1 and 8;
 * docs "Authentication", "Rate limits"): `/api` requests with a valid credential — a bearer token
 * (personal access token), else the session cookie (CSRF-checked) — count against the account's
 * tier limit, every other request against the caller's address at the standard limit (the
 * anonymous budget). One meter per server (it holds the token cache, on SQLite; see
 * {@link ActorCache}), so every API version, public page and unknown route spends the same budgets.
 */
export class RequestMeter {
  private readonly limiter: RateLimiter;
  /** Keeps the budgets in the database (auth/rate-counters.ts). */
  readonly counters: RateCounterSync;
  private readonly actors: ActorCache;
  /** When this process last recorded each token's use (ms), so a busy token costs one write a minute, not one per request. */
  private readonly touched = new Map<string, number>();
  /** PostgreSQL: receives the `auth` notifications that drop the token cache (see {@link ActorCache}). */
  private listener: WorkListener<typeof AUTH_TOPIC> | undefined;

  constructor(private readonly services: Services) {
    this.limiter = new RateLimiter(services.clock);
    this.counters = new RateCounterSync(services.store, this.limiter);
    this.actors = new ActorCache(services.store.sql, services.clock);
  }

  /** Drops the cached token → account lookups; call after revoking tokens or members in-process. */
  forgetCachedTokens(): void {
    this.actors.clear();
  }

  /**
   * PostgreSQL: starts receiving the `auth` notifications of every process on the database; the
   * token cache is used from the moment they arrive (until then, and whenever the listening
   * connection is down, every token is looked up in the database). Nothing on SQLite.
   */
  async startListening(log: WorkerLog): Promise<void> {
    const url = this.services.config.databaseUrl;
    if (!url || this.services.store.dialect !== 'postgres' || this.listener) return;
    this.listener = new WorkListener(url, () => this.actors.clear(), log, {
      topics: [AUTH_TOPIC],
      onListening: (listening) => this.actors.setListening(listening),
    });
    await this.listener.start();
  }

  /** Stops receiving the `auth` notifications (the cache is no longer used). */
  async stopListening(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.stop();
  }

  /**
   * Counts `request` (unless its route is `'uncounted'` or `'per-url'`), sets the X-RateLimit-*
   * headers on `reply`, and sets `request.actor` for a valid token on `/api`. Reads the credential
   * (and records its use) through `services.store`.
   * @returns (resolves to) the refusal to send instead of the route's answer: 429 RATE_LIMITED (with
   * `Retry-After` set) past the limit, else 401 INVALID_TOKEN on `/api` without a valid token;
   * `undefined` when the request may proceed.
   */
  async admit(request: FastifyRequest, reply: HeaderSink): Promise<ServiceError | undefined> {
    const policy = request.routeOptions?.config?.rateLimit;
    if (policy === 'per-url') return undefined;
    if (policy === 'uncounted') {
      this.report(reply, this.peekAddress(request.ip));
      return undefined;
    }
    const api = API_PATH.test(request.url) && request.routeOptions?.config?.auth !== 'none';
    const match = api ? BEARER.exec(request.headers.authorization ?? '') : null;
    // Without an Authorization header, a browser session cookie authenticates (CSRF-checked).
    const { store } = this.services;
    let session: SessionAuth | undefined;
    try {
      session = api && request.headers.authorization === undefined ? await store.run(sessionAuth(this.services, request)) : undefined;
    } catch (error) {
      if (error instanceof ServiceError) return error;
      throw error;
    }
    const found = match ? await store.run(this.actors.lookup(match[1]!)) : session?.actor;
    const now = this.services.clock.now();
    const expired = found?.tokenExpiresAt != null && found.tokenExpiresAt <= now;
    const actor = expired ? undefined : found;
    const decision = actor
      ? this.limiter.hit(`u:${actor.userId}`, limitForTier(this.services, actor.rateTier))
      : this.limiter.hit(`ip:${request.ip}`, this.services.config.rateLimits.standard);
    this.report(reply, decision);
    if (!decision.allowed) {
      reply.header('Retry-After', Math.max(1, decision.reset - Math.floor(now / 1000)));
      return new ServiceError(429, 'RATE_LIMITED', `rate limit of ${decision.limit} requests per hour exceeded`);
    }
    if (!api) return undefined;
    if (expired)
      return new ServiceError(401, 'INVALID_TOKEN', 'the access token has expired', { field: 'authorization', reason: 'token_expired' });
    const optional = request.routeOptions?.config?.auth === 'optional';
    if (!actor && session) {
      if (optional) return undefined;
      return new ServiceError(401, 'INVALID_TOKEN', 'the session has ended; sign in again', { field: 'cookie', reason: 'session_expired' });
    }
    if (!actor) return optional && match === null ? undefined : missingToken(match !== null);
    if (actor.tokenId) await this.touchToken(actor.tokenId, now);
    try {
      requireScopeFor(request.method, request.url, actor);
      if (request.routeOptions?.config?.firstParty)
        requireFirstPartyCredential(actor, `${request.method} ${request.routeOptions.url ?? request.url}`);
    } catch (error) {
      return error as ServiceError;
    }
    request.actor = actor;
    return undefined;
  }

  private async touchToken(tokenId: string, now: number): Promise<void> {
    const last = this.touched.get(tokenId);
    if (last !== undefined && last > now - TOKEN_TOUCH_INTERVAL_MS) return;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(tokenId, now);
    const { store } = this.services;
    await store.run(
      store.sql.run('UPDATE access_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)', [
        now,
        tokenId,
        now - TOKEN_TOUCH_INTERVAL_MS,
      ]),
    );
  }

  /** The anonymous budget of `address` as the headers would report it, without counting a request. */
  peekAddress(address: string): RateDecision {
    return this.limiter.peek(`ip:${address}`, this.services.config.rateLimits.standard);
  }

  private report(reply: HeaderSink, decision: RateDecision): void {
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) reply.header(name, value);
  }
}

function missingToken(presented: boolean): ServiceError {
  return new ServiceError(401, 'INVALID_TOKEN', presented ? 'the access token is invalid or revoked' : 'missing bearer token', {
    field: 'authorization',
    reason: presented ? 'invalid_token' : 'missing_token',
  });
}

/**
 * Installs `meter` as the first onRequest hook of the whole app, so every routed request,
 * unknown routes and wrong methods included, is counted and carries the headers before any
 * other work. Requests refused by Fastify's router before hooks run go through the
 * `frameworkErrors` option instead (http/error-handler.ts), which calls the same meter.
 */
export function installRequestMetering(app: FastifyInstance, meter: RequestMeter): void {
  app.addHook('onRequest', async (request, reply) => {
    const refusal = await meter.admit(request, reply);
    if (refusal) throw refusal;
  });
  // The budgets are written while the server listens and once more before the store closes.
  let started = false;
  app.addHook('onListen', async () => {
    if (started) return;
    started = true;
    meter.counters.start(app.log);
    // Not awaited: Fastify runs the onListen hooks one after another while the server already
    // answers, and until the listener is in place every token is simply looked up in the database.
    void meter.startListening(app.log);
  });
  app.addHook('preClose', async () => {
    if (!started) return;
    started = false;
    await meter.stopListening();
    await meter.counters.stop().catch((error: unknown) => app.log.warn({ err: error }, 'the last request counts could not be stored'));
  });
}

/**
 * The onRequest hook of bearer-authenticated route plugins (`/api/v1`, `/api/v2`): 401 when the
 * request meter found no valid token. The meter, installed app-wide, already authenticated and
 * counted the request; this guard keeps the route plugins safe on their own.
 * @throws ServiceError 401 INVALID_TOKEN.
 */
export function bearerAuth(): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request) => {
    if (!request.actor) throw missingToken(BEARER.test(request.headers.authorization ?? ''));
  };
}
