/**
 * The model-provider interface behind agent generation and agent commands
 * (README "Model providers").
 */

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A completed answer. */
export interface ChatCompletion {
  text: string;
  /** The model that answered. */
  model: string;
}

/** A chat-completions model. */
export interface ModelProvider {
  /** Provider kind, reported as a conversation's `data.llm.type` (e.g. `openai`, `offline`). */
  readonly type: string;
  /** Model name, reported as `data.llm.name`. */
  readonly model: string;
  /**
   * Answers a conversation.
   * @throws ServiceError 502 UPSTREAM_ERROR when the provider fails or times out.
   */
  complete(messages: ChatMessage[], options?: { signal?: AbortSignal }): Promise<ChatCompletion>;
}
