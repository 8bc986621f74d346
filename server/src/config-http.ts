import { addressList, ConfigError, int } from './config-values';

/** HTTP server settings: proxies, the public URL and request timeouts (README "Configuration"). */

/** A value of `Config.trustProxy`, as Fastify's `trustProxy` option takes it. */
export type TrustProxy = boolean | number | string[];

/** Names `proxy-addr` (Fastify's `trustProxy`) accepts in a list besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TASKSPACE_TRUST_PROXY`: unset, empty or `false` trusts no proxy; `true` every hop; a whole
 * number that many hops; otherwise a comma-separated list of addresses, CIDR ranges or the
 * names `loopback`, `linklocal`, `uniquelocal`.
 * @throws ConfigError for anything else (a negative or fractional number, a malformed address).
 */
export function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TASKSPACE_TRUST_PROXY ?? '').trim();
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false') return false;
  if (lower === 'true') return true;
  if (/^\d{1,9}$/.test(raw)) return Number(raw);
  // A number that is not a whole count of hops (an address like 10.0.0.1 has more dots).
  if (/^[-+]?\d+(?:\.\d*)?$/.test(raw)) {
    throw new ConfigError(
      `TASKSPACE_TRUST_PROXY must be true, false, a whole number of hops or a list of addresses and CIDR ranges, got '${raw}'`,
    );
  }
  try {
    return addressList(env, 'TASKSPACE_TRUST_PROXY', PROXY_RANGE_NAMES);
  } catch {
    throw new ConfigError(
      `TASKSPACE_TRUST_PROXY must be true, false, a whole number of hops or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal, got '${raw}'`,
    );
  }
}

/**
 * `TASKSPACE_PUBLIC_URL`, trimmed and without trailing slashes; undefined when unset or empty.
 * @throws ConfigError when it is not an absolute URL.
 */
export function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.TASKSPACE_PUBLIC_URL?.trim();
  if (value) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError(`TASKSPACE_PUBLIC_URL must be an absolute URL, got '${value}'`);
    }
  }
  return value ? value.replace(/\/+$/, '') : undefined;
}

/**
 * `TASKSPACE_REQUEST_TIMEOUT_MS` and `TASKSPACE_HEADERS_TIMEOUT_MS`, in ms (see `Config.requestTimeoutMs`).
 * @throws ConfigError when one is malformed or the headers timeout exceeds the request timeout.
 */
export function requestTimeouts(env: NodeJS.ProcessEnv): { requestTimeoutMs: number; headersTimeoutMs: number } {
  const requestTimeoutMs = int(env, 'TASKSPACE_REQUEST_TIMEOUT_MS', 120_000, 100);
  const headersTimeoutMs = int(env, 'TASKSPACE_HEADERS_TIMEOUT_MS', Math.min(30_000, requestTimeoutMs), 100);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `TASKSPACE_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed TASKSPACE_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return { requestTimeoutMs, headersTimeoutMs };
}
