import { ActionError, type ConnectionValue, type Http, type ResolvedConnection } from '@taskspace/engine';
import type { PieceOAuthApp } from '../../config-piece-apps';
import type { Services } from '../../services';
import { oauthAppFor } from './oauth-apps';

/**
 * Tokens of OAuth2 connections (docs/integrations.md "OAuth2 connections"): the code exchange
 * and the refresh at the piece's token endpoint (RFC 6749 sections 4.1.3 and 6), made by the
 * server through the guarded HTTP client, never by a piece; and the token a piece call gets,
 * refreshed before it expires. A refresh is race-safe across processes: the one that takes the
 * connection's lease (`connections.refresh_until`) refreshes, the others wait for its token.
 */

/** Time limit of one token request, in ms. */
const TOKEN_TIMEOUT_MS = 30_000;
/** How long a refresh lease holds, in ms; a process that died holding it frees it after this. */
const LEASE_MS = 30_000;
/** How often a call waiting on another process's refresh looks again, in ms. */
const LEASE_POLL_MS = 50;
/** The most a token is refreshed ahead of its expiry, in ms (a tenth of its lifetime when that is shorter). */
const REFRESH_AHEAD_MS = 5 * 60_000;

/** An OAuth2 connection's value (Activepieces' OAuth2 connection value, without the app's secret). */
export interface OAuth2Value extends ConnectionValue {
  type: 'OAUTH2';
  access_token: string;
  refresh_token?: string;
  token_type: string;
  /** Lifetime granted, in seconds (absent: the provider gave none, the token is used until refused). */
  expires_in?: number;
  /** When the token was granted, in seconds since the epoch (Activepieces' `claimed_at`). */
  claimed_at: number;
  /** When it expires, in ms since the epoch (absent with `expires_in`). */
  expires_at?: number;
  scope: string;
  client_id: string;
  token_url: string;
  /** How token requests carry the app's credentials (the piece's `authorizationMethod`; absent: `BODY`). */
  authorization_method?: 'HEADER' | 'BODY';
  /** The piece's extra connection fields (`props` of its OAuth2 auth), which its URLs may name as `{field}`. */
  props: Record<string, unknown>;
  /** The token endpoint's whole answer but the tokens (`data`, as pieces read it). */
  data: Record<string, unknown>;
}

/** A URL of the piece's auth with `{field}` replaced by the connection's field (Zoho's `{location}`). */
export function templated(url: string, props: Record<string, unknown>): string {
  return url.replace(/\{(\w+)\}/g, (whole, name: string) => (props[name] === undefined ? whole : String(props[name])));
}

function refused(message: string): ActionError {
  return new ActionError('CONNECTION_REFRESH_FAILED', message, false, { details: { field: 'connectionId' } });
}

/**
 * POSTs `fields` with the app's credentials to a token endpoint and answers the new value. The
 * credentials go as form fields, or with `authorizationMethod: 'HEADER'` as HTTP Basic of the
 * form-encoded id and secret (RFC 6749 section 2.3.1), the body then naming neither.
 * @throws ActionError CONNECTION_REFRESH_FAILED when the endpoint refuses (its `error` and `error_description`) or answers no token.
 */
