/**
 * Streamed answers of a command run and a follow-up (docs "API", "Streamed answers"): the same
 * POST with `Accept: text/event-stream` answers with a server-sent event stream instead of the
 * JSON conversation. Checks (400, 401, 403, 404, 409, 429) answer as usual, with a status and the
 * JSON error envelope; once the conversation is recorded `in_progress` the stream starts (200)
 * and carries `start`, `delta`…, then `done` or `error`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toServiceError } from '../../http/error-handler';

/**
 * What a run reports while the model answers, and what stops it. `Item` is the conversation as
 * the JSON answer carries it (`service.ts` `Conversation`; a parameter, so that this module and
 * the service do not import each other).
 */
export interface AnswerStream<Item = unknown> {
  /** Called once the conversation is recorded `in_progress` (with the new user message), before the model is asked. */
  started(conversation: Item): void;
  /** Each piece of the answer's text, in order (the pieces joined are the answer stored). */
  text(delta: string): void;
  /** Aborts the model call: the client went away (or pressed Stop). */
  signal: AbortSignal;
}

/** Whether the request asks for the event stream (`Accept` names `text/event-stream`). */
export function wantsEventStream(request: FastifyRequest): boolean {
  return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(request.headers.accept ?? '');
}

/** One server-sent event frame: the event's name and its data as one line of JSON. */
function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Answers `request` with the event stream of `run`: the head (200, `text/event-stream`) and a
 * `start` event `{item}` when the run reports it started, a `delta` event `{text}` for each piece
 * of the answer, then `done` `{ok: true, item}` (the stored conversation, as the JSON answer) or
 * `error` (the error envelope, e.g. 502 UPSTREAM_ERROR). When the client goes away before the end,
 * the run's signal aborts (the model call stops; the conversation is recorded as failed).
 * @throws what `run` throws before it started (answered as a normal JSON error).
 */
export async function streamAnswer<Item>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (live: AnswerStream<Item>) => Promise<Item>,
): Promise<void> {
  const res = reply.raw;
  const controller = new AbortController();
  const gone = () => {
    if (!res.writableFinished) controller.abort();
  };
  res.on('close', gone);
  let started = false;
  const write = (event: string, data: unknown) => {
    if (!res.destroyed && !res.writableEnded) res.write(frame(event, data));
  };
  const live: AnswerStream<Item> = {
    signal: controller.signal,
    started(conversation) {
      if (started) return;
      started = true;
      reply.hijack();
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      write('start', { item: conversation });
    },
    text(delta) {
      if (started) write('delta', { text: delta });
    },
  };
  try {
    const item = await run(live);
    live.started(item);
    write('done', { ok: true, item });
  } catch (error) {
    if (!started) throw error;
    const mapped = toServiceError(error as Error, request);
    if (mapped.statusCode >= 500 && mapped.code !== 'UPSTREAM_ERROR') request.log.error({ err: error }, 'streamed answer failed');
    write('error', mapped.toBody());
  } finally {
    res.off('close', gone);
  }
  if (!res.destroyed) res.end();
}
