import { timingSafeEqual } from 'node:crypto';
import type { Query, Sql } from '../../platform/db/query';
import { newId, newSecret } from '../../platform/ids';
import { hashToken, type Actor } from '../../auth/tokens';
import { requireFirstPartyCredential, requireWorkspace } from '../../auth/access';
import { badRequest, notFound } from '../../errors';
import type { Services } from '../../services';
import { notifyAuthChanged } from '../../platform/db/postgres/notifications';

/**
 * OAuth 2.0 clients (RFC 6749 section 2, docs/oauth.md "Registering a client"): apps an Owner
 * registers in a workspace. A confidential client gets a secret, shown once and stored as its
 * SHA-256 hash (256 random bits, so no slow hash is needed); a public client (a browser or
 * native app) has none and must use PKCE. Redirect URIs match exactly.
 */

/** Client types of RFC 6749 section 2.1. */
export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** Prefix of client secrets, so a leaked one is easy to recognise. */
export const CLIENT_SECRET_PREFIX = 'tss_';

/** Most redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 10;

/** URI schemes never accepted as a redirect target: they would run code or read files in the browser. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:']);

/** Hosts `http:` redirect URIs may use (RFC 8252 section 7.3 loopback redirection); everything else needs https. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A private-use URI scheme of a native app (RFC 8252 section 7.1): a reverse domain name such as
 * `com.example.app`, so it names the app and cannot be a standard scheme (`ws:`, `ftp:`, `mailto:`…).
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** How a client came: an Owner registered it in a workspace, or it registered itself (RFC 7591). */
export type ClientRegistration = 'owner' | 'dynamic';

/** A registered client as the API shows it (never the secret). Times in ms since the epoch. */
export interface OAuthClient {
  id: string;
  /** The workspace an Owner registered it in; null for a self-registered client. */
  workspaceId: string | null;
  registration: ClientRegistration;
  name: string;
  redirectUris: string[];
  type: ClientType;
  createdAt: number;
  /** Handle of the Owner who registered it; null once that account is gone. */
  createdBy: string | null;
}

interface ClientRow extends Omit<OAuthClient, 'redirectUris'> {
  redirectUris: string;
  secretHash: string | null;
}

const CLIENT_COLUMNS = `c.id, c.workspace_id AS "workspaceId", c.name, c.redirect_uris AS "redirectUris", c.type,
  c.created_at AS "createdAt", u.handle AS "createdBy", c.secret_hash AS "secretHash", c.registration`;

function fromRow(row: ClientRow): OAuthClient {
  const { secretHash: _secret, redirectUris, ...rest } = row;
  return { ...rest, redirectUris: JSON.parse(redirectUris) as string[] };
}

function* clientRow(q: Sql, clientId: string): Query<ClientRow | undefined> {
  return yield* q.get<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM oauth_clients c LEFT JOIN users u ON u.id = c.created_by WHERE c.id = ?`, [
    clientId,
  ]);
}

/**
 * Checks a redirect URI for registration: absolute, no fragment (RFC 6749 section 3.1.2), and
 * one of (RFC 8252 sections 7.1 to 7.3, docs/oauth.md "Registering a client"): `https:`;
 * `http:` on a loopback host (127.0.0.1, [::1], localhost); a private-use scheme in reverse
 * domain form (`com.example.app:/callback`). Script and file schemes, other standard schemes
 * (`ws:`, `ftp:`…) and `http:` elsewhere are refused.
 * @throws ServiceError 400 VALIDATION_ERROR naming `redirectUris[i]`, reason `invalid_uri`,
 *   `refused_scheme`, `http_not_loopback` or `has_fragment`.
 */
export function checkRedirectUri(value: string, index: number): string {
  const field = `redirectUris[${index}]`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(field, 'invalid_uri', `${field} must be an absolute URI`);
  }
  if (REFUSED_SCHEMES.has(url.protocol)) throw badRequest(field, 'refused_scheme', `${field} may not use the ${url.protocol} scheme`);
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw badRequest(
      field,
      'http_not_loopback',
      `${field}: invalid redirect URI; http is allowed only on a loopback host (127.0.0.1, [::1], localhost), use https`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && !PRIVATE_USE_SCHEME.test(url.protocol)) {
    throw badRequest(
      field,
      'refused_scheme',
      `${field}: invalid redirect URI; the ${url.protocol} scheme is not allowed (use https, http on a loopback host, or a reverse-domain private-use scheme such as com.example.app:)`,
    );
  }
  if (url.hash || value.includes('#')) throw badRequest(field, 'has_fragment', `${field} may not contain a fragment (#)`);
  return value;
}

/** What a new client is made of. */
export interface ClientInput {
  name: string;
  redirectUris: string[];
  type: ClientType;
}

/**
 * Registers a client in a workspace (Owners). Returns it with its secret for a confidential
 * client: the only time the secret is shown.
 * @throws ServiceError 404/403 from the workspace check (Owner needed), 403 for OAuth access
 * tokens, 400 for a bad redirect URI.
 */
export function* registerClient(
  svc: Services,
  actor: Actor,
  workspaceId: string,
  input: ClientInput,
  q: Sql = svc.store.sql,
): Query<{ client: OAuthClient; clientSecret?: string }> {
  requireFirstPartyCredential(actor, 'registering an OAuth client');
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'registering an OAuth client');
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const id = newId();
  const secret = input.type === 'confidential' ? CLIENT_SECRET_PREFIX + newSecret(32) : undefined;
  yield* q.run(
    'INSERT INTO oauth_clients (id, workspace_id, name, redirect_uris, type, secret_hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      id,
      workspaceId,
      input.name.trim(),
      JSON.stringify(redirectUris),
      input.type,
      secret ? hashToken(secret) : null,
      actor.userId,
      svc.clock.now(),
    ],
  );
  return { client: fromRow((yield* clientRow(q, id))!), ...(secret ? { clientSecret: secret } : {}) };
}

