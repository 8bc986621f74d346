import OAuth2Server from '@node-oauth/oauth2-server';
import type { Query, Sql } from '../../platform/db/query';
import { newId, newSecret } from '../../platform/ids';
import { hashToken } from '../../auth/tokens';
import type { Services } from '../../services';
import { authenticateClient, findClient, type ClientRecord } from './clients';
import { grantById } from './grants';
import { DEFAULT_SCOPE, normalizeScopes, parseStoredScope } from '../../auth/scopes';
import { notifyAuthChanged } from '../../platform/db/postgres/notifications';

/**
 * The storage model behind `@node-oauth/oauth2-server` (docs/oauth.md): the library runs the
 * protocol (RFC 6749 code grant, RFC 7636 PKCE, refresh), this module stores what it issues.
 * Codes, access tokens and refresh tokens are stored only as SHA-256 hashes; times come from the
 * app's clock. Refresh tokens rotate: each use revokes the presented one and issues a new one in
 * the same family, and presenting a rotated one again (reuse, a sign of theft) revokes the whole
 * family, access tokens included — unless it was rotated less than
 * {@link REFRESH_REUSE_GRACE_SECONDS} ago and its family is still live: then it is a concurrent
 * refresh of the same app (several requests racing with one token), answered with a fresh pair.
 */

/**
 * The resource (canonical URI) a code or refresh token was issued for, by the presented value;
 * `null` when it names none, undefined when unknown. For the token endpoint's RFC 8707 check.
 */
export function* resourceOfGrantToken(q: Sql, kind: 'code' | 'refresh', presented: string): Query<string | null | undefined> {
  const row =
    kind === 'code'
      ? yield* q.get<{ resource: string | null }>('SELECT resource FROM oauth_codes WHERE code_hash = ?', [hashToken(presented)])
      : yield* q.get<{ resource: string | null }>('SELECT resource FROM oauth_refresh_tokens WHERE token_hash = ?', [hashToken(presented)]);
  return row?.resource;
}

/** Prefix of OAuth access tokens. */
export const ACCESS_TOKEN_PREFIX = 'tso_';
/** Prefix of OAuth refresh tokens. */
export const REFRESH_TOKEN_PREFIX = 'tsr_';
/** Lifetime of an authorization code, in seconds (RFC 6749 section 4.1.2 recommends at most 10 minutes). */
export const AUTHORIZATION_CODE_SECONDS = 300;
/**
 * How long after its rotation a refresh token may be presented again without counting as reuse
 * (as Auth0's and Okta's reuse intervals): concurrent refreshes with one token each get a fresh
 * pair in the same family instead of revoking it. Later, a second use revokes the family.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 20;

/**
 * Who a code or token was issued to: the person, the grant it was issued under and, once tokens
 * exist, their refresh family. The library treats it as an opaque `user`.
 */
export interface OAuthSubject {
  userId: string;
  grantId: string;
  familyId?: string;
  /** The canonical URI of the resource (RFC 8707) the code and its tokens are for; their audience. */
  resource?: string;
}

/** The library's view of a client: ours plus the grant types it may use. */
function libraryClient(client: ClientRecord): OAuth2Server.Client {
  return {
    id: client.id,
    name: client.name,
    type: client.type,
    redirectUris: client.redirectUris,
    grants: ['authorization_code', 'refresh_token'],
  };
}

/** A stored time (ms on the app's clock) as the wall-clock Date the library compares with `new Date()`. */
function libraryDate(svc: Services, at: number): Date {
  return new Date(Date.now() + (at - svc.clock.now()));
}

/**
 * Revokes every refresh and access token of a family (reuse detection, revocation of a refresh
 * token), in one transaction. Returns how many tokens ended. Rotated tokens of the family lose
 * their rotation time, so none of them is inside the reuse grace period any more.
 */
