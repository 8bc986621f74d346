import { isIP } from 'node:net';

/**
 * Readers of single environment variables shared by the settings groups of `config.ts`
 * (README "Configuration").
 */

/** Thrown when an environment variable has a value the service cannot use. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The whole number in `env[name]`, or `fallback` when unset or empty.
 * @throws ConfigError when the value is not an integer of at least `min`.
 */
export function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got '${raw}'`);
  }
  return value;
}

/** Whether `env[name]` switches a setting on (`1`, `true`, `yes` or `on`, any case); off otherwise. */
export function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on';
}

/**
 * A comma-separated list of IP addresses or CIDR ranges (`10.0.0.0/8`, `::1`); `names` are accepted as they are.
 * @throws ConfigError when an entry is neither.
 */
export function addressList(env: NodeJS.ProcessEnv, name: string, names: string[] = []): string[] {
  const entries = (env[name] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (names.includes(entry)) continue;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || extra !== undefined || !prefixOk) {
      throw new ConfigError(`${name} must list IP addresses or CIDR ranges, got '${entry}'`);
    }
  }
  return entries;
}
