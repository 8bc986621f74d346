import type { PairedMigration } from '../migrate';

/**
 * Password reset links (docs "Accounts and sign-in", "Forgotten password"; issue 39): one row per
 * link mailed by `POST /api/v1/auth/password/forgot`, holding only the SHA-256 hash of its token.
 * `expires_at` (ms) is 30 minutes after `created_at`; `used_at` is set when the link set a new
 * password, and on every other open link of the account at the same time.
 */
export const m036PasswordResets: PairedMigration = {
  version: 36,
  name: 'password_resets',
  up: {
    sqlite: `
CREATE TABLE password_resets (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
CREATE INDEX password_resets_user ON password_resets(user_id, created_at);`,
    postgres: `
CREATE TABLE password_resets (
  id          TEXT COLLATE "C" PRIMARY KEY,
  user_id     TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  used_at     BIGINT
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at);`,
  },
};
