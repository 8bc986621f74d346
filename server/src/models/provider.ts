/**
 * The model-provider interface behind agent generation and agent commands
 * (README "Model providers"; README "Agents, conversations, media and model providers").
 */

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A function the model may call (OpenAI `tools[].function`): name, description, JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model asked for: its id (echoed in the result message), the tool's name, its arguments (parsed JSON, or the text when it is not JSON). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** The model's turn asking for tool calls (OpenAI: an assistant message with `tool_calls`). */
export interface ToolCallsMessage {
  role: 'assistant';
  content: string;
  toolCalls: ToolCall[];
}

/** The result of one tool call (OpenAI: a `tool` message), `content` being its JSON. */
export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  /** The called tool's name (the offline provider's answer names it). */
  name: string;
  content: string;
}

/** Any message of a conversation with tools. */
export type ModelMessage = ChatMessage | ToolCallsMessage | ToolResultMessage;

/** A completed answer. */
export interface ChatCompletion {
  /** The answer's text (for `json` requests: a JSON object as text); may be empty when `toolCalls` are given. */
  text: string;
  /** The model that answered. */
  model: string;
  /** The tool calls the model asks for instead of (or before) a final answer; only when `tools` were offered. */
  toolCalls?: ToolCall[];
}

/**
 * What a completion is for. Real models ignore it (the messages say everything); the offline
 * provider derives its deterministic answer from it.
 * - `agent-generation`: describe a new agent as a JSON object (see `domain/agent-generation` rules).
 * - `agent-command`: answer an agent command; the last user message is the rendered prompt.
 */
export type CompletionPurpose = 'agent-generation' | 'agent-command';

/** Options of {@link ModelProvider.complete}. */
export interface CompletionOptions {
  /** What the answer is for (see {@link CompletionPurpose}). */
  purpose?: CompletionPurpose;
  /** Ask for a single JSON object as the answer (OpenAI `response_format: {type: 'json_object'}`). */
  json?: boolean;
  /** Aborts the call; the provider's own timeout (`TASKSPACE_MODEL_TIMEOUT_MS`) applies as well. */
  signal?: AbortSignal;
  /** Functions the model may call; its answer may then hold `toolCalls` instead of a final text. */
  tools?: ToolDefinition[];
  /** With `tools`: `none` forbids calls this turn (the final answer after the last allowed round); default `auto`. */
  toolChoice?: 'auto' | 'none';
  /**
   * Receives the answer's text as it is produced, piece by piece and in order; the pieces joined
   * are the resolved `text`. A provider that can stream asks for a stream (OpenAI `stream: true`);
   * one that cannot calls it once with the whole text. Providers do not stream when `tools` are
   * offered (the answer may be tool calls): `completeWithTools` (models/tools.ts) hands the final
   * answer over in one piece. An answer that fails midway throws, whatever was handed over before.
   */
  onText?: (delta: string) => void;
}

/** A chat-completions model. */
export interface ModelProvider {
  /** Provider kind (`openai` or `offline`), stored with each conversation; the API reports `data.llm` through `reportedLlm` (modules/conversations/llm.ts). */
  readonly type: string;
  /** Model name, reported as `data.llm.model` (and mapped to the nearest listed name for `data.llm.name`). */
  readonly model: string;
  /**
   * Answers a conversation.
   * @throws ServiceError 502 UPSTREAM_ERROR when the provider fails, answers with an error
   *   status or an unreadable body, or does not answer within the configured timeout.
   */
  complete(messages: ModelMessage[], options?: CompletionOptions): Promise<ChatCompletion>;
}
