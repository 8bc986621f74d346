import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Actor } from '../../auth/tokens';
import { ServiceError } from '../../errors';
import { formPage, escapeHtml } from '../../http/public-pages';
import { sessionAuth } from '../../auth/session-auth';
import {
  AUTHORIZATION_PARAM_NAMES,
  checkAuthorizationRequest,
  errorRedirect,
  type AuthorizationParams,
  type ValidRequest,
} from './authorization-request';
import { authenticateClient, workspaceNameOf } from './clients';
import { consentBody } from './consent-page';
import { findGrant, grantCovers, rememberGrant } from './grants';
import { oauthServers, resourceOfGrantToken, revokeIssuedToken, type OAuthSubject } from './model';
import { OAUTH_SCOPES } from '../../auth/scopes';
import { canonicalResource } from '../../auth/resources';
import { dynamicRegistrationRoutes, REGISTRATION_PATH } from './registration';
import { GuardedHttp } from '../../platform/guarded-http';
import { isClientIdUrl, MetadataDocumentError } from './metadata-document';
import { resolveDocumentClient } from './document-clients';

/** Where a form may send the browser after the consent page: the redirect URI's origin (or scheme for app links). */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/** The authorization parameters of a query or form body, strings only. */
function authorizationParams(source: unknown): AuthorizationParams {
  const params: AuthorizationParams = {};
  const record = (source ?? {}) as Record<string, unknown>;
  for (const name of AUTHORIZATION_PARAM_NAMES) {
    const value = record[name];
    if (typeof value === 'string' && value !== '') params[name] = value;
  }
  return params;
}

/** Client credentials of an HTTP Basic header (RFC 6749 section 2.3.1), if present. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** An RFC 6749 section 5.2 error answer. */
function oauthError(reply: FastifyReply, status: number, error: string, description: string): { error: string; error_description: string } {
  reply.code(status).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  return { error, error_description: description };
}

/**
 * The OAuth 2.0 authorization server (spec section 5.5, docs/oauth.md), its protocol run by
 * `@node-oauth/oauth2-server`:
 * - `GET /oauth/authorize`: checks the request, sends a visitor without a session to sign in
 *   and back, then shows the consent page (or, when a remembered grant already covers the
 *   scopes, redirects with a code at once);
 * - `POST /oauth/authorize`: the consent form (session cookie, same-origin only): Allow
 *   remembers the grant and redirects with a code, Deny redirects with `access_denied`;
 * - `POST /oauth/token`: authorization code (PKCE) and refresh token grants, client
 *   authentication by Basic or in the body;
 * - `POST /oauth/revoke`: RFC 7009 token revocation;
 * - `POST /oauth/register`: RFC 7591 dynamic client registration (./registration.ts);
 * - `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata.
 * A `client_id` that is an https URL names a Client ID Metadata Document, fetched through the SSRF
 * guard and kept for a bounded time before the request is checked (./document-clients.ts).
 * A `resource` (RFC 8707) at authorize and token binds the code and its tokens to that resource.
 * Every request counts against the caller address's anonymous budget.
 */
