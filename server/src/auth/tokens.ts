import { createHash } from 'node:crypto';
import type { Db } from '../platform/db/connection';
import { sql } from '../platform/db/statements';
import { newId, newSecret } from '../platform/ids';
import { parseStoredScope } from './scopes';

/** Prefix of every personal access token, so leaked tokens are easy to recognise and scan for. */
export const TOKEN_PREFIX = 'tsk_';

/** SHA-256 hex digest of a token. Only this is stored; tokens carry 256 random bits, so no slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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
export function createAccessToken(
  db: Db,
  userId: string,
  name: string,
  now: number,
  fixedToken?: string,
  options: { scope?: TokenScope; expiresAt?: number | null } = {},
): { id: string; token: string } {
  const token = fixedToken ?? TOKEN_PREFIX + newSecret(32);
  const id = newId();
  sql(db, 'INSERT INTO access_tokens (id, user_id, name, token_hash, created_at, scope, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    userId,
    name,
    hashToken(token),
    now,
    options.scope ?? 'write',
    options.expiresAt ?? null,
  );
  return { id, token };
}

/** Revokes a token by id. Returns false when no unrevoked token has that id. */
export function revokeAccessToken(db: Db, tokenId: string, now: number): boolean {
  return sql(db, 'UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, tokenId).changes === 1;
}

/** Columns of an {@link AccessTokenInfo}. */
export const INFO_COLUMNS = `id, user_id AS userId, name, scope, created_at AS createdAt, last_used_at AS lastUsedAt,
  expires_at AS expiresAt, revoked_at AS revokedAt`;

/** Lists a user's personal access tokens (not OAuth tokens), newest first. */
export function listAccessTokens(db: Db, userId: string): AccessTokenInfo[] {
  return sql<[string], AccessTokenInfo>(
    db,
    `SELECT ${INFO_COLUMNS} FROM access_tokens WHERE user_id = ? AND client_id IS NULL ORDER BY created_at DESC`,
  ).all(userId);
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
  tokenExpiresAt?: number | null;
  /** Set when the request was authenticated by a browser session cookie: that session's id. */
  sessionId?: string;
  /**
   * Set when an automation acts for this user: how many automation runs led to this change.
   * Events raised carry it so the engine can stop loops (README "Automations").
   */
  depth?: number;
}

interface ActorRow {
  tokenId: string;
  tokenExpiresAt: number | null;
  /** `read` or `write` for personal tokens; the space-separated granted scopes for OAuth tokens. */
  scope: string;
  clientId: string | null;
  userId: string;
  handle: string;
  displayName: string;
  plan: string;
  rateTier: string;
  verified: number;
}

/** Finds the user behind a presented token; undefined when unknown or revoked. */
export function actorForToken(db: Db, token: string): Actor | undefined {
  return actorForHash(db, hashToken(token));
}

function actorForHash(db: Db, tokenHash: string): Actor | undefined {
  const row = sql<[string], ActorRow>(
    db,
    `SELECT t.id AS tokenId, t.expires_at AS tokenExpiresAt, t.scope, t.client_id AS clientId, u.id AS userId, u.handle, u.display_name AS displayName, u.plan, u.rate_tier AS rateTier, u.verified
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  ).get(tokenHash);
  if (!row) return undefined;
  const { scope, clientId, ...rest } = row;
  if (clientId !== null) return { ...rest, verified: row.verified === 1, scopes: parseStoredScope(scope), oauthClientId: clientId };
  return { ...rest, verified: row.verified === 1, scopes: scope === 'read' ? ['read'] : ['read', 'write', 'webhooks'] };
}

/** Most accounts an {@link ActorCache} remembers before it starts afresh. */
export const ACTOR_CACHE_SIZE = 10000;

/**
 * Remembers which account a token hash belongs to, so an authenticated request costs no query.
 * Users and tokens change only through the admin CLI, which writes through its own SQLite
 * connection; SQLite's `PRAGMA data_version` changes exactly when another connection commits,
 * so the cache is dropped whenever that happens and a revoked token fails on its next request.
 * Code in this process that changes users or tokens must call {@link ActorCache.clear}.
 * Unknown tokens are never cached.
 */
export class ActorCache {
  private version: unknown = undefined;
  private readonly actors = new Map<string, Actor>();

  constructor(private readonly db: Db) {}

  /** The account behind `token`, or undefined when the token is unknown or revoked. */
  lookup(token: string): Actor | undefined {
    const version = sql(this.db, 'PRAGMA data_version').pluck().get();
    if (version !== this.version) {
      this.actors.clear();
      this.version = version;
    }
    const tokenHash = hashToken(token);
    let actor = this.actors.get(tokenHash);
    if (!actor) {
      actor = actorForHash(this.db, tokenHash);
      if (!actor) return undefined;
      if (this.actors.size >= ACTOR_CACHE_SIZE) this.actors.clear();
      Object.freeze(actor);
      this.actors.set(tokenHash, actor);
    }
    return actor;
  }

  /** Forgets every cached account. */
  clear(): void {
    this.actors.clear();
  }
}
