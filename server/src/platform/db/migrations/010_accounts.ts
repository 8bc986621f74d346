import type { Migration } from '../migrate';

/**
 * People sign in (issue 10): users get an optional unique email and a password hash (a
 * self-describing scrypt string, see accounts/passwords.ts); one-time setup links let the
 * owner choose a password on first start; browser sessions. Only hashes of link tokens and
 * session ids are stored. Personal access tokens get an optional expiry and a scope
 * (`read` or `write`; existing tokens are `write`).
 */
export const m010Accounts: Migration = {
  version: 10,
  name: 'accounts',
  up: `
ALTER TABLE users ADD COLUMN email TEXT COLLATE NOCASE;
ALTER TABLE users ADD COLUMN password_hash TEXT;
CREATE UNIQUE INDEX users_email ON users(email) WHERE email IS NOT NULL;

CREATE TABLE setup_links (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);

CREATE TABLE sessions (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash   TEXT NOT NULL UNIQUE,
  user_agent    TEXT,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  revoked_at    INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id, created_at);

ALTER TABLE access_tokens ADD COLUMN expires_at INTEGER;
ALTER TABLE access_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'write';

CREATE TABLE invitations (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  role          TEXT NOT NULL,
  email         TEXT COLLATE NOCASE,
  handle        TEXT COLLATE NOCASE,
  token_hash    TEXT NOT NULL UNIQUE,
  invited_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  accepted_at   INTEGER,
  accepted_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
  revoked_at    INTEGER
);
CREATE INDEX invitations_workspace ON invitations(workspace_id, created_at);
`,
};
