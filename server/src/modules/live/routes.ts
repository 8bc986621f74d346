import type { FastifyPluginAsync } from 'fastify';
import { ServiceError } from '../../errors';
import { LiveFeed, type LiveEvent } from './feed';

/** How often a stream looks for changes when nothing in this process signalled one, in ms. */
export const LIVE_POLL_MS = 1000;
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
 * process, a run) within {@link LIVE_POLL_MS}.
 */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const open = new Map<string, number>();
  /** Ends every open stream: run before the server closes, which would otherwise wait for them. */
  const endings = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...endings]) end();
  });

  app.get(
    '/live',
    {
      schema: {
        tags: ['live'],
        summary: 'Server-sent events: which projects and runs changed',
        description:
          '`text/event-stream`. Events: `ready` once, then `project` `{projectId, version}` and `run` `{runId, automationId, status}`; ' +
          'a `: keep-alive` comment every 25 s. The stream ends after 10 minutes (reconnect; EventSource does so by itself).',
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          401: { $ref: 'ErrorEnvelope#' },
          429: { $ref: 'ErrorEnvelope#' },
        },
      },
    },
    async (request, reply) => {
      const userId = request.actor.userId;
      const count = open.get(userId) ?? 0;
      if (count >= MAX_STREAMS_PER_USER) throw new ServiceError(429, 'RATE_LIMITED', `at most ${MAX_STREAMS_PER_USER} live streams per person; close one first`);
      open.set(userId, count + 1);
      const release = () => {
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
      let feed: LiveFeed;
      try {
        feed = await svc.store.run(LiveFeed.open(svc.store.sql, userId));
      } catch (error) {
        release();
        throw error;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        ...(reply.getHeaders() as Record<string, string>),
      });
      res.write('retry: 1000\nevent: ready\ndata: {}\n\n');

      let timer: NodeJS.Timeout | undefined;
      let closed = false;
      /** A look in progress (the feed runs one at a time), and whether another was asked for meanwhile. */
      let looking = false;
      let again = false;
      const look = async (): Promise<void> => {
        if (closed) return;
        if (looking) {
          again = true;
          return;
        }
        looking = true;
        clearTimeout(timer);
        try {
          const changes = await svc.store.run(feed.changes(svc.store.sql));
          if (!closed) for (const e of changes) res.write(frame(e));
        } catch (error) {
          request.log.warn({ err: error }, 'live feed failed');
        }
        looking = false;
        if (closed) return;
        if (again) {
          again = false;
          void look();
          return;
        }
        timer = setTimeout(look, LIVE_POLL_MS);
      };
      const offs = [svc.signals?.on('events', look), svc.signals?.on('runs', look)];
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      const end = setTimeout(() => res.end(), MAX_STREAM_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        endings.delete(finish);
        clearTimeout(timer);
        clearTimeout(end);
        clearInterval(keepAlive);
        for (const off of offs) off?.();
        release();
      };
      const finish = () => {
        close();
        res.end();
      };
      endings.add(finish);
      res.on('close', close);
      timer = setTimeout(look, LIVE_POLL_MS);
    },
  );
};
