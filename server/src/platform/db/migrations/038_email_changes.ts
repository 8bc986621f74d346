import type { PairedMigration } from '../migrate';

/**
 * Email verification (docs "Accounts and sign-in", "Your email address"; issue 39): one row per
 * confirmation link mailed by `POST /api/v1/me/email`, holding the new address and only the
 * SHA-256 hash of the link's token. The address becomes the account's only when the link is used
 * (`used_at`); a newer request closes the older open ones (`used_at` set, `email` kept for the
 * record). `expires_at` (ms) is 24 hours after `created_at`.
 */
export const m038EmailChanges: PairedMigration = {
  version: 38,
  name: 'email_changes',
  up: {
    sqlite: `
CREATE TABLE email_changes (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email       TEXT NOT NULL COLLATE NOCASE,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
CREATE INDEX email_changes_user ON email_changes(user_id, created_at);`,
    postgres: `
CREATE TABLE email_changes (
  id          TEXT COLLATE "C" PRIMARY KEY,
  user_id     TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email       TEXT COLLATE "C" NOT NULL,
  token_hash  TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  used_at     BIGINT
);
CREATE INDEX email_changes_user ON email_changes (user_id, created_at);`,
  },
};
