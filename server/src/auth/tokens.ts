import { hash } from 'node:crypto';
import type { Query, Sql } from '../platform/db/query';
import { newId, newSecret } from '../platform/ids';
import { parseStoredScope } from './scopes';
import { notifyAuthChanged } from '../platform/db/postgres/notifications';
import type { Clock } from '../platform/clock';

/** Prefix of every personal access token, so leaked tokens are easy to recognise and scan for. */
export const TOKEN_PREFIX = 'tsk_';

/** SHA-256 hex digest of a token. Only this is stored; tokens carry 256 random bits, so no slow hash is needed. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Scopes of a personal access token: `read` allows GET/HEAD only, `write` everything. */
export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A stored token's metadata (never the token itself). Times in ms since the epoch. */
export interface AccessTokenInfo {
  id: string;
  userId: string;
  name: string;
  scope: TokenScope;
  createdAt: number;
  lastUsedAt: number | null;
  /** When the token stops working; null = never. */
  expiresAt: number | null;
  revokedAt: number | null;
}

/**
 * Creates a personal access token for `userId` and returns it with its id. The token is shown
 * to the caller once and stored only as its hash. `fixedToken` (the bootstrap token) replaces
 * the random value. `options.scope` defaults to `write`; `options.expiresAt` (ms) to never.
 */
export function* createAccessToken(
  q: Sql,
  userId: string,
  name: string,
  now: number,
  fixedToken?: string,
  options: { scope?: TokenScope; expiresAt?: number | null } = {},
): Query<{ id: string; token: string }> {
  const token = fixedToken ?? TOKEN_PREFIX + newSecret(32);
  const id = newId();
  yield* q.run('INSERT INTO access_tokens (id, user_id, name, token_hash, created_at, scope, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id,
    userId,
    name,
    hashToken(token),
    now,
    options.scope ?? 'write',
    options.expiresAt ?? null,
  ]);
  return { id, token };
}

/**
 * Revokes a token by id (and tells every process, see {@link ActorCache}).
 * @returns false when no unrevoked token has that id.
 */
