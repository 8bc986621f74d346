import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rateLimitHeaders } from '../../http/rate-limit-headers';
import { ErrorRef, Params } from '../../http/schemas';
import { InboundThrottledError } from './inbound';
import { pieceHookBucket, receivePieceHook } from './piece-hook';

/**
 * The URLs of pieces' webhook triggers, `/webhooks/pieces/<automationId>/<token>`
 * (docs/integrations.md "Triggers"): the URL an automation's trigger registered with the piece's
 * service through `onEnable`. No API token: the unguessable token is the credential, and it
 * changes each time the trigger is enabled. Any method; the body is read raw (JSON, a form or
 * text), within the app's body limit (413 past it). Answers `{ok, received, runIds}` once the
 * trigger's `run` has returned its items and their runs are recorded (they execute
 * asynchronously). Throttled per automation like inbound webhooks
 * (`TASKSPACE_INBOUND_RATE_PER_MINUTE`).
 */
export const pieceHookRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const rt = app.automations;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const bucket = (params: unknown) => rt.throttle.state(pieceHookBucket((params as { automationId: string }).automationId));
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(rateLimitHeaders(bucket(request.params)));
  });

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/webhooks/pieces/:automationId/:token',
    exposeHeadRoute: false,
    config: { rateLimit: 'per-url' },
    schema: {
      tags: ['inbound webhooks'],
      summary: "Call a piece webhook trigger's URL (the URL its onEnable registered with the piece's service)",
      description:
        "The trigger's `run` reads the call (body, headers, query, method); each item it returns starts one run. " +
        '404 when the automation is unknown or disabled, its trigger changed, or the token is not the current one; ' +
        "429 past the URL's throttle (Retry-After); 502 UPSTREAM_ERROR when the piece fails. " +
        "A call that is the service's handshake (the trigger's handshakeConfiguration) gets the trigger's onHandshake answer instead, and starts no run.",
      security: [],
      params: Params('automationId', 'token'),
      response: {
        200: Type.Object(
          {
            ok: Type.Boolean(),
            received: Type.Integer({ description: "how many items the trigger's run returned: one run each" }),
            runIds: Type.Array(Type.String()),
          },
          { additionalProperties: false },
        ),
        400: ErrorRef,
        404: ErrorRef,
        413: ErrorRef,
        415: ErrorRef,
        429: ErrorRef,
        502: ErrorRef,
      },
    },
    handler: async (request, reply) => {
      try {
        const result = await receivePieceHook(svc, rt, {
          automationId: request.params.automationId,
          token: request.params.token,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          headers: request.headers,
          method: request.method,
          query: { ...(request.query as Record<string, string | string[]>) },
        });
        if (result.handshake) {
          // The piece's own answer to its service, sent as it is (not the schema's envelope).
          const { status, body, headers } = result.handshake;
          const raw = reply as unknown as FastifyReply;
          raw.code(status).headers(headers);
          if (body === undefined) return raw.send('');
          if (typeof body === 'string') return raw.type(headers['content-type'] ?? 'text/plain; charset=utf-8').send(body);
          return raw.type(headers['content-type'] ?? 'application/json; charset=utf-8').send(JSON.stringify(body));
        }
        return { ok: true, received: result.received, runIds: result.runIds };
      } catch (error) {
        if (error instanceof InboundThrottledError) reply.header('Retry-After', Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
        throw error;
      } finally {
        reply.headers(rateLimitHeaders(bucket(request.params)));
      }
    },
  });
};
