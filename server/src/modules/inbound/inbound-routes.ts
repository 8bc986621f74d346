import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { InboundThrottledError, MethodNotAllowedError, receiveInboundCall } from './inbound';
import { rateLimitHeaders } from '../../http/rate-limit-headers';
import { ServiceError } from '../../errors';
import { awaitInboundResponse, sendRunResponse } from './respond';
import { INBOUND_RESPONSES, webhookParams } from './schemas';

/**
 * Inbound webhooks, `POST /webhooks/<webhook_id>` (spec section 4.7; README "Events and webhooks"
 * "Inbound webhooks"). No API token: the unguessable URL is the credential, plus an optional
 * bearer token per webhook, and an optional signature check (`verify`). GET, PUT, PATCH and DELETE
 * too when the trigger's `methods` allow them. The body is read raw whatever its content type
 * (`inbound-body.ts`): a form, text, XML or any JSON value. Replies `{ok: true, requestId}` once the call's run is recorded; the run executes asynchronously.
 * When the automation has a `respond` step, the call waits (up to `TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS`)
 * and gets that step's status, headers and body instead (docs "Automations", "Respond to webhook").
 * Not counted in the hourly request budget: every answer's X-RateLimit-* headers report this
 * URL's own throttle (`TASKSPACE_INBOUND_RATE_PER_MINUTE`), set before the body is read so that
 * 413 and 400 carry them too.
 */
export const inboundWebhookRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;
  const { throttle } = rt;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(rateLimitHeaders(throttle.state((request.params as { webhookId: string }).webhookId)));
  });

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/webhooks/:webhookId',
    // HEAD must not start runs: no implicit HEAD route for the GET.
    exposeHeadRoute: false,
    config: { rateLimit: 'per-url' },
    schema: {
      tags: ['inbound webhooks'],
      summary: 'Trigger the automation that owns this URL with a JSON, form, text or XML body',
      description:
        'Send `Authorization: Bearer <token>` when the webhook requires a token, and the signature its `verify` preset checks ' +
        "(401 INVALID_SIGNATURE). Methods other than the trigger's `methods` (default POST) are 405 with Allow; binary bodies 415. " +
        'Optional `Idempotency-Key` header. ' +
        'Throttled per URL (429 with Retry-After). An automation with a `respond` step answers with the status, headers and body ' +
        'that step computes (waiting up to TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS); otherwise, and after that timeout, `{ok, requestId}`.',
      security: [],
      params: webhookParams,
      response: INBOUND_RESPONSES,
    },
    handler: async (request, reply) => {
      try {
        const accepted = await receiveInboundCall(svc, rt, {
          webhookId: request.params.webhookId,
          authorization: request.headers.authorization,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          headers: request.headers,
          method: request.method,
          // No querystring schema: the query is passed on as parsed (names to a value or a list of values).
          query: { ...(request.query as Record<string, string | string[]>) },
        });
        if (accepted.filtered) return { ok: true, requestId: accepted.requestId, filtered: true };
        const answer = { ok: true, requestId: accepted.requestId };
        if (!accepted.respond || accepted.runId === undefined) return answer;
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const response = await awaitInboundResponse(svc, accepted.runId, svc.config.webhooks.respondTimeoutMs, gone.signal);
        return response ? sendRunResponse(reply, response) : answer;
      } catch (error) {
        if (error instanceof InboundThrottledError) reply.header('Retry-After', Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
        if (error instanceof MethodNotAllowedError) reply.header('Allow', error.allowed.join(', '));
        if (error instanceof ServiceError && error.statusCode === 401) reply.header('WWW-Authenticate', 'Bearer');
        throw error;
      } finally {
        reply.headers(rateLimitHeaders(throttle.state(request.params.webhookId)));
      }
    },
  });
};
