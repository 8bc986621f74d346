import { ConfigError, int } from './config-values';

/** Where the service keeps its data: the database and media bytes (docs "Operations"). */

/** PostgreSQL connections of a process (see `Config.postgres`). */
export interface PostgresConfig {
  /** Most connections open at once (`TASKSPACE_POSTGRES_POOL_SIZE`, default 10, at least 2). */
  poolSize: number;
  /** The server-side `statement_timeout` of each, in ms (`TASKSPACE_POSTGRES_STATEMENT_TIMEOUT_MS`, default 0 = none). */
  statementTimeoutMs: number;
}

/** The places media bytes can live (see `Config.mediaStore`). */
export const MEDIA_STORE_KINDS = ['files', 'database'] as const;
/** One of {@link MEDIA_STORE_KINDS}. */
export type MediaStoreKind = (typeof MEDIA_STORE_KINDS)[number];

/**
 * `DATABASE_URL`, checked to be a PostgreSQL URL; undefined when unset or empty.
 * @throws ConfigError when it is not a `postgres://` or `postgresql://` URL.
 */
export function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.DATABASE_URL;
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql:// (got '${url.protocol}//'); leave it unset for the embedded SQLite file`,
    );
  }
  return value;
}

/**
 * Reads the PostgreSQL connection settings ({@link PostgresConfig}).
 * @throws ConfigError when a value is malformed.
 */
export function postgresConfig(env: NodeJS.ProcessEnv): PostgresConfig {
  return {
    poolSize: int(env, 'TASKSPACE_POSTGRES_POOL_SIZE', 10, 2),
    statementTimeoutMs: int(env, 'TASKSPACE_POSTGRES_STATEMENT_TIMEOUT_MS', 0, 0),
  };
}

/**
 * `TASKSPACE_MEDIA_STORE`; by default `database` when `DATABASE_URL` is set, else `files`.
 * @throws ConfigError for a value other than `files` or `database`.
 */
export function mediaStore(env: NodeJS.ProcessEnv): MediaStoreKind {
  const value = (env.TASKSPACE_MEDIA_STORE ?? '').trim().toLowerCase();
  if (!value) return env.DATABASE_URL ? 'database' : 'files';
  if (!(MEDIA_STORE_KINDS as readonly string[]).includes(value)) {
    throw new ConfigError(`TASKSPACE_MEDIA_STORE must be 'files' or 'database', got '${env.TASKSPACE_MEDIA_STORE}'`);
  }
  return value as MediaStoreKind;
}
