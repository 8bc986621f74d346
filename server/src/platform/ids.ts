import { randomBytes, randomUUID } from 'node:crypto';

/** A task id: an RFC 4122 v4 uuid (spec section 2, Task.id). */
export function newTaskId(): string {
  return randomUUID();
}

/**
 * A random URL-safe id for every other resource: the 16 bytes of a v4 uuid (122 random bits) as
 * 22 base64url characters, never starting with '-' (drawn again when it would), so an id is always
 * safe as a command-line argument (`taskspace member add <workspaceId> ...`). Drawn from Node's
 * pooled uuid source, which costs far less per id than a `randomBytes` call on the write path.
 * Secrets use {@link newSecret}.
 */
export function newId(): string {
  for (;;) {
    const id = Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
    if (id[0] !== '-') return id;
  }
}

/** A secret of `bytes` random bytes as base64url (default 32 bytes = 256 bits). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