export function* revokeFamily(svc: Services, familyId: string, q: Sql = svc.store.sql): Query<number> {
  const now = svc.clock.now();
  return yield* q.transaction(function* (tx) {
    const refresh = yield* tx.run('UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', [
      now,
      familyId,
    ]);
    yield* tx.run('UPDATE oauth_refresh_tokens SET rotated_at = NULL WHERE family_id = ? AND rotated_at IS NOT NULL', [familyId]);
    const access = yield* tx.run('UPDATE access_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', [now, familyId]);
    if (access.changes > 0) yield* notifyAuthChanged(tx);
    return refresh.changes + access.changes;
  });
}

/**
 * RFC 7009 revocation by a client: a refresh token ends with its whole family, an access token
 * alone. Unknown tokens and tokens issued to other clients change nothing (section 2.2: the
 * answer is the same 200).
 */
export function* revokeIssuedToken(svc: Services, clientId: string, token: string, q: Sql = svc.store.sql): Query<void> {
  const tokenHash = hashToken(token);
  const family = yield* q.get<{ family_id: string }>(
    'SELECT r.family_id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = ? AND g.client_id = ?',
    [tokenHash, clientId],
  );
  if (family !== undefined) yield* revokeFamily(svc, family.family_id, q);
  else {
    const { changes } = yield* q.run(
      'UPDATE access_tokens SET revoked_at = ? WHERE token_hash = ? AND client_id = ? AND revoked_at IS NULL',
      [svc.clock.now(), tokenHash, clientId],
    );
    if (changes > 0) yield* notifyAuthChanged(q);
  }
}

interface CodeRow {
  grantId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: number;
  usedAt: number | null;
  familyId: string | null;
  resource: string | null;
}

interface RefreshRow {
  id: string;
  grantId: string;
  familyId: string;
  scope: string;
  expiresAt: number;
  revokedAt: number | null;
  /** Set when the token was spent by rotation (not by revocation), until its family is revoked. */
  rotatedAt: number | null;
  resource: string | null;
}

/**
 * The model methods both servers share: codes, tokens, scopes. The library awaits each method;
 * each runs its storage work with `svc.store.run`.
 */
