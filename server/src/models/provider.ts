/**
 * The model-provider interface behind agent generation and agent commands
 * (README "Model providers"; README "Agents, conversations, media and model providers").
 */

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A completed answer. */
export interface ChatCompletion {
  /** The answer's text (for `json` requests: a JSON object as text). */
  text: string;
  /** The model that answered. */
  model: string;
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
  complete(messages: ChatMessage[], options?: CompletionOptions): Promise<ChatCompletion>;
}
