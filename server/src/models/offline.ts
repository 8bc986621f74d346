import { ServiceError } from '../errors';
import { ACCEPTED_TONES, DEFAULT_TONE } from '../modules/agents/agent-data';
import { nameFromText } from '../modules/agents/generation';
import type { ChatCompletion, CompletionOptions, ModelMessage, ModelProvider, ToolCall } from './provider';

/** The offline provider's model name (a conversation's `data.llm.model`). */
export const OFFLINE_MODEL = 'taskspace-offline-1';

/** Language names the offline provider recognises in a generation prompt, with their tags. */
const LANGUAGES: [RegExp, string][] = [
  [/\benglish\b/i, 'en'],
  [/\bfrench\b/i, 'fr'],
  [/\bgerman\b/i, 'de'],
  [/\bspanish\b/i, 'es'],
  [/\bitalian\b/i, 'it'],
  [/\bportuguese\b/i, 'pt'],
  [/\bdutch\b/i, 'nl'],
  [/\bjapanese\b/i, 'ja'],
  [/\bchinese\b/i, 'zh'],
];

/** The earliest match of any pattern in `text`, as [index, value]. */
function earliest(text: string, candidates: [RegExp, string][]): string | undefined {
  let best: [number, string] | undefined;
  for (const [pattern, value] of candidates) {
    const match = pattern.exec(text);
    if (match && (!best || match.index < best[0])) best = [match.index, value];
  }
  return best?.[1];
}

/**
 * The agent the offline provider "generates" from a description (README "Agents, conversations, media and model providers"):
 * - name: the first sentence, at most 60 characters cut at a word, first letter upper-cased;
 * - description: the whole text with runs of whitespace collapsed to one space;
 * - tone: the tone word ({@link ACCEPTED_TONES}: a legacy word such as `professional` is mapped later) appearing first in the text, else {@link DEFAULT_TONE} (`friendly`);
 * - language: the first language named in the text (English, French, German, Spanish, Italian,
 *   Portuguese, Dutch, Japanese, Chinese), else `en`;
 * - avatar: 🤖; knowledgeEnabled: true;
 * - commands: one command `Ask` in mode `default` whose prompt is the description, a blank line
 *   and `{{ input }}`.
 */
export function offlineAgent(text: string): Record<string, unknown> {
  const description = text.replace(/\s+/g, ' ').trim();
  const tone =
    earliest(
      text,
      ACCEPTED_TONES.map((t) => [new RegExp(`\\b${t}\\b`, 'i'), t] as [RegExp, string]),
    ) ?? DEFAULT_TONE;
  return {
    name: nameFromText(text),
    description,
    tone,
    language: earliest(text, LANGUAGES) ?? 'en',
    avatar: '🤖',
    knowledgeEnabled: true,
    commands: [{ name: 'Ask', prompt: `${description}\n\n{{ input }}`, mode: 'default' }],
  };
}

/** Prefix of every offline command answer. */
export const OFFLINE_ANSWER_PREFIX = '[offline] ';

/** A tool directive in a prompt: `[[tool:NAME {json arguments}]]` (the arguments may be left out: `{}`). */
const TOOL_DIRECTIVE = /\[\[tool:([A-Za-z0-9_-]{1,64})(?:\s+([\s\S]*?))?\]\]/g;

/** The tool calls a prompt's directives ask for, in order; arguments that are not JSON are passed on as text. */
export function offlineToolCalls(prompt: string): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const match of prompt.matchAll(TOOL_DIRECTIVE)) {
    const raw = match[2]?.trim() ?? '';
    let args: unknown = {};
    if (raw !== '') {
      try {
        args = JSON.parse(raw);
      } catch {
        args = raw;
      }
    }
    calls.push({ id: `call_${calls.length + 1}`, name: match[1]!, arguments: args });
  }
  return calls;
}

/**
 * The deterministic offline provider, the embedded default (`TASKSPACE_MODEL_PROVIDER=offline`).
 * It calls no network and its answers are functions of the input, so tests and demos can
 * assert exact output:
 * - `agent-generation`: the JSON of {@link offlineAgent} for the last user message;
 * - with `tools` offered, before any tool result: one round of tool calls, one per directive
 *   `[[tool:NAME {json arguments}]]` of the last user message, in order (none: the plain answer);
 * - anything else: `[offline] ` followed by the last user message (the rendered command
 *   prompt), then for each tool result of the conversation a line `[tool NAME] <result JSON>`;
 *   with `json`, the object `{"answer": <that text>}`.
 * With `onText`, the answer is handed over in up to {@link OFFLINE_STREAM_PIECES} pieces.
 */
export class OfflineProvider implements ModelProvider {
  readonly type = 'offline';
  readonly model = OFFLINE_MODEL;

  async complete(messages: ModelMessage[], options: CompletionOptions = {}): Promise<ChatCompletion> {
    const last = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (options.purpose === 'agent-generation') {
      const text = JSON.stringify(offlineAgent(last));
      options.onText?.(text);
      return { text, model: this.model };
    }
    const results = messages.filter((m) => m.role === 'tool');
    if (options.tools?.length && options.toolChoice !== 'none' && results.length === 0) {
      const toolCalls = offlineToolCalls(last);
      if (toolCalls.length > 0) return { text: '', model: this.model, toolCalls };
    }
    const answer = [OFFLINE_ANSWER_PREFIX + last, ...results.map((m) => `[tool ${m.name}] ${m.content}`)].join('\n');
    const text = options.json ? JSON.stringify({ answer }) : answer;
    if (options.onText) await streamPieces(text, options.onText, options.signal);
    return { text, model: this.model };
  }
}

/** Pieces the offline provider streams an answer in (fewer for an answer of fewer words). */
export const OFFLINE_STREAM_PIECES = 3;

/**
 * Hands `text` to `onText` in up to {@link OFFLINE_STREAM_PIECES} pieces cut after whitespace,
 * yielding to the event loop between them, so the streaming path runs without a provider.
 * @throws ServiceError 502 UPSTREAM_ERROR when `signal` aborts (as a cancelled provider call).
 */
async function streamPieces(text: string, onText: (delta: string) => void, signal: AbortSignal | undefined): Promise<void> {
  const words = text.split(/(?<=\s)/);
  const size = Math.ceil(words.length / OFFLINE_STREAM_PIECES);
  for (let i = 0; i < words.length; i += size) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw new ServiceError(502, 'UPSTREAM_ERROR', 'the model call was cancelled');
    onText(words.slice(i, i + size).join(''));
  }
}
