import type { Query, Sql } from '../../platform/db/query';
import { findClient, type ClientRecord } from './clients';
import { DEFAULT_SCOPE, normalizeScopes, type OAuthScope } from '../../auth/scopes';
import { canonicalResource } from '../../auth/resources';

/**
 * Checking an authorization request (RFC 6749 section 4.1.1, RFC 7636 section 4.3) before the
 * consent page is shown, so a request that cannot succeed fails at once and never after the
 * person approved it.
 */

/** The query of `/oauth/authorize` (and the hidden fields of the consent form). */
export interface AuthorizationParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  /** RFC 8707: the resource the token is for (`<base>/mcp`, or the REST API). */
  resource?: string;
}

/** The names of {@link AuthorizationParams}, in the order the consent form carries them. */
export const AUTHORIZATION_PARAM_NAMES = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/** A request that must not redirect (RFC 6749 section 4.1.2.1): the client or redirect URI is wrong. */
export interface UnsafeRequest {
  kind: 'unsafe';
  message: string;
}

/** A request the client is told about by redirecting with `error` (RFC 6749 section 4.1.2.1). */
export interface RefusedRequest {
  kind: 'refused';
  client: ClientRecord;
  redirectUri: string;
  error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target';
  description: string;
}

/** A request that may go to the consent page. */
export interface ValidRequest {
  kind: 'valid';
  client: ClientRecord;
  redirectUri: string;
  scopes: OAuthScope[];
  /** The canonical URI of the requested resource (RFC 8707), when one was named. */
  resource?: string;
}

/**
 * Checks an authorization request: the client exists and the redirect URI is one of its own
 * (exactly; optional when it registered only one), the response type is `code`, the scopes are
 * known (`read` when none are asked for), PKCE is S256 — required for public clients — and a
 * `resource` (RFC 8707 section 2) names one of this service's resources (`invalid_target` otherwise).
 * @param base the public base URL, which the resources are under.
 */
export function* checkAuthorizationRequest(
  q: Sql,
  params: AuthorizationParams,
  base: string,
): Query<UnsafeRequest | RefusedRequest | ValidRequest> {
  const client = params.client_id ? yield* findClient(q, params.client_id) : undefined;
  if (!client)
    return {
      kind: 'unsafe',
      message: params.client_id ? 'This app is not registered with this Taskspace.' : 'The request names no app (client_id is missing).',
    };
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return { kind: 'unsafe', message: `The redirect address does not match any that “${client.name}” registered.` };
  }
  const refuse = (error: RefusedRequest['error'], description: string): RefusedRequest => ({
    kind: 'refused',
    client,
    redirectUri,
    error,
    description,
  });
  if (params.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  const scopes = normalizeScopes(requested.length > 0 ? requested : DEFAULT_SCOPE);
  if (!scopes) return refuse('invalid_scope', 'known scopes are read, write and webhooks');
  if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256');
  }
  if (client.type === 'public' && !params.code_challenge)
    return refuse('invalid_request', 'public clients must use PKCE (code_challenge with S256)');
  let resource: string | undefined;
  if (params.resource !== undefined) {
    resource = canonicalResource(params.resource, base);
    if (!resource) return refuse('invalid_target', `resource must be ${base}/mcp or ${base}/api`);
  }
  return { kind: 'valid', client, redirectUri, scopes, ...(resource ? { resource } : {}) };
}

/** The redirect telling the client of an error (RFC 6749 section 4.1.2.1), with its `state`. */
export function errorRedirect(redirectUri: string, error: string, description: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}