export function* revokeAccessToken(q: Sql, tokenId: string, now: number): Query<boolean> {
  const { changes } = yield* q.run('UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, tokenId]);
  if (changes === 1) yield* notifyAuthChanged(q);
  return changes === 1;
}

/** Columns of an {@link AccessTokenInfo}. */
export const INFO_COLUMNS = `id, user_id AS "userId", name, scope, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  expires_at AS "expiresAt", revoked_at AS "revokedAt"`;

/** Lists a user's personal access tokens (not OAuth tokens), newest first. */
export function listAccessTokens(q: Sql, userId: string): Query<AccessTokenInfo[]> {
  return q.all<AccessTokenInfo>(
    `SELECT ${INFO_COLUMNS} FROM access_tokens WHERE user_id = ? AND client_id IS NULL ORDER BY created_at DESC`,
    [userId],
  );
}

/** The authenticated caller of a request. */
export interface Actor {
  // The same roles and checks apply whatever the credential; only `scopes` narrows what it may do.
  userId: string;
  handle: string;
  displayName: string;
  plan: string;
  rateTier: string;
  verified: boolean;
  /**
   * What the credential may do (docs/oauth.md "Scopes"): `read`, `write`, `webhooks`. A
   * personal token's `read` is `['read']` and its `write` is every scope; an OAuth access token
   * carries the scopes its grant holds. Undefined means every scope (sessions, automations).
   */
  scopes?: readonly string[];
  /** Set for a token (personal or OAuth): its id and when it expires (ms; null = never). */
  tokenId?: string;
  /** Set for an OAuth access token: the client it was issued to. */
  oauthClientId?: string;
  /** Set for an OAuth access token: the grant (person + client) it was issued under. */
  oauthGrantId?: string;
  /**
   * Set for an OAuth access token issued with a `resource` (RFC 8707): the resource it is for
   * (its audience), e.g. `https://tasks.example.org/mcp`. See {@link audienceAllows}.
   */
  audience?: string;
  tokenExpiresAt?: number | null;
  /** Set when the request was authenticated by a browser session cookie: that session's id. */
  sessionId?: string;
  /**
   * Set when an automation acts for this user: how many automation runs led to this change.
   * Events raised carry it so the engine can stop loops (README "Automations").
   */
  depth?: number;
  /**
   * Set when an automation's step acts for this user: that automation and run. Events raised
   * record it (`events.caused_by_*`), so a task trigger can skip its own automation's changes.
   */
  cause?: { automationId: string; runId: string };
}

/** The account part of an {@link Actor}: who acts, and the plan and tier their limits come from. */
export type ActorUser = Pick<Actor, 'userId' | 'handle' | 'displayName' | 'plan' | 'rateTier' | 'verified'>;

/**
 * The account columns of an {@link Actor}, from `users u` (each named as its {@link ActorUser}
 * property); read the row back with {@link actorUserOf}. Every lookup of an actor (token,
 * session, automation owner) selects these, so the account part is declared once.
 */
export const ACTOR_USER_COLUMNS =
  'u.id AS "userId", u.handle, u.display_name AS "displayName", u.plan, u.rate_tier AS "rateTier", u.verified';

/** A row selected with {@link ACTOR_USER_COLUMNS}: `verified` 0 or 1. */
export type ActorUserRow = Omit<ActorUser, 'verified'> & { verified: number };

/** The {@link ActorUser} of a row selected with {@link ACTOR_USER_COLUMNS} (other columns of the row are left out). */
export function actorUserOf(row: ActorUserRow): ActorUser {
  return {
    userId: row.userId,
    handle: row.handle,
    displayName: row.displayName,
    plan: row.plan,
    rateTier: row.rateTier,
    verified: row.verified === 1,
  };
}

interface ActorRow extends ActorUserRow {
  tokenId: string;
  tokenExpiresAt: number | null;
  /** `read` or `write` for personal tokens; the space-separated granted scopes for OAuth tokens. */
  scope: string;
  clientId: string | null;
  grantId: string | null;
  audience: string | null;
}

/** Finds the user behind a presented token; undefined when unknown or revoked. */
export function actorForToken(q: Sql, token: string): Query<Actor | undefined> {
  return actorForHash(q, hashToken(token));
}

function* actorForHash(q: Sql, tokenHash: string): Query<Actor | undefined> {
  const row = yield* q.get<ActorRow>(
    `SELECT t.id AS "tokenId", t.expires_at AS "tokenExpiresAt", t.scope, t.client_id AS "clientId", t.grant_id AS "grantId", t.audience,
            ${ACTOR_USER_COLUMNS}
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
    [tokenHash],
  );
  if (!row) return undefined;
  const { scope, clientId, grantId, audience, tokenId, tokenExpiresAt } = row;
  const rest = { ...actorUserOf(row), tokenId, tokenExpiresAt };
  if (clientId !== null) {
    return {
      ...rest,
      scopes: parseStoredScope(scope),
      oauthClientId: clientId,
      ...(grantId !== null ? { oauthGrantId: grantId } : {}),
      ...(audience !== null ? { audience } : {}),
    };
  }
  return { ...rest, scopes: scope === 'read' ? ['read'] : ['read', 'write', 'webhooks'] };
}

/**
 * The audience check of a protected resource other than the REST API (RFC 8707, RFC 9068
 * section 4; docs/oauth.md "Resource indicators"): personal access tokens have no audience and
 * may be used there; an OAuth access token only when it was issued for exactly `resource`.
 * The REST API takes every token this server issued (all its audiences are this service's).
 * @param resource the canonical URI of the resource being called, e.g. `https://tasks.example.org/mcp`.
 */
export function audienceAllows(actor: Pick<Actor, 'oauthClientId' | 'audience'>, resource: string): boolean {
  return actor.oauthClientId === undefined || actor.audience === resource;
}

/** Most accounts an {@link ActorCache} remembers before it starts afresh. */
export const ACTOR_CACHE_SIZE = 10000;

/**
 * How long an {@link ActorCache} trusts what it remembers, in ms: after this a token is looked up
 * again whatever the notifications said, which bounds how stale a lookup can be if a listening
 * connection stalls without failing (a network path that silently drops packets).
 */
export const ACTOR_CACHE_MAX_AGE_MS = 60_000;

/**
 * Remembers which account a token hash belongs to, so an authenticated request costs no query.
 * Unknown tokens are never cached.
 *
 * On SQLite: users and tokens change only through this process or the admin CLI, which writes
 * through its own SQLite connection; SQLite's `PRAGMA data_version` changes exactly when another
 * connection commits, so the cache is dropped whenever that happens and a revoked token fails on
 * its next request. Code in this process that changes users or tokens must call
 * {@link ActorCache.clear}.
 *
 * On PostgreSQL several processes share the database: every transaction that revokes or deletes
 * tokens or changes an account sends the `auth` notification (`notifyAuthChanged`,
 * platform/db/postgres/notifications.ts). The process that made the change drops its cache as
 * soon as the change commits (`RequestMeter.forgetCachedTokens`, before the request answers);
 * every other process drops it when PostgreSQL delivers the notification, which it does after the
 * commit, asynchronously (usually within a millisecond; the changing request's answer can reach
 * its caller first). The cache is used only while the process's listener is connected and
 * listening ({@link ActorCache.setListening}); otherwise every lookup reads through to the
 * database. A lookup that was reading while the cache was dropped is not remembered, so a lookup
 * never outlives the notification that made it stale; and nothing is remembered longer than
 * {@link ACTOR_CACHE_MAX_AGE_MS}.
 */
export class ActorCache {
  private version: unknown = undefined;
  /** Token hash → the account and when it was read (ms, {@link Clock}). */
  private readonly actors = new Map<string, { actor: Actor; readAt: number }>();
  /** PostgreSQL: true while the `auth` notifications are being received. */
  private listening = false;
  /** Bumped by every {@link clear}: a read begun before it is not remembered. */
  private generation = 0;

  /**
   * @param q the store's root handle (outside any transaction).
   * @param clock what ages the remembered lookups ({@link ACTOR_CACHE_MAX_AGE_MS}).
   */
  constructor(
    private readonly q: Sql,
    private readonly clock: Clock,
  ) {}

  /** The account behind `token`, or undefined when the token is unknown or revoked. */
  *lookup(token: string): Query<Actor | undefined> {
    const q = this.q;
    const tokenHash = hashToken(token);
    if (q.dialect === 'postgres') {
      if (!this.listening) return yield* actorForHash(q, tokenHash);
    } else {
      // SQLite only (see above): PRAGMA is not shared SQL.
      const version = (yield* q.get<{ data_version: number }>('PRAGMA data_version'))?.data_version;
      if (version !== this.version) {
        this.actors.clear();
        this.version = version;
      }
    }
    const now = this.clock.now();
    const cached = this.actors.get(tokenHash);
    if (cached && now - cached.readAt < ACTOR_CACHE_MAX_AGE_MS) return cached.actor;
    const generation = this.generation;
    const actor = yield* actorForHash(q, tokenHash);
    if (!actor) {
      this.actors.delete(tokenHash);
      return undefined;
    }
    Object.freeze(actor);
    if (generation === this.generation && (q.dialect === 'sqlite' || this.listening)) {
      if (this.actors.size >= ACTOR_CACHE_SIZE) this.actors.clear();
      this.actors.set(tokenHash, { actor, readAt: now });
    }
    return actor;
  }

  /**
   * PostgreSQL: whether the process receives the `auth` notifications now. The cache is used only
   * while it does, and is dropped at every change either way.
   */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.clear();
  }

  /** Forgets every cached account. */
  clear(): void {
    this.generation++;
    this.actors.clear();
  }
}