function sharedModel(svc: Services, onRevoked: () => void) {
  const { store } = svc;
  const q = store.sql;
  const { oauthAccessTokenMs, oauthRefreshTokenMs } = svc.config.accounts;

  /** Whether a spent refresh token was rotated (its family not revoked since) within the grace period. */
  function inReuseGrace(row: { rotatedAt: number | null }): boolean {
    return row.rotatedAt !== null && svc.clock.now() - row.rotatedAt <= REFRESH_REUSE_GRACE_SECONDS * 1000;
  }

  /**
   * The client a stored code or refresh token may still be used by: none when it expired, or when
   * it was spent already — then it is being replayed, and its family's tokens are revoked.
   */
  async function usableClient(stored: {
    spent: boolean;
    familyId: string | null;
    expiresAt: number;
    clientId: string;
  }): Promise<ClientRecord | undefined> {
    if (stored.spent) {
      if (stored.familyId) {
        await store.run(revokeFamily(svc, stored.familyId));
        onRevoked();
      }
      return undefined;
    }
    if (stored.expiresAt <= svc.clock.now()) return undefined;
    return store.run(findClient(q, stored.clientId));
  }

  return {
    async generateAuthorizationCode(): Promise<string> {
      return newSecret(32);
    },
    async generateAccessToken(): Promise<string> {
      return ACCESS_TOKEN_PREFIX + newSecret(32);
    },
    async generateRefreshToken(): Promise<string> {
      return REFRESH_TOKEN_PREFIX + newSecret(32);
    },
    // Not used: API requests are authenticated by the app's request meter (auth/hook.ts).
    async getAccessToken(): Promise<false> {
      return false;
    },

    /** The requested scopes, known and within the person's grant; the default when none are asked for. */
    async validateScope(user: OAuthSubject, _client: OAuth2Server.Client, scope?: string[]): Promise<string[] | false> {
      const scopes = normalizeScopes(scope && scope.length > 0 ? scope : DEFAULT_SCOPE);
      const grant = await store.run(grantById(q, user.grantId));
      if (!scopes || !grant || !scopes.every((s) => grant.scopes.includes(s))) return false;
      return scopes;
    },

    async saveAuthorizationCode(
      code: Pick<
        OAuth2Server.AuthorizationCode,
        'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
      >,
      client: OAuth2Server.Client,
      user: OAuthSubject,
    ): Promise<OAuth2Server.AuthorizationCode> {
      const now = svc.clock.now();
      await store.run(
        q.run(
          `INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, scope, code_challenge, code_challenge_method, created_at, expires_at, resource)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            hashToken(code.authorizationCode),
            user.grantId,
            code.redirectUri,
            (code.scope ?? []).join(' '),
            code.codeChallenge ?? null,
            code.codeChallengeMethod ?? null,
            now,
            now + AUTHORIZATION_CODE_SECONDS * 1000,
            user.resource ?? null,
          ],
        ),
      );
      return { ...code, client, user };
    },

    /**
     * A code not yet used and not expired. A code presented a second time is refused and every
     * token issued with it is revoked (RFC 6749 section 4.1.2).
     */
    async getAuthorizationCode(authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | false> {
      const row = await store.run(
        q.get<CodeRow & { clientId: string; userId: string }>(
          `SELECT c.grant_id AS "grantId", c.redirect_uri AS "redirectUri", c.scope, c.code_challenge AS "codeChallenge",
                  c.code_challenge_method AS "codeChallengeMethod", c.expires_at AS "expiresAt", c.used_at AS "usedAt", c.family_id AS "familyId",
                  c.resource, g.client_id AS "clientId", g.user_id AS "userId"
             FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = ?`,
          [hashToken(authorizationCode)],
        ),
      );
      const client =
        row &&
        (await usableClient({ spent: row.usedAt !== null, familyId: row.familyId, expiresAt: row.expiresAt, clientId: row.clientId }));
      if (!row || !client) return false;
      const user: OAuthSubject = { userId: row.userId, grantId: row.grantId, ...(row.resource !== null ? { resource: row.resource } : {}) };
      return {
        authorizationCode,
        expiresAt: libraryDate(svc, row.expiresAt),
        redirectUri: row.redirectUri,
        scope: parseStoredScope(row.scope),
        client: libraryClient(client),
        user,
        ...(row.codeChallenge ? { codeChallenge: row.codeChallenge, codeChallengeMethod: row.codeChallengeMethod ?? 'S256' } : {}),
      };
    },

    /** Marks a code used (single use); false when it was used already. */
    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
      const used = await store.run(
        q.run('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [
          svc.clock.now(),
          hashToken(code.authorizationCode),
        ]),
      );
      return used.changes === 1;
    },

    /** Stores an access token (in `access_tokens`, so the API accepts it) and its refresh token, in one family. */
    async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuthSubject): Promise<OAuth2Server.Token> {
      const now = svc.clock.now();
      const familyId = user.familyId ?? newId();
      const scope = (token.scope ?? []).join(' ');
      await store.run(
        q.transaction(function* (tx) {
          yield* tx.run(
            `INSERT INTO access_tokens (id, user_id, name, token_hash, created_at, scope, expires_at, client_id, grant_id, family_id, audience)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              newId(),
              user.userId,
              String(client.name ?? client.id),
              hashToken(token.accessToken),
              now,
              scope,
              now + oauthAccessTokenMs,
              client.id,
              user.grantId,
              familyId,
              user.resource ?? null,
            ],
          );
          if (token.refreshToken) {
            yield* tx.run(
              'INSERT INTO oauth_refresh_tokens (id, token_hash, grant_id, family_id, scope, created_at, expires_at, resource) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
              [
                newId(),
                hashToken(token.refreshToken),
                user.grantId,
                familyId,
                scope,
                now,
                now + oauthRefreshTokenMs,
                user.resource ?? null,
              ],
            );
          }
          if (token.authorizationCode) {
            yield* tx.run('UPDATE oauth_codes SET family_id = ? WHERE code_hash = ?', [familyId, hashToken(token.authorizationCode)]);
          }
        }),
      );
      return { ...token, client, user: { ...user, familyId } };
    },

    /**
     * A live refresh token, or one rotated within the reuse grace period (a concurrent refresh).
     * Presenting one that was rotated earlier, or revoked, is reuse: the whole family is revoked
     * and the request fails with `invalid_grant`.
     */
    async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | false> {
      const row = await store.run(
        q.get<RefreshRow & { clientId: string; userId: string }>(
          `SELECT r.id, r.grant_id AS "grantId", r.family_id AS "familyId", r.scope, r.expires_at AS "expiresAt", r.revoked_at AS "revokedAt",
                  r.rotated_at AS "rotatedAt", r.resource, g.client_id AS "clientId", g.user_id AS "userId"
             FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = ?`,
          [hashToken(refreshToken)],
        ),
      );
      const spent = row !== undefined && row.revokedAt !== null && !inReuseGrace(row);
      const client = row && (await usableClient({ spent, familyId: row.familyId, expiresAt: row.expiresAt, clientId: row.clientId }));
      if (!row || !client) return false;
      const user: OAuthSubject = {
        userId: row.userId,
        grantId: row.grantId,
        familyId: row.familyId,
        ...(row.resource !== null ? { resource: row.resource } : {}),
      };
      return {
        refreshToken,
        refreshTokenExpiresAt: libraryDate(svc, row.expiresAt),
        scope: parseStoredScope(row.scope),
        client: libraryClient(client),
        user,
      };
    },

    /**
     * Rotation: the presented refresh token ends. When a concurrent refresh rotated it first, the
     * rotation still counts within the reuse grace period (its family not revoked since); false
     * otherwise (`invalid_grant`).
     */
    async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
      const now = svc.clock.now();
      const tokenHash = hashToken(token.refreshToken);
      const revoked = await store.run(
        q.run('UPDATE oauth_refresh_tokens SET revoked_at = ?, rotated_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [
          now,
          now,
          tokenHash,
        ]),
      );
      if (revoked.changes === 1) return true;
      const row = await store.run(
        q.get<{ rotatedAt: number | null }>('SELECT rotated_at AS "rotatedAt" FROM oauth_refresh_tokens WHERE token_hash = ?', [tokenHash]),
      );
      return row !== undefined && inReuseGrace(row);
    },
  };
}

