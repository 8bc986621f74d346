import type { FastifyRequest } from 'fastify';

/**
 * Paths whose segment after the prefix is a secret by itself (README "Configuration": secrets
 * are never logged): inbound webhook ids, hosted form ids (the same secret as the webhook id of a
 * form-triggered automation), share-link tokens, public agent ids, and signed-webhook ids (target
 * URLs, which often carry tokens of their own).
 */
const SECRET_SEGMENTS = /^(\/webhooks\/|\/forms\/|\/resume\/[^/?]+\/|\/share\/|\/public\/agents\/|\/api\/v2\/webhooks\/)[^/?]+/;

/**
 * The request URL as logs may show it: the secret path segment replaced by `***`, and the query
 * string cut (`?…`), since callers may put credentials there.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.replace(SECRET_SEGMENTS, '$1***') + (query === -1 ? '' : '?…');
}

/** Fastify's request serializer for logs, with {@link loggableUrl} in place of the raw URL. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
