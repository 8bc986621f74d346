/**
 * Reading a streamed chat-completions answer (`stream: true`): a server-sent event stream of
 * `data: {choices: [{delta: {content}}]}` chunks ended by `data: [DONE]`.
 */
import { ServiceError } from '../errors';

/** Largest answer body read from the provider, in bytes; a larger answer is an upstream error. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Longest part of an upstream error message repeated to our caller, in characters. */
export const MAX_UPSTREAM_MESSAGE = 300;

/** The 502 UPSTREAM_ERROR of a failed provider call. */
export function upstream(message: string): ServiceError {
  return new ServiceError(502, 'UPSTREAM_ERROR', message);
}

/** One chunk of a streamed answer, as far as we read it. */
interface StreamChunk {
  model?: unknown;
  error?: { message?: unknown } | string;
  choices?: { delta?: { content?: unknown }; finish_reason?: unknown }[];
}

/** A response body being read: its chunks, and a way to stop reading early. */
export interface ResponseBody extends AsyncIterable<Buffer | Uint8Array> {
  destroy(): unknown;
}

/**
 * Reads a streamed answer: each event's `data` (lines joined, as the SSE format says) is one
 * chunk; `choices[0].delta.content` pieces go to `onText` as they arrive; `[DONE]` ends it.
 * Comments, `event:` and `id:` lines are skipped.
 * @returns the whole text and the model the chunks named (if any).
 * @throws ServiceError 502 UPSTREAM_ERROR when the stream passes {@link MAX_ANSWER_BYTES}, holds a
 *   chunk that is not JSON or an `error` chunk, or ends before `[DONE]` or a `finish_reason`.
 */
export async function readAnswerStream(body: ResponseBody, onText: (delta: string) => void): Promise<{ text: string; model?: string }> {
  const decoder = new TextDecoder();
  let pending = '';
  let data: string[] = [];
  let size = 0;
  let text = '';
  let model: string | undefined;
  let finished = false;
  let done = false;

  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(payload) as StreamChunk;
    } catch {
      throw upstream('the model provider streamed a chunk that is not JSON');
    }
    if (chunk?.error) {
      const message = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
      const detail = typeof message === 'string' ? message.trim().slice(0, MAX_UPSTREAM_MESSAGE) : '';
      throw upstream(`the model provider failed mid-answer${detail ? `: ${detail}` : ''}`);
    }
    if (typeof chunk?.model === 'string' && chunk.model) model = chunk.model;
    const choice = chunk?.choices?.[0];
    const piece = choice?.delta?.content;
    if (typeof piece === 'string' && piece !== '') {
      text += piece;
      onText(piece);
    }
    if (choice?.finish_reason !== undefined && choice.finish_reason !== null) finished = true;
  };

  for await (const raw of body) {
    size += raw.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw upstream(`the model provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    pending += decoder.decode(raw, { stream: true });
    for (let end = pending.indexOf('\n'); end >= 0 && !done; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end).replace(/\r$/, '');
      pending = pending.slice(end + 1);
      if (line === '') dispatch();
      else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
    if (done) break;
  }
  if (!done) {
    if (pending.startsWith('data:')) data.push(pending.slice(pending.startsWith('data: ') ? 6 : 5));
    dispatch();
  }
  if (!done && !finished) throw upstream('the model provider stream ended before the answer was complete');
  return model ? { text, model } : { text };
}