export async function tokenRequest(
  http: Http,
  input: {
    tokenUrl: string;
    app: PieceOAuthApp;
    fields: Record<string, string>;
    scope: string;
    props: Record<string, unknown>;
    now: number;
    authorizationMethod?: 'HEADER' | 'BODY' | undefined;
  },
  previous?: OAuth2Value,
): Promise<OAuth2Value> {
  const inHeader = input.authorizationMethod === 'HEADER';
  const form = new URLSearchParams(
    inHeader ? input.fields : { ...input.fields, client_id: input.app.clientId, client_secret: input.app.clientSecret },
  );
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (inHeader) {
    const basic = `${encodeURIComponent(input.app.clientId)}:${encodeURIComponent(input.app.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const response = await http.request({
    method: 'POST',
    url: input.tokenUrl,
    headers,
    body: form.toString(),
    timeoutMs: TOKEN_TIMEOUT_MS,
  });
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    answer = Object.fromEntries(new URLSearchParams(text));
  }
  if (response.status !== 200 || typeof answer.access_token !== 'string' || answer.access_token === '') {
    const reason = [answer.error, answer.error_description].filter((s) => typeof s === 'string').join(': ');
    throw refused(`the token endpoint answered ${response.status}${reason ? ` (${reason})` : ''}`);
  }
  const { access_token, refresh_token, token_type, expires_in, scope, ...data } = answer;
  const lifetime = Number(expires_in);
  const value: OAuth2Value = {
    type: 'OAUTH2',
    access_token: access_token as string,
    token_type: typeof token_type === 'string' ? token_type : 'Bearer',
    claimed_at: Math.floor(input.now / 1000),
    scope: typeof scope === 'string' ? scope : input.scope,
    client_id: input.app.clientId,
    token_url: input.tokenUrl,
    ...(inHeader ? { authorization_method: 'HEADER' as const } : {}),
    props: input.props,
    data,
  };
  const refresh = typeof refresh_token === 'string' && refresh_token ? refresh_token : previous?.refresh_token;
  if (refresh) value.refresh_token = refresh;
  if (Number.isFinite(lifetime) && lifetime > 0) {
    value.expires_in = lifetime;
    value.expires_at = input.now + lifetime * 1000;
  }
  return value;
}

/** Whether `value`'s token expires within its refresh window at `now` (ms). */
export function expiresSoon(value: OAuth2Value, now: number): boolean {
  if (value.expires_at === undefined || value.expires_in === undefined) return false;
  return value.expires_at - now <= Math.min(REFRESH_AHEAD_MS, (value.expires_in * 1000) / 10);
}

interface Row {
  id: string;
  name: string;
  piece: string;
  sealed: string;
  until: number | null;
}

/**
 * The connection `connectionId` of `workspaceId` opened for a piece call, its OAuth2 token
 * refreshed first when it expires soon, or when `staleAccessToken` is given and still the stored
 * one (the provider refused it). One process refreshes (the lease); calls that find the lease
 * taken wait for the token it stores, and use it.
 * @returns undefined when the workspace has no such connection.
 * @throws ActionError CONNECTION_REFRESH_FAILED when the provider refuses the refresh or the
 *   workspace has no app for the piece any more.
 */
export async function openFresh(
  svc: Services,
  http: Http,
  workspaceId: string,
  connectionId: string,
  staleAccessToken?: string,
): Promise<ResolvedConnection | undefined> {
  const read = () =>
    svc.store.run(
      svc.store.sql.get<Row>(
        'SELECT id, name, piece, value_sealed AS sealed, refresh_until AS until FROM connections WHERE id = ? AND workspace_id = ?',
        [connectionId, workspaceId],
      ),
    );
  const resolved = (row: Row, value: ConnectionValue): ResolvedConnection => ({ id: row.id, name: row.name, piece: row.piece, value });
  const deadline = svc.clock.now() + LEASE_MS * 2;
  for (;;) {
    const row = await read();
    if (!row) return undefined;
    const value = JSON.parse(svc.secretBox.open(row.sealed)) as ConnectionValue;
    if (value.type !== 'OAUTH2') return resolved(row, value);
    const oauth = value as OAuth2Value;
    const now = svc.clock.now();
    const due = staleAccessToken !== undefined ? oauth.access_token === staleAccessToken : expiresSoon(oauth, now);
    if (!due || !oauth.refresh_token) return resolved(row, value);
    const won = await svc.store.run(
      svc.store.sql.run('UPDATE connections SET refresh_until = ? WHERE id = ? AND (refresh_until IS NULL OR refresh_until < ?)', [
        now + LEASE_MS,
        connectionId,
        now,
      ]),
    );
    if (won.changes === 0) {
      // Another call (of this process or another) refreshes: wait for its token.
      if (svc.clock.now() > deadline) throw refused('another refresh of this connection did not end');
      await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
      continue;
    }
    const release = (sealed?: string) =>
      svc.store.run(
        svc.store.sql.run(
          'UPDATE connections SET refresh_until = NULL, value_sealed = COALESCE(?, value_sealed), updated_at = ? WHERE id = ?',
          [sealed ?? null, svc.clock.now(), connectionId],
        ),
      );
    // Read again under the lease: a refresh may have ended between the first read and the lease.
    const current = await read();
    const latest = current ? (JSON.parse(svc.secretBox.open(current.sealed)) as OAuth2Value) : undefined;
    if (!current || !latest || latest.access_token !== oauth.access_token) {
      await release();
      continue;
    }
    try {
      const app = await svc.store.run(oauthAppFor(svc, workspaceId, row.piece));
      if (!app) throw refused(`the workspace has no OAuth app for ${row.piece} any more (docs/integrations.md "OAuth2 apps")`);
      const fresh = await tokenRequest(
        http,
        {
          tokenUrl: latest.token_url,
          app,
          fields: { grant_type: 'refresh_token', refresh_token: latest.refresh_token! },
          scope: latest.scope,
          props: latest.props,
          now: svc.clock.now(),
          authorizationMethod: latest.authorization_method,
        },
        latest,
      );
      await release(svc.secretBox.seal(JSON.stringify(fresh)));
      return resolved(row, fresh);
    } catch (error) {
      await release();
      if (error instanceof ActionError) throw error;
      throw refused(`the token refresh failed: ${(error as Error).message}`);
    }
  }
}
