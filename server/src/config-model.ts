import { ConfigError, int } from './config-values';

/** Model provider for agent generation and commands (README "Model providers"). */
export interface ModelConfig {
  /** `offline` (deterministic, the embedded default) or `openai` (any OpenAI-compatible chat-completions API). */
  provider: 'offline' | 'openai';
  /** Base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 (`TASKSPACE_MODEL_BASE_URL`). */
  baseUrl: string;
  /** API key, sent as a bearer token (`TASKSPACE_MODEL_API_KEY`). */
  apiKey: string | undefined;
  /** Model name (`TASKSPACE_MODEL_NAME`, default gpt-4o-mini). */
  name: string;
  /** Timeout of one model call in ms (`TASKSPACE_MODEL_TIMEOUT_MS`, default 60000). */
  timeoutMs: number;
}

/**
 * `TASKSPACE_MODEL_PROVIDER`, lower-cased (default `offline`).
 * @throws ConfigError for a value other than `offline` or `openai`.
 */
export function modelProvider(env: NodeJS.ProcessEnv): ModelConfig['provider'] {
  const provider = (env.TASKSPACE_MODEL_PROVIDER ?? 'offline').toLowerCase();
  if (provider !== 'offline' && provider !== 'openai') {
    throw new ConfigError(`TASKSPACE_MODEL_PROVIDER must be 'offline' or 'openai', got '${provider}'`);
  }
  return provider;
}

/**
 * Reads the model settings ({@link ModelConfig}) for `provider` (from {@link modelProvider}).
 * @throws ConfigError when a value is malformed.
 */
export function modelConfig(env: NodeJS.ProcessEnv, provider: ModelConfig['provider']): ModelConfig {
  return {
    provider,
    baseUrl: (env.TASKSPACE_MODEL_BASE_URL || 'https://api.openai.com/v1').replace(/\/+$/, ''),
    apiKey: env.TASKSPACE_MODEL_API_KEY || undefined,
    name: env.TASKSPACE_MODEL_NAME || 'gpt-4o-mini',
    timeoutMs: int(env, 'TASKSPACE_MODEL_TIMEOUT_MS', 60000, 1),
  };
}