export const oauthRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const { store, clock, links } = svc;
  const forget = () => app.meter.forgetCachedTokens();
  const { authorizer, issuer } = oauthServers(svc, forget);
  // Fetches Client ID Metadata Documents; its pooled connections close with the app.
  const documents = new GuardedHttp(svc.addressPolicy);
  app.addHook('onClose', () => documents.close());

  // The token, revocation and consent endpoints take application/x-www-form-urlencoded bodies (RFC 6749 section 3.2).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=3600');
    const base = links.base();
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      registration_endpoint: `${base}${REGISTRATION_PATH}`,
      scopes_supported: Object.keys(OAUTH_SCOPES),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      service_documentation: `${base}/docs`,
    };
  });

  /** Issues a code for `request` under `grantId` through the library; returns where to send the browser. */
  async function issueCode(actor: Actor, grantId: string, params: AuthorizationParams, checked: ValidRequest): Promise<string> {
    const query: Record<string, string> = {
      ...(params as Record<string, string>),
      redirect_uri: checked.redirectUri,
      scope: checked.scopes.join(' '),
    };
    const request = new OAuth2Server.Request({ method: 'GET', headers: {}, query, body: {} });
    const response = new OAuth2Server.Response();
    const subject: OAuthSubject = { userId: actor.userId, grantId, ...(checked.resource ? { resource: checked.resource } : {}) };
    try {
      await authorizer.authorize(request, response, { authenticateHandler: { handle: () => subject } });
    } catch (error) {
      const location = response.get('location') as string | undefined;
      if (!location) throw error;
      return location;
    }
    return response.get('location') as string;
  }

  /** The consent page for a checked request. */
  async function consent(reply: FastifyReply, actor: Actor, params: AuthorizationParams, checked: ValidRequest): Promise<string> {
    const workspaceName = await store.run(workspaceNameOf(store.sql, checked.client.workspaceId));
    const body = consentBody({
      client: checked.client,
      workspaceName,
      redirectUri: checked.redirectUri,
      ...(checked.resource ? { resource: checked.resource } : {}),
      handle: actor.handle,
      scopes: checked.scopes,
      params,
    });
    // same-origin: the Allow/Deny post carries this origin (checked against CSRF); the client learns nothing from a Referer.
    return formPage(reply, 200, `Allow ${checked.client.name}?`, body, {
      formTargets: [formTarget(checked.redirectUri)],
      referrerPolicy: 'same-origin',
    });
  }

  function errorPage(reply: FastifyReply, status: number, message: string): string {
    return formPage(reply, status, 'Cannot authorize this app', `<p>${escapeHtml(message)}</p>`);
  }

  /**
   * For a `client_id` that is a URL: fetches (or takes the fresh stored copy of) its metadata
   * document. Returns the 400 error page to answer with when it cannot be used (`invalid_client`:
   * never a redirect, the redirect URI being unverified), or undefined.
   */
  async function documentRefusal(reply: FastifyReply, params: AuthorizationParams): Promise<string | undefined> {
    if (!params.client_id || !isClientIdUrl(params.client_id)) return undefined;
    try {
      await resolveDocumentClient(svc, documents, params.client_id, params.redirect_uri);
      return undefined;
    } catch (error) {
      if (!(error instanceof MetadataDocumentError)) throw error;
      const body =
        `<p>The app’s client ID metadata document at <code>${escapeHtml(params.client_id)}</code> cannot be used.</p>` +
        `<p><code>invalid_client</code>: ${escapeHtml(error.message)}</p>`;
      return formPage(reply, 400, 'Cannot authorize this app', body);
    }
  }

  /** The signed-in person of a browser request, or undefined; a cross-site write throws 403 CSRF_REJECTED. */
  async function sessionActor(request: FastifyRequest): Promise<Actor | undefined> {
    return (await store.run(sessionAuth(svc, request)))?.actor;
  }

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const params = authorizationParams(request.query);
    const refusal = await documentRefusal(reply, params);
    if (refusal !== undefined) return refusal;
    const checked = await store.run(checkAuthorizationRequest(store.sql, params, links.base()));
    if (checked.kind === 'unsafe') return errorPage(reply, 400, checked.message);
    if (checked.kind === 'refused')
      return reply.redirect(errorRedirect(checked.redirectUri, checked.error, checked.description, params.state), 302);
    const actor = await sessionActor(request);
    if (!actor) return reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 302);
    const grant = await store.run(findGrant(store.sql, actor.userId, checked.client.id));
    if (grantCovers(grant, checked.scopes)) return reply.redirect(await issueCode(actor, grant!.id, params, checked), 302);
    return consent(reply, actor, params, checked);
  });

  app.post('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const params = authorizationParams(body);
    let actor: Actor | undefined;
    try {
      actor = await sessionActor(request);
    } catch (error) {
      if (error instanceof ServiceError) return errorPage(reply, error.statusCode, error.message);
      throw error;
    }
    const refusal = await documentRefusal(reply, params);
    if (refusal !== undefined) return refusal;
    const checked = await store.run(checkAuthorizationRequest(store.sql, params, links.base()));
    if (checked.kind === 'unsafe') return errorPage(reply, 400, checked.message);
    if (checked.kind === 'refused')
      return reply.redirect(errorRedirect(checked.redirectUri, checked.error, checked.description, params.state), 302);
    if (!actor) return errorPage(reply, 401, 'Your session has ended. Sign in and open the app’s link again.');
    if (body.decision !== 'allow') {
      return reply.redirect(errorRedirect(checked.redirectUri, 'access_denied', 'the user denied access', params.state), 302);
    }
    const grant = await store.run(rememberGrant(store.sql, actor.userId, checked.client.id, checked.scopes, clock.now()));
    return reply.redirect(await issueCode(actor, grant.id, params, checked), 302);
  });

  /**
   * RFC 8707 section 2.2 at the token endpoint: a `resource` must be one of this service's and the
   * one the code or refresh token was issued for (a token for a resource it was not granted for is
   * never issued). Returns the refusal to send, or undefined.
   */
  async function resourceRefusal(body: Record<string, unknown>): Promise<string | undefined> {
    if (typeof body.resource !== 'string') return undefined;
    const resource = canonicalResource(body.resource, links.base());
    if (!resource) return `resource must be ${links.base()}/mcp or ${links.base()}/api`;
    const kind = body.grant_type === 'authorization_code' ? 'code' : body.grant_type === 'refresh_token' ? 'refresh' : undefined;
    const presented = kind === 'code' ? body.code : body.refresh_token;
    if (!kind || typeof presented !== 'string') return undefined;
    const granted = await store.run(resourceOfGrantToken(store.sql, kind, presented));
    if (granted !== undefined && granted !== resource) return `this grant was issued for ${granted ?? 'no resource'}, not ${resource}`;
    return undefined;
  }

  app.post('/oauth/token', { schema: { hide: true } }, async (request, reply) => {
    const target = await resourceRefusal(
      (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>,
    );
    if (target) return oauthError(reply, 400, 'invalid_target', target);
    const oauthRequest = new OAuth2Server.Request({
      method: request.method,
      headers: request.headers as Record<string, string>,
      query: request.query as Record<string, string>,
      body: typeof request.body === 'object' && request.body !== null ? request.body : {},
    });
    const oauthResponse = new OAuth2Server.Response();
    try {
      await issuer.token(oauthRequest, oauthResponse);
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError)) throw error;
      if (error.code >= 500) request.log.error({ err: error }, 'OAuth token endpoint failed');
      for (const [name, value] of Object.entries(oauthResponse.headers ?? {})) reply.header(name, value as string);
      return oauthError(reply, error.code, error.name, error.message);
    }
    for (const [name, value] of Object.entries(oauthResponse.headers ?? {})) reply.header(name, value as string);
    return oauthResponse.body;
  });

  await app.register(dynamicRegistrationRoutes);

  app.post('/oauth/revoke', { schema: { hide: true } }, async (request, reply) => {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const basic = basicCredentials(request.headers.authorization);
    const clientId = basic?.id ?? (typeof body.client_id === 'string' ? body.client_id : undefined);
    const secret = basic?.secret ?? (typeof body.client_secret === 'string' ? body.client_secret : undefined);
    const client = clientId ? await store.run(authenticateClient(store.sql, clientId, secret)) : undefined;
    if (!client) {
      if (basic) reply.header('WWW-Authenticate', 'Basic realm="taskspace"');
      return oauthError(reply, 401, 'invalid_client', 'client authentication failed');
    }
    if (typeof body.token !== 'string' || body.token === '') return oauthError(reply, 400, 'invalid_request', 'token is required');
    await store.run(revokeIssuedToken(svc, client.id, body.token));
    forget();
    reply.header('Cache-Control', 'no-store');
    return reply.code(200).send();
  });
};
