import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A task id: an RFC 9562 version 7 uuid (spec section 2, Task.id: a uuid). Its first 48 bits are
 * the creation time in ms and the other 74 are random, so ids created together sort together: a
 * new task's key lands at the end of the tasks' id index instead of on a random page of it, which
 * keeps the pages a task create writes few (docs "Architecture", "Ids").
 */
export function newTaskId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; V already carries the variant bits
  const time = Date.now().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}

/**
 * A random URL-safe id for every other resource: the 16 bytes of a v4 uuid (122 random bits) as
 * 22 base64url characters, never starting with '-' (drawn again when it would), so an id is always
 * safe as a command-line argument (`taskspace member add <workspaceId> ...`). Drawn from Node's
 * pooled uuid source, which costs far less per id than a `randomBytes` call on the write path.
 * Secrets use {@link newSecret}; rows written in bulk use {@link newOrderedId}.
 */
export function newId(): string {
  for (;;) {
    const id = Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
    if (id[0] !== '-') return id;
  }
}

/**
 * An id in the same 22-character base64url form as {@link newId}, made of the 16 bytes of a
 * version 7 uuid (48 bits of creation time in ms, 74 random bits), for rows the write path
 * appends in bulk: events, deliveries and automation runs. Ids made within a few seconds share
 * their first characters, so their index entries fall on the same few pages. The first character
 * encodes the top six bits of the time and is 'A' until the year 10889, never '-'. Not for
 * anything that must stay unguessable or hide when it was made.
 */
export function newOrderedId(): string {
  const bytes = Buffer.from(randomUUID().replace(/-/g, ''), 'hex');
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  return bytes.toString('base64url');
}

/** A secret of `bytes` random bytes as base64url (default 32 bytes = 256 bits). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