/**
 * The two protocol engines of one app: `authorizer` issues codes from the consent page (clients
 * are looked up, not authenticated), `issuer` serves the token endpoint (clients authenticate:
 * confidential ones with their secret by Basic or in the body, public ones by PKCE alone).
 * `onRevoked` is called after tokens were revoked, to drop cached credentials.
 */
export function oauthServers(svc: Services, onRevoked: () => void): { authorizer: OAuth2Server; issuer: OAuth2Server } {
  const shared = sharedModel(svc, onRevoked);
  const lifetimes = {
    accessTokenLifetime: Math.round(svc.config.accounts.oauthAccessTokenMs / 1000),
    refreshTokenLifetime: Math.round(svc.config.accounts.oauthRefreshTokenMs / 1000),
    authorizationCodeLifetime: AUTHORIZATION_CODE_SECONDS,
  };
  const authorizer = new OAuth2Server({
    ...lifetimes,
    allowEmptyState: true,
    model: {
      ...shared,
      async getClient(clientId: string) {
        const client = await svc.store.run(findClient(svc.store.sql, clientId));
        return client ? libraryClient(client) : false;
      },
    },
  });
  const issuer = new OAuth2Server({
    ...lifetimes,
    // Public clients authenticate by PKCE (code) or their id alone (refresh); getClient decides per client.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    model: {
      ...shared,
      async getClient(clientId: string, clientSecret: string | null | undefined) {
        const client = await svc.store.run(authenticateClient(svc.store.sql, clientId, clientSecret));
        return client ? libraryClient(client) : false;
      },
    },
  });
  return { authorizer, issuer };
}
