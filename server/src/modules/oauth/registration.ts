import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ServiceError } from '../../errors';
import { MAX_REDIRECT_URIS, registerDynamicClient, type ClientType } from './clients';

/**
 * OAuth 2.0 Dynamic Client Registration (RFC 7591; docs/oauth.md "Self-registered clients"), so
 * an MCP client can connect without an Owner registering it first (MCP specification 2025-11-25,
 * "Authorization", "Dynamic Client Registration"). Anyone may register; such a client belongs to
 * no workspace, and the consent page tells the person it is unverified and where it redirects.
 * Registration requests count against the caller address's anonymous budget like every public
 * request. Nothing of a registration can be changed or read back later (no RFC 7592 management).
 */

/** Where clients register (the metadata's `registration_endpoint`). */
export const REGISTRATION_PATH = '/oauth/register';

/** Longest `client_name` kept, in characters. */
const MAX_CLIENT_NAME = 100;

/** `token_endpoint_auth_method` → the client type (RFC 7591 section 2: the default is `client_secret_basic`). */
const AUTH_METHODS: Record<string, ClientType> = {
  none: 'public',
  client_secret_basic: 'confidential',
  client_secret_post: 'confidential',
};

/** An RFC 7591 section 3.2.2 error answer. */
function registrationError(reply: FastifyReply, error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string) {
  reply.code(400).header('Cache-Control', 'no-store');
  return { error, error_description: description };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/** `POST /oauth/register`: RFC 7591 section 3.1 request, section 3.2.1 answer (201). */
export const dynamicRegistrationRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  app.post(REGISTRATION_PATH, { schema: { hide: true } }, async (request, reply) => {
    const body = (typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : undefined) as
      | Record<string, unknown>
      | undefined;
    if (!body) return registrationError(reply, 'invalid_client_metadata', 'the body must be a JSON object of client metadata');
    const redirectUris = stringList(body.redirect_uris);
    if (
      !redirectUris ||
      redirectUris.length === 0 ||
      redirectUris.length > MAX_REDIRECT_URIS ||
      redirectUris.some((uri) => uri.length > 2000)
    ) {
      return registrationError(
        reply,
        'invalid_redirect_uri',
        `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs of at most 2,000 characters`,
      );
    }
    const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
    const type = typeof method === 'string' ? AUTH_METHODS[method] : undefined;
    if (!type)
      return registrationError(
        reply,
        'invalid_client_metadata',
        'token_endpoint_auth_method must be none, client_secret_basic or client_secret_post',
      );
    const grantTypes = body.grant_types === undefined ? ['authorization_code'] : stringList(body.grant_types);
    if (!grantTypes || !grantTypes.every((grant) => grant === 'authorization_code' || grant === 'refresh_token')) {
      return registrationError(reply, 'invalid_client_metadata', 'grant_types may hold authorization_code and refresh_token only');
    }
    const responseTypes = body.response_types === undefined ? ['code'] : stringList(body.response_types);
    if (!responseTypes || !responseTypes.every((kind) => kind === 'code')) {
      return registrationError(reply, 'invalid_client_metadata', 'response_types may hold code only');
    }
    const rawName = typeof body.client_name === 'string' ? body.client_name.replace(/[\r\n]+/g, ' ').trim() : '';
    const name = (rawName || 'Unnamed MCP client').slice(0, MAX_CLIENT_NAME);
    let registered;
    try {
      registered = await svc.store.run(registerDynamicClient(svc, { name, redirectUris, type }));
    } catch (error) {
      if (error instanceof ServiceError && error.statusCode === 400) return registrationError(reply, 'invalid_redirect_uri', error.message);
      throw error;
    }
    const { client, clientSecret } = registered;
    reply.code(201).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return {
      client_id: client.id,
      ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(client.createdAt / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: method,
      grant_types: grantTypes,
      response_types: responseTypes,
    };
  });
};