/**
 * Registers a client that asked for itself (RFC 7591 section 3, docs/oauth.md "Self-registered
 * clients"): it belongs to no workspace and the consent page says it is unverified. Redirect URIs
 * follow the same rules as an Owner's registration. Returns it with its secret for a confidential
 * client (the only time the secret is shown).
 * @throws ServiceError 400 for a bad redirect URI (see `checkRedirectUri`).
 */
export function* registerDynamicClient(
  svc: Services,
  input: ClientInput,
  q: Sql = svc.store.sql,
): Query<{ client: OAuthClient; clientSecret?: string }> {
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const id = newId();
  const secret = input.type === 'confidential' ? CLIENT_SECRET_PREFIX + newSecret(32) : undefined;
  yield* q.run(
    `INSERT INTO oauth_clients (id, workspace_id, name, redirect_uris, type, secret_hash, created_by, created_at, registration)
     VALUES (?, NULL, ?, ?, ?, ?, NULL, ?, 'dynamic')`,
    [id, input.name.trim(), JSON.stringify(redirectUris), input.type, secret ? hashToken(secret) : null, svc.clock.now()],
  );
  return { client: fromRow((yield* clientRow(q, id))!), ...(secret ? { clientSecret: secret } : {}) };
}

/**
 * The clients of a workspace, newest first (Owners).
 * @throws ServiceError 404/403 from the workspace check.
 */
export function* listClients(svc: Services, actor: Actor, workspaceId: string, q: Sql = svc.store.sql): Query<OAuthClient[]> {
  yield* requireWorkspace(q, actor, workspaceId, 'Owner', 'listing OAuth clients');
  const rows = yield* q.all<ClientRow>(
    `SELECT ${CLIENT_COLUMNS} FROM oauth_clients c LEFT JOIN users u ON u.id = c.created_by WHERE c.workspace_id = ? ORDER BY c.created_at DESC, c.id`,
    [workspaceId],
  );
  return rows.map(fromRow);
}

/**
 * Deletes a client (Owners of its workspace): its remembered grants, codes, refresh tokens and
 * access tokens go with it, so every app session ends at once.
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 below Owner or
 * for OAuth access tokens.
 */
export function* deleteClient(svc: Services, actor: Actor, clientId: string, q: Sql = svc.store.sql): Query<void> {
  requireFirstPartyCredential(actor, 'deleting an OAuth client');
  const row = yield* clientRow(q, clientId);
  if (!row || row.workspaceId === null) throw notFound('OAuth client', clientId);
  yield* requireWorkspace(q, actor, row.workspaceId, 'Owner', 'deleting an OAuth client');
  yield* q.transaction(function* (tx) {
    yield* tx.run('DELETE FROM access_tokens WHERE client_id = ?', [clientId]);
    yield* notifyAuthChanged(tx);
    yield* tx.run('DELETE FROM oauth_clients WHERE id = ?', [clientId]);
  });
}

/** A client as the token endpoint sees it: with its secret hash. */
export interface ClientRecord extends OAuthClient {
  secretHash: string | null;
}

/** A client by id with its secret hash, or undefined. */
export function* findClient(q: Sql, clientId: string): Query<ClientRecord | undefined> {
  const row = yield* clientRow(q, clientId);
  return row ? { ...fromRow(row), secretHash: row.secretHash } : undefined;
}

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 section 2.3): a
 * confidential client must present its secret; a public client presents none (and a secret
 * presented for it is refused).
 * @returns the client, or undefined when the client is unknown or authentication fails.
 */
export function* authenticateClient(q: Sql, clientId: string, clientSecret: string | null | undefined): Query<ClientRecord | undefined> {
  const client = yield* findClient(q, clientId);
  if (!client) return undefined;
  if (client.type === 'public') return clientSecret ? undefined : client;
  if (!clientSecret || !client.secretHash) return undefined;
  const presented = Buffer.from(hashToken(clientSecret), 'hex');
  const stored = Buffer.from(client.secretHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored) ? client : undefined;
}

/** The name of the workspace a client was registered in (for the consent page); null for a self-registered client. */
export function* workspaceNameOf(q: Sql, workspaceId: string | null): Query<string | null> {
  if (workspaceId === null) return null;
  return (yield* q.get<{ name: string }>('SELECT name FROM workspaces WHERE id = ?', [workspaceId]))?.name ?? 'unknown';
}
