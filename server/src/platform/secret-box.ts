import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { Query, Sql } from './db/query';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';

/**
 * Encryption at rest of webhook signing secrets (README "Events and webhooks", "Secrets").
 *
 * A signing secret must be readable to compute HMACs, so it cannot be stored as a hash. It is
 * stored sealed with AES-256-GCM under a key that does not live in the database: the key comes
 * from `TASKSPACE_WEBHOOKS_SECRET_KEY` (SHA-256 of the string) or, by default, from the file
 * `<dataDir>/webhook-secrets.key` (32 random bytes, created with mode 0600 on first use). A copy
 * of the SQLite file alone therefore does not reveal secrets.
 *
 * Sealed format: `v1.` + base64url(12-byte IV ‖ 16-byte tag ‖ ciphertext).
 */

/** Name of the key file inside the data directory. */
export const SECRET_KEY_FILE = 'webhook-secrets.key';

const VERSION = 'v1.';

/** Thrown when a sealed secret cannot be opened (wrong or lost key, corrupted value). */
export class SecretUnreadableError extends Error {
  override name = 'SecretUnreadableError';
}

/**
 * The key of `config`: SHA-256 of `TASKSPACE_WEBHOOKS_SECRET_KEY`, or the key file in the data
 * directory (created on first use).
 * @throws SecretUnreadableError when the key file does not hold a 32-byte base64 key.
 */
function loadKey(config: Config): Buffer {
  let key: Buffer;
  if (config.webhooks.secretKey !== undefined) {
    key = createHash('sha256').update(config.webhooks.secretKey, 'utf8').digest();
  } else {
    const file = path.join(config.dataDir, SECRET_KEY_FILE);
    try {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new SecretUnreadableError(`${file} does not hold a 32-byte base64 key`);
  }
  return key;
}

/** Seals and opens secrets with the app's key, loaded on first use and kept by this instance. */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly config: Config) {}

  private keyOf(): Buffer {
    this.key ??= loadKey(this.config);
    return this.key;
  }

  /** Seals `secret` (UTF-8) for storage. @throws SecretUnreadableError when the key file is invalid. */
  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyOf(), iv);
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
  }

  /**
   * An HMAC-SHA256 of `text` for one `purpose` under the app's key, base64url (43 characters):
   * capability URLs (a run's resume URL) that need no stored token.
   * @throws SecretUnreadableError when the key file is invalid.
   */
  mac(purpose: string, text: string): string {
    return createHmac('sha256', this.keyOf()).update(`${purpose}\n${text}`).digest('base64url');
  }

  /**
   * Opens a value made by {@link SecretBox.seal}.
   * @throws SecretUnreadableError when the key differs from the one that sealed it or the value is corrupt.
   */
  open(sealed: string): string {
    if (!sealed.startsWith(VERSION)) throw new SecretUnreadableError('unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < 28) throw new SecretUnreadableError('sealed secret is truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.keyOf(), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError('the webhook secret cannot be decrypted with the configured key');
    }
  }
}

/** The newest sealed value of each table holding them (webhook signing secrets, workspace secrets). */
const NEWEST_SEALED = [
  'SELECT secret_sealed AS sealed FROM webhooks ORDER BY created_at DESC LIMIT 1',
  'SELECT value_sealed AS sealed FROM workspace_secrets ORDER BY created_at DESC LIMIT 1',
];

/**
 * Whether `box`'s key opens the secrets already sealed in the database: false when the newest
 * value of a table holding them cannot be opened, as when servers sharing one PostgreSQL database
 * run with different keys, or the key file of the data directory was lost or replaced. True when
 * nothing is sealed yet. Called at start, to warn before deliveries and automations fail.
 */
export function* secretKeyOpensStored(q: Sql, box: SecretBox): Query<boolean> {
  for (const text of NEWEST_SEALED) {
    const row = yield* q.get<{ sealed: string }>(text);
    if (!row) continue;
    try {
      box.open(row.sealed);
    } catch (error) {
      if (error instanceof SecretUnreadableError) return false;
      throw error;
    }
  }
  return true;
}
