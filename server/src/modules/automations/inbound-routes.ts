import type { FastifyPluginAsync } from 'fastify';
import { InboundThrottle, InboundThrottledError, receiveInboundRequest } from './inbound';
import { rateLimitHeaders } from '../../auth/hook';
import { ServiceError } from '../../errors';
import { params } from '../../http/schemas';

const errorRef = { $ref: 'ErrorEnvelope#' } as const;

/**
 * Inbound webhooks, `POST /webhooks/<webhook_id>` (spec section 4.7; README "Events and webhooks"
 * "Inbound webhooks"). No API token: the unguessable URL is the credential, plus an optional
 * bearer token per webhook. The body is read raw whatever its content type: a form when sent as
 * `application/x-www-form-urlencoded`, else any JSON value. Replies `{ok: true, requestId}`; the automation run starts asynchronously.
 * Not counted in the hourly request budget: every answer's X-RateLimit-* headers report this
 * URL's own throttle (`TASKSPACE_INBOUND_RATE_PER_MINUTE`), set before the body is read so that
 * 413 and 400 carry them too.
 */
export const inboundWebhookRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const throttle = new InboundThrottle(svc.clock, svc.config.webhooks.inboundPerMinute);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(rateLimitHeaders(throttle.state((request.params as { webhookId: string }).webhookId)));
  });

  app.post<{ Params: { webhookId: string }; Body: Buffer | undefined }>(
    '/webhooks/:webhookId',
    {
      config: { rateLimit: 'per-url' },
      schema: {
        tags: ['inbound webhooks'],
        summary: 'Trigger the automation that owns this URL with a JSON or form body',
        description:
          'Send `Authorization: Bearer <token>` when the webhook requires a token. Optional `Idempotency-Key` header. ' +
          'Throttled per URL (429 with Retry-After).',
        security: [],
        params: params('webhookId'),
        response: {
          200: { type: 'object', required: ['ok', 'requestId'], properties: { ok: { type: 'boolean' }, requestId: { type: 'string' } } },
          400: errorRef,
          401: errorRef,
          404: errorRef,
          409: errorRef,
          413: errorRef,
          429: errorRef,
        },
      },
    },
    async (request, reply) => {
      try {
        const result = receiveInboundRequest(svc, throttle, {
          webhookId: request.params.webhookId,
          authorization: request.headers.authorization,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          headers: request.headers,
        });
        return { ok: true, ...result };
      } catch (error) {
        if (error instanceof InboundThrottledError) reply.header('Retry-After', Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
        if (error instanceof ServiceError && error.statusCode === 401) reply.header('WWW-Authenticate', 'Bearer');
        throw error;
      } finally {
        reply.headers(rateLimitHeaders(throttle.state(request.params.webhookId)));
      }
    },
  );
};
