import path from 'node:path';

/**
 * Every setting of the service, read once from the environment (README "Configuration").
 * Nothing else in the server reads `process.env`.
 */
export interface Config {
  /** TCP port to listen on (`PORT`, default 8787; 0 picks a free port). */
  port: number;
  /** Interface to bind (`HOST`, default 127.0.0.1). */
  host: string;
  /** Directory holding the SQLite file and media bytes (`TASKSPACE_DATA_DIR`, default ./.data). */
  dataDir: string;
  /**
   * Base URL for absolute links (share links, public agents, media), without a trailing slash
   * (`TASKSPACE_PUBLIC_URL`; default `http://HOST:PORT` once the port is known).
   */
  publicUrl: string | undefined;
  /** Personal access token given to the bootstrap owner on first start (`TASKSPACE_BOOTSTRAP_TOKEN`). */
  bootstrapToken: string | undefined;
  /** pino log level (`TASKSPACE_LOG_LEVEL`, default info; `silent` turns logging off). */
  logLevel: string;
  /** Requests per hour per account by rate tier; 0 = unlimited (`TASKSPACE_RATE_LIMIT_*`). */
  rateLimits: { standard: number; premium: number; enterprise: number };
  /** Largest request body in bytes, uploads excluded (`TASKSPACE_BODY_LIMIT_BYTES`, default 1 MiB). */
  bodyLimitBytes: number;
  /** Largest media upload in bytes (`TASKSPACE_MEDIA_MAX_BYTES`, default 25 MiB). */
  mediaMaxBytes: number;
  /** Model provider for agent generation and commands (README "Model providers"). */
  model: {
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
  };
  /** Webhook and outbound-HTTP settings (README "Webhooks"). */
  webhooks: {
    /**
     * Development switch: allow http targets and loopback/private addresses for signed webhooks,
     * legacy subscriptions and automation HTTP requests (`TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1`, default off).
     */
    allowInsecure: boolean;
  };
}

/** Thrown when an environment variable has a value the service cannot use. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got '${raw}'`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on';
}

/**
 * Reads the configuration from an environment map (default `process.env`).
 * @throws ConfigError when a value is malformed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const provider = (env.TASKSPACE_MODEL_PROVIDER ?? 'offline').toLowerCase();
  if (provider !== 'offline' && provider !== 'openai') {
    throw new ConfigError(`TASKSPACE_MODEL_PROVIDER must be 'offline' or 'openai', got '${provider}'`);
  }
  const publicUrl = env.TASKSPACE_PUBLIC_URL?.trim();
  if (publicUrl) {
    try {
      new URL(publicUrl);
    } catch {
      throw new ConfigError(`TASKSPACE_PUBLIC_URL must be an absolute URL, got '${publicUrl}'`);
    }
  }
  return {
    port: int(env, 'PORT', 8787),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.TASKSPACE_DATA_DIR || './.data'),
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, '') : undefined,
    bootstrapToken: env.TASKSPACE_BOOTSTRAP_TOKEN || undefined,
    logLevel: env.TASKSPACE_LOG_LEVEL || 'info',
    rateLimits: {
      standard: int(env, 'TASKSPACE_RATE_LIMIT_STANDARD', 1000),
      premium: int(env, 'TASKSPACE_RATE_LIMIT_PREMIUM', 5000),
      enterprise: int(env, 'TASKSPACE_RATE_LIMIT_ENTERPRISE', 0),
    },
    bodyLimitBytes: int(env, 'TASKSPACE_BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    mediaMaxBytes: int(env, 'TASKSPACE_MEDIA_MAX_BYTES', 25 * 1024 * 1024, 1),
    model: {
      provider,
      baseUrl: (env.TASKSPACE_MODEL_BASE_URL || 'https://api.openai.com/v1').replace(/\/+$/, ''),
      apiKey: env.TASKSPACE_MODEL_API_KEY || undefined,
      name: env.TASKSPACE_MODEL_NAME || 'gpt-4o-mini',
      timeoutMs: int(env, 'TASKSPACE_MODEL_TIMEOUT_MS', 60000, 1),
    },
    webhooks: {
      allowInsecure: flag(env, 'TASKSPACE_WEBHOOKS_ALLOW_INSECURE'),
    },
  };
}
