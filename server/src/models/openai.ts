import { request } from 'undici';
import { ServiceError } from '../errors';
import { MAX_ANSWER_BYTES, MAX_UPSTREAM_MESSAGE, readAnswerStream, upstream } from './openai-stream';
import type { ChatCompletion, CompletionOptions, ModelMessage, ModelProvider, ToolCall } from './provider';

/** Settings of {@link OpenAiProvider} (from `TASKSPACE_MODEL_*`, README "Model providers"). */
export interface OpenAiSettings {
  /** Base URL of the API without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; omitted when undefined (local servers often need none). */
  apiKey: string | undefined;
  /** Model name sent as `model`. */
  model: string;
  /** Time allowed for one call, connection to last byte, in ms. */
  timeoutMs: number;
}

function upstreamMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim()) return message.trim().slice(0, MAX_UPSTREAM_MESSAGE);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_UPSTREAM_MESSAGE);
}

/** A message in the chat-completions wire format (tool calls as `tool_calls`, results as `tool` messages). */
function wireMessage(m: ModelMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if ('toolCalls' in m) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

/** The answer's `tool_calls` (arguments parsed when they are JSON). @throws ServiceError 502 for a malformed list. */
function toolCallsOf(raw: unknown): ToolCall[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw upstream('the model provider answered with tool_calls that is not a list');
  return raw.map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }) => {
    if (typeof c?.id !== 'string' || typeof c.function?.name !== 'string')
      throw upstream('the model provider answered with a tool call without id or function name');
    let args: unknown = c.function.arguments ?? {};
    if (typeof args === 'string') {
      try {
        args = args.trim() === '' ? {} : JSON.parse(args);
      } catch {
        // not JSON: the tool's argument check reports it to the model
      }
    }
    return { id: c.id, name: c.function.name, arguments: args };
  });
}

/**
 * Any OpenAI-compatible chat-completions API over undici: `POST {baseUrl}/chat/completions`
 * with `{model, messages}` (plus `response_format: {type: 'json_object'}` for JSON answers, and
 * `tools`/`tool_choice` when tools are offered), reading `choices[0].message.content` and
 * `tool_calls`. With `onText` and no tools it asks for a stream (`stream: true`, read by
 * `readAnswerStream`; an answer that comes whole anyway is handed over in one piece). Every
 * failure (unreachable, timeout, error status, unexpected body, a stream that breaks off) becomes 502 UPSTREAM_ERROR with a message saying which; the API key never
 * appears in messages.
 */
export class OpenAiProvider implements ModelProvider {
  readonly type = 'openai';
  readonly model: string;

  constructor(private readonly settings: OpenAiSettings) {
    this.model = settings.model;
  }

  async complete(messages: ModelMessage[], options: CompletionOptions = {}): Promise<ChatCompletion> {
    const { baseUrl, apiKey, timeoutMs } = this.settings;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    // Tool rounds are not streamed: their answer may be tool calls (models/tools.ts).
    const streaming = options.onText !== undefined && !options.tools?.length;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: streaming ? 'text/event-stream' : 'application/json',
    };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const payload = {
      model: this.model,
      messages: messages.map(wireMessage),
      ...(streaming ? { stream: true } : {}),
      ...(options.json ? { response_format: { type: 'json_object' } } : {}),
      ...(options.tools?.length
        ? {
            tools: options.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
            tool_choice: options.toolChoice ?? 'auto',
          }
        : {}),
    };

    let status: number;
    let text = '';
    let streamed: { text: string; model?: string } | undefined;
    let answering = false;
    try {
      const res = await request(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
        signal,
      });
      status = res.statusCode;
      answering = true;
      const type = String(res.headers['content-type'] ?? '');
      if (streaming && status >= 200 && status <= 299 && type.startsWith('text/event-stream')) {
        streamed = await readAnswerStream(res.body, options.onText!);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      if (!streamed)
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > MAX_ANSWER_BYTES) {
            res.body.destroy();
            throw upstream(`the model provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      if (timeout.aborted) throw upstream(`the model provider did not answer within ${timeoutMs} ms`);
      if (options.signal?.aborted) throw upstream('the model call was cancelled');
      const code = (error as { code?: string }).code;
      const reason = code ?? (error instanceof Error ? error.message : String(error));
      if (answering) throw upstream(`the model provider's answer broke off (${reason})`);
      // The origin only: a base URL may carry credentials (user:password@) or tokens in its path.
      throw upstream(`the model provider at ${originOf(baseUrl)} could not be reached (${reason})`);
    }

    if (streamed) return { text: streamed.text, model: streamed.model ?? this.model };
    if (status < 200 || status > 299) {
      const detail = upstreamMessage(text);
      throw upstream(`the model provider answered HTTP ${status}${detail ? `: ${detail}` : ''}`);
    }
    let body: { model?: unknown; choices?: { message?: { content?: unknown; tool_calls?: unknown } }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw upstream('the model provider answered with a body that is not JSON');
    }
    const message = body?.choices?.[0]?.message;
    const toolCalls = options.tools?.length ? toolCallsOf(message?.tool_calls) : undefined;
    const content = message?.content ?? (toolCalls?.length ? '' : undefined);
    if (typeof content !== 'string') {
      throw upstream('the model provider answered without choices[0].message.content');
    }
    const model = typeof body.model === 'string' && body.model ? body.model : this.model;
    // Asked for a stream but answered whole (a server without streaming): one piece.
    if (streaming && content) options.onText!(content);
    return toolCalls?.length ? { text: content, model, toolCalls } : { text: content, model };
  }
}

/** Scheme, host and port of a URL, nothing that could hold a credential. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the configured base URL';
  }
}
