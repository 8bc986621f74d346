import type { ChatCompletion, ChatMessage, ModelProvider } from './provider';

/** Deterministic offline provider: the embedded default. Placeholder until the agents work lands. */
export class OfflineProvider implements ModelProvider {
  readonly type = 'offline';
  readonly model = 'taskspace-offline-1';

  async complete(messages: ChatMessage[]): Promise<ChatCompletion> {
    const last = [...messages].reverse().find((m) => m.role === 'user');
    return { text: last ? last.content : '', model: this.model };
  }
}
