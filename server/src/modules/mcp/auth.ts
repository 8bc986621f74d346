import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../errors';
import { actorForToken, audienceAllows, type Actor } from '../../auth/tokens';
import { mcpResource } from '../../auth/resources';
import type { Services } from '../../services';

/**
 * Bearer authentication of `/mcp` (MCP specification 2025-11-25, "Authorization"; docs/mcp.md):
 * a personal access token, or an OAuth access token issued for this endpoint (`resource`,
 * RFC 8707). A refusal is 401 with `WWW-Authenticate: Bearer resource_metadata="…"` pointing to
 * the Protected Resource Metadata (RFC 9728 section 5.1), so a client can find the authorization
 * server; 403 with `error="insufficient_scope"` and `scope` asks for a wider grant (RFC 6750 section 3.1).
 */

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Where the Protected Resource Metadata of `/mcp` is (RFC 9728 section 3.1: the well-known path before the resource's path). */
export function resourceMetadataUrl(base: string): string {
  const url = new URL(base);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}/mcp`;
}

/** A `WWW-Authenticate` challenge of `/mcp`, with the metadata link and the given RFC 6750 attributes. */
export function challenge(base: string, attributes: Record<string, string> = {}): string {
  const parts = Object.entries(attributes).map(([name, value]) => `${name}="${value}"`);
  parts.push(`resource_metadata="${resourceMetadataUrl(base)}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** An authenticated caller of `/mcp`: the account and the token it presented. */
export interface McpCaller {
  actor: Actor;
  token: string;
}

/** Sends a refusal of `/mcp`: the service's error envelope with the challenge header. */
export function refuse(reply: FastifyReply, error: ServiceError, header: string): FastifyReply {
  return reply.code(error.statusCode).header('WWW-Authenticate', header).header('Cache-Control', 'no-store').send(error.toBody());
}

/**
 * The caller of a `/mcp` request, or undefined after sending a 401 (no token, an unknown, revoked
 * or expired one, or an OAuth token for another audience).
 */
export async function authenticate(svc: Services, request: FastifyRequest, reply: FastifyReply): Promise<McpCaller | undefined> {
  const base = svc.links.base();
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match) {
    refuse(
      reply,
      new ServiceError(401, 'INVALID_TOKEN', 'missing bearer token', { field: 'authorization', reason: 'missing_token' }),
      challenge(base),
    );
    return undefined;
  }
  const token = match[1]!;
  const actor = await svc.store.run(actorForToken(svc.store.sql, token));
  const expired = actor?.tokenExpiresAt != null && actor.tokenExpiresAt <= svc.clock.now();
  if (!actor || expired) {
    const message = expired ? 'the access token has expired' : 'the access token is invalid or revoked';
    refuse(
      reply,
      new ServiceError(401, 'INVALID_TOKEN', message, { field: 'authorization', reason: expired ? 'token_expired' : 'invalid_token' }),
      challenge(base, { error: 'invalid_token', error_description: message }),
    );
    return undefined;
  }
  if (!audienceAllows(actor, mcpResource(base))) {
    const message = `this access token was not issued for ${mcpResource(base)}: authorize again with resource=${mcpResource(base)}`;
    refuse(
      reply,
      new ServiceError(401, 'INVALID_TOKEN', message, { field: 'authorization', reason: 'wrong_audience' }),
      challenge(base, { error: 'invalid_token', error_description: 'the token was issued for another resource' }),
    );
    return undefined;
  }
  return { actor, token };
}
