import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { badRequest } from '../errors';

/**
 * Password hashing with Node's built-in scrypt (RFC 7914), a memory-hard KDF.
 * Parameters: N = 2^15 (cost), r = 8 (block size), p = 1 (parallelism), a 16-byte random salt
 * and a 64-byte derived key; one hash needs 32 MiB of memory. A stored hash describes itself:
 * `scrypt$N=32768,r=8,p=1$<salt base64url>$<key base64url>`, so parameters can be raised later
 * and old hashes still verify. Passwords are never stored or logged.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

/** Shortest accepted password, in characters. */
export const PASSWORD_MIN_LENGTH = 10;
/** Longest accepted password, in characters (bounds the hashing work per request). */
export const PASSWORD_MAX_LENGTH = 1024;

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function options(N: number, r: number, p: number): ScryptOptions {
  // scrypt needs 128 * N * r bytes; allow twice that so the default 32 MiB cap does not trip.
  return { N, r, p, maxmem: 256 * N * r };
}

function format(salt: Buffer, key: Buffer): string {
  const { N, r, p } = SCRYPT_PARAMS;
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

function parse(stored: string): Parsed | undefined {
  const m = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return undefined;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Refuse absurd parameters from a tampered row rather than exhausting memory.
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return undefined;
  return { N, r, p, salt: Buffer.from(m[4]!, 'base64url'), key: Buffer.from(m[5]!, 'base64url') };
}

/**
 * Checks a new password's length.
 * @throws ServiceError 400 VALIDATION_ERROR (`field`, reason `too_short` or `too_long`).
 */
export function checkPasswordPolicy(password: unknown, field = 'password'): string {
  if (typeof password !== 'string') throw badRequest(field, 'required', `${field} must be a string`);
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    throw badRequest(field, 'too_short', `${field} must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if ([...password].length > PASSWORD_MAX_LENGTH) {
    throw badRequest(field, 'too_long', `${field} must have at most ${PASSWORD_MAX_LENGTH} characters`);
  }
  return password;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options(N, r, p), (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password off the event loop; returns the self-describing string to store. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT_PARAMS.saltLength);
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  return format(salt, await derive(password, salt, N, r, p, keyLength));
}

/** Synchronous {@link hashPassword}, for the admin CLI. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(SCRYPT_PARAMS.saltLength);
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  return format(salt, scryptSync(password.normalize('NFC'), salt, keyLength, options(N, r, p)));
}

/**
 * Whether `password` matches `stored` (constant-time comparison of the derived keys).
 * A missing or malformed stored hash never matches, but still costs one hash, so the timing
 * does not reveal whether an account has a password.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : undefined;
  if (!parsed) {
    await hashPassword(password);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.key.length);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}
