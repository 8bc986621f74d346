import { ConfigError, int } from './config-values';

/** Accounts and sessions (issue 10). */
export interface AccountsConfig {
  /** Password given to the bootstrap owner on first start (`TASKSPACE_BOOTSTRAP_PASSWORD`); no setup link is needed then. */
  bootstrapPassword: string | undefined;
  /** A session ends after this long without a request, in ms (`TASKSPACE_SESSION_IDLE_MINUTES`, default 10080 = 7 days). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in whatever its use, in ms (`TASKSPACE_SESSION_MAX_DAYS`, default 30). */
  sessionMaxMs: number;
  /**
   * Lifetime of an OAuth access token, in ms (`TASKSPACE_OAUTH_ACCESS_TOKEN_MINUTES`, default 60;
   * `TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS`, at least 1, wins when set: short lifetimes for tests).
   */
  oauthAccessTokenMs: number;
  /** Lifetime of an OAuth refresh token, in ms (`TASKSPACE_OAUTH_REFRESH_TOKEN_DAYS`, default 30); each use replaces it with a new one. */
  oauthRefreshTokenMs: number;
}

/**
 * Checks `TASKSPACE_BOOTSTRAP_PASSWORD` when set.
 * @throws ConfigError when it has fewer than 10 characters.
 */
export function checkBootstrapPassword(env: NodeJS.ProcessEnv): void {
  const bootstrapPassword = env.TASKSPACE_BOOTSTRAP_PASSWORD;
  if (bootstrapPassword && [...bootstrapPassword].length < 10) {
    throw new ConfigError('TASKSPACE_BOOTSTRAP_PASSWORD must have at least 10 characters');
  }
}

/**
 * Reads the sign-in and session settings ({@link AccountsConfig}).
 * @throws ConfigError when a value is malformed.
 */
export function accountsConfig(env: NodeJS.ProcessEnv): AccountsConfig {
  return {
    bootstrapPassword: env.TASKSPACE_BOOTSTRAP_PASSWORD || undefined,
    sessionIdleMs: int(env, 'TASKSPACE_SESSION_IDLE_MINUTES', 7 * 24 * 60, 1) * 60000,
    sessionMaxMs: int(env, 'TASKSPACE_SESSION_MAX_DAYS', 30, 1) * 86400000,
    oauthAccessTokenMs: env.TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS
      ? int(env, 'TASKSPACE_OAUTH_ACCESS_TOKEN_SECONDS', 3600, 1) * 1000
      : int(env, 'TASKSPACE_OAUTH_ACCESS_TOKEN_MINUTES', 60, 1) * 60000,
    oauthRefreshTokenMs: int(env, 'TASKSPACE_OAUTH_REFRESH_TOKEN_DAYS', 30, 1) * 86400000,
  };
}
