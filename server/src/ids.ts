import { randomBytes, randomUUID } from 'node:crypto';

/** A task id: an RFC 4122 v4 uuid (spec section 2, Task.id). */
export function newTaskId(): string {
  return randomUUID();
}

/**
 * A random URL-safe id for every other resource: 16 random bytes (128 bits)
 * as 22 base64url characters.
 */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** A secret of `bytes` random bytes as base64url (default 32 bytes = 256 bits). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
