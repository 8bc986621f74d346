/**
 * The tool-calling loop of an agent command run with tools (issue 27 item 10; docs/automations.md
 * "Agent tools"): the model answers, asks for tool calls, gets their results, and answers again,
 * until it gives a final answer or the rounds allowed are used up.
 */
import type { ChatCompletion, ChatMessage, CompletionOptions, ModelMessage, ModelProvider, ToolDefinition } from './provider';

/** Longest tool result handed back to the model, in characters (longer results are cut, marked `…[truncated]`). */
export const MAX_TOOL_RESULT_CHARS = 50_000;

/** The tools of one run: their definitions, the rounds allowed, and who runs a call. */
export interface ToolRun {
  definitions: ToolDefinition[];
  /** Rounds of tool calls allowed (≥ 1); after the last one the model must answer (`toolChoice: 'none'`). */
  maxRounds: number;
  /** Runs one call; resolves to its result (for a refused call: an error object the model reads). */
  call(call: { name: string; arguments: unknown }): Promise<unknown>;
}

/** A final answer with the number of tool-call rounds it took. */
export interface ToolLoopResult extends ChatCompletion {
  rounds: number;
}

/**
 * Completes `messages` with `tools` offered: each round's calls run one after the other, in the
 * order the model gave them, and their results (JSON, at most {@link MAX_TOOL_RESULT_CHARS}
 * characters) are sent back as `tool` messages. After `tools.maxRounds` rounds the model is asked
 * once more with `toolChoice: 'none'`; calls it still asks for then are ignored. With
 * `options.onText`, the rounds are not streamed (any of them may be tool calls) and the final
 * answer's text is handed to it in one piece once the tool rounds are done.
 * @throws what the provider throws (ServiceError 502 UPSTREAM_ERROR) or `tools.call` rejects with (a cancel).
 */
export async function completeWithTools(
  provider: ModelProvider,
  messages: ChatMessage[],
  options: CompletionOptions,
  tools: ToolRun,
): Promise<ToolLoopResult> {
  const history: ModelMessage[] = [...messages];
  // Any round's answer may be tool calls, so no round is streamed: the final text goes to onText whole.
  const { onText, ...rest } = options;
  for (let round = 0; ; round++) {
    const last = round >= tools.maxRounds;
    const answer = await provider.complete(history, { ...rest, tools: tools.definitions, toolChoice: last ? 'none' : 'auto' });
    if (!answer.toolCalls?.length || last) {
      if (answer.text) onText?.(answer.text);
      return { text: answer.text, model: answer.model, rounds: round };
    }
    history.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const result = await tools.call({ name: call.name, arguments: call.arguments });
      let content = JSON.stringify(result ?? null);
      if (content.length > MAX_TOOL_RESULT_CHARS) content = `${content.slice(0, MAX_TOOL_RESULT_CHARS)}…[truncated]`;
      history.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
    }
  }
}
