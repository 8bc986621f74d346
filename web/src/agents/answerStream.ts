import { ApiError, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { Conversation } from './types';

type Answered = paths['/api/v1/agents/{agentId}/convos/{convoId}/messages']['post']['responses'][200]['content'];

/** One event of a streamed answer, parsed (docs "API", "Streamed answers"): `start`, `delta`, `done` or `error`. */
export type AnswerEvent = Answered['text/event-stream'];

/** The JSON answer, what a server that does not stream sends. */
type JsonAnswer = Answered['application/json'];

/** What an answering POST asked with `parseAs: 'stream'` resolves to (openapi-fetch). */
interface StreamResult {
  data?: ReadableStream<Uint8Array> | null;
  error?: unknown;
  response: Response;
}

/** The event of one server-sent event block (`event:` and `data:` lines), or undefined for a comment or an unnamed block. */
function parseEvent(block: string): AnswerEvent | undefined {
  let name = '';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  if (!name || data.length === 0) return undefined;
  return { event: name, data: JSON.parse(data.join('\n')) } as AnswerEvent;
}

/**
 * Reads the answer of a command run or follow-up POSTed with `Accept: text/event-stream` and
 * `parseAs: 'stream'`: each `delta` event's text goes to `onText` as it arrives; the `done`
 * event's conversation is the result. A server that answers JSON instead (no streaming) is read
 * as JSON, its whole answer never passing through `onText`.
 * @param onStart receives the conversation of the `start` event (recorded `in_progress` with the new message).
 * @returns the stored conversation with the answer.
 * @throws ApiError for an error status, an `error` event or a stream that ends without `done`;
 *   the fetch's AbortError when its signal aborts.
 */
export async function readAnswer(
  result: StreamResult,
  onText: (text: string) => void,
  onStart?: (conversation: Conversation) => void,
): Promise<Conversation> {
  const body = unwrap(result);
  if (!body) throw new ApiError(result.response.status, 'EMPTY_ANSWER', 'The answer was empty');
  if (!result.response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const answer: JsonAnswer = await new Response(body).json();
    return answer.item;
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
      const event = parseEvent(pending.slice(0, end));
      pending = pending.slice(end + 2);
      if (event?.event === 'start') onStart?.(event.data.item);
      else if (event?.event === 'delta') onText(event.data.text);
      else if (event?.event === 'done') {
        void reader.cancel();
        return event.data.item;
      } else if (event?.event === 'error') {
        const { error } = event.data;
        throw new ApiError(error.code === 'UPSTREAM_ERROR' ? 502 : 500, error.code, error.message, error.details);
      }
    }
  }
  throw new ApiError(502, 'UPSTREAM_ERROR', 'The answer stopped before it was complete');
}
