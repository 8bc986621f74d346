import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { LiveEvent } from './feed';
import { LIVE_POLL_MS, type LiveStream } from './hub';
import { presenceCutoff } from './presence';
import { projectPresence, requireWatch } from './service';
import { LiveQuery, liveResponses, presenceParams, presenceResponses } from './schemas';

export { LIVE_POLL_MS };
/** A keep-alive comment this often, in ms, so proxies keep the stream open. */
const KEEP_ALIVE_MS = 25_000;
/** Streams end after this long (ms); the browser reconnects at once, with its credential checked again. */
const MAX_STREAM_MS = 10 * 60_000;
/** Open streams per person; one more is 429. */
const MAX_STREAMS_PER_USER = 20;

function frame(e: LiveEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * Live updates, `GET /api/v1/live` (docs "Web app", "Live updates"): a server-sent event stream of
 * what changes in the caller's workspaces — `project` (`{projectId, version}`: a task of it changed)
 * and `run` (`{runId, automationId, status}`: a run was created, changed status or finished a step).
 * The events say what to read again, not the data itself, so a client refetches through the
 * normal API and its access rules. Changes made in this process are sent at once; others (another
 * process, a run) within {@link LIVE_POLL_MS}. One reader serves every stream (`services.live`,
 * hub.ts). A stream ends when its session is signed out, revoked or expires, or its token is
 * revoked or expires (within {@link LIVE_POLL_MS}).
 *
 * Presence (docs "API", "Presence"): a stream opened with `?projectId=` (a project the caller may
 * read) makes its person present on that project while it is open, and sends `presence`
 * `{projectId, people}` when it opens and whenever the people present change;
 * `GET /projects/{projectId}/presence` answers the same list once.
 */
export const liveRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const hub = svc.live;
  const open = new Map<string, number>();
  app.addHook('preClose', async () => hub.endAll());

  app.get(
    '/live',
    {
      schema: {
        tags: ['live'],
        summary: 'Server-sent events: which projects and runs changed',
        description:
          '`text/event-stream`. Events: `ready` once, then `project` `{projectId, version}` and `run` `{runId, automationId, status}`; ' +
          'with `projectId`, `presence` `{projectId, people: [{handle, displayName}]}` when the stream opens and whenever the people who have that project open change; ' +
          'a `: keep-alive` comment every 25 s. The stream ends after 10 minutes (reconnect; EventSource does so by itself).',
        querystring: LiveQuery,
        response: liveResponses,
      },
    },
    async (request, reply) => {
      const userId = request.actor.userId;
      const { projectId } = request.query;
      if (projectId !== undefined) await svc.store.run(requireWatch(svc.store.sql, request.actor, projectId));
      const count = open.get(userId) ?? 0;
      if (count >= MAX_STREAMS_PER_USER)
        throw new ServiceError(429, 'RATE_LIMITED', `at most ${MAX_STREAMS_PER_USER} live streams per person; close one first`);
      open.set(userId, count + 1);
      const release = () => {
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
      const res = reply.raw;
      let closed = false;
      let keepAlive: NodeJS.Timeout | undefined;
      let end: NodeJS.Timeout | undefined;
      /** Events found before the stream's head was written. */
      let early: LiveEvent[] = [];
      let started = false;
      const stream: LiveStream = {
        userId,
        sessionId: request.actor.sessionId,
        tokenId: request.actor.tokenId,
        presence: projectId === undefined ? undefined : { id: newId(), projectId, openedAt: svc.clock.now() },
        send(events) {
          if (closed) return;
          if (!started) early.push(...events);
          else for (const e of events) res.write(frame(e));
        },
        end: () => finish(),
      };
      /** `handover`: the server ends the stream and the client reconnects (see `LiveHub.remove`). */
      const close = (handover = false) => {
        if (closed) return;
        closed = true;
        clearTimeout(end);
        clearInterval(keepAlive);
        hub.remove(stream, { handover });
        release();
      };
      const finish = (handover = false) => {
        close(handover);
        if (started) res.end();
      };
      res.on('close', () => close());
      await hub.add(stream);
      if (closed) throw new ServiceError(401, 'INVALID_TOKEN', 'the credential of this stream ended before it opened');
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        ...(reply.getHeaders() as Record<string, string>),
      });
      res.write('retry: 1000\nevent: ready\ndata: {}\n\n');
      started = true;
      for (const e of early) res.write(frame(e));
      early = [];
      keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      end = setTimeout(() => finish(true), MAX_STREAM_MS);
    },
  );

  app.get(
    '/projects/:projectId/presence',
    {
      schema: {
        tags: ['live'],
        summary: 'Who has a project open right now (Viewer)',
        description:
          'The people with a live stream open on the project (`GET /live?projectId=`), the caller included when they have one, each once, in the order they arrived. ' +
          'The stream sends the same list as `presence` events.',
        params: presenceParams,
        response: presenceResponses,
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const since = presenceCutoff(svc.clock.now(), svc.config.presenceHeartbeatMs);
      return { ok: true, items: await svc.store.run(projectPresence(svc.store.sql, request.actor, projectId, since)) };
    },
  );
};
