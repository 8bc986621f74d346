import type { Config } from '../config';
import type { ModelProvider } from './provider';
import { OfflineProvider } from './offline';
import { OpenAiProvider } from './openai';

/**
 * The configured model provider (README "Model providers"): `offline` (the deterministic
 * embedded default) or `openai` (any OpenAI-compatible chat-completions API), chosen by
 * `TASKSPACE_MODEL_PROVIDER`.
 */
export function createModelProvider(config: Config): ModelProvider {
  if (config.model.provider === 'openai') {
    return new OpenAiProvider({
      baseUrl: config.model.baseUrl,
      apiKey: config.model.apiKey,
      model: config.model.name,
      timeoutMs: config.model.timeoutMs,
    });
  }
  return new OfflineProvider();
}

export type {
  ChatCompletion,
  ChatMessage,
  CompletionOptions,
  CompletionPurpose,
  ModelMessage,
  ModelProvider,
  ToolCall,
  ToolDefinition,
} from './provider';
export { completeWithTools, MAX_TOOL_RESULT_CHARS, type ToolLoopResult, type ToolRun } from './tools';
export { OfflineProvider, OFFLINE_MODEL } from './offline';
export { OpenAiProvider, type OpenAiSettings } from './openai';
