import type { Migration } from '../migrate';

/**
 * The OAuth 2.0 authorization server (issue 10, docs/oauth.md): clients registered by a
 * workspace's Owners (secret stored as a SHA-256 hash), the grants people remembered on the
 * consent page, single-use authorization codes, and rotating refresh tokens grouped in families
 * for reuse detection. OAuth access tokens live in `access_tokens` beside personal tokens,
 * marked by `client_id`, so every API route accepts them the same way; `scope` holds their
 * granted scopes separated by spaces. Only hashes of codes, tokens and secrets are stored.
 */
export const m016OAuth: Migration = {
  version: 16,
  name: 'oauth',
  up: `
CREATE TABLE oauth_clients (
  id             TEXT PRIMARY KEY,
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  redirect_uris  TEXT NOT NULL,
  type           TEXT NOT NULL CHECK (type IN ('confidential', 'public')),
  secret_hash    TEXT,
  created_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL
);
CREATE INDEX oauth_clients_workspace ON oauth_clients(workspace_id, created_at);

CREATE TABLE oauth_grants (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id   TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  scope       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  UNIQUE (user_id, client_id)
);

CREATE TABLE oauth_codes (
  code_hash              TEXT PRIMARY KEY,
  grant_id               TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  redirect_uri           TEXT NOT NULL,
  scope                  TEXT NOT NULL,
  code_challenge         TEXT,
  code_challenge_method  TEXT,
  created_at             INTEGER NOT NULL,
  expires_at             INTEGER NOT NULL,
  used_at                INTEGER,
  family_id              TEXT
);

CREATE TABLE oauth_refresh_tokens (
  id           TEXT PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,
  grant_id     TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  family_id    TEXT NOT NULL,
  scope        TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  rotated_at   INTEGER
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens(family_id);

ALTER TABLE access_tokens ADD COLUMN client_id TEXT;
ALTER TABLE access_tokens ADD COLUMN grant_id TEXT;
ALTER TABLE access_tokens ADD COLUMN family_id TEXT;
CREATE INDEX access_tokens_grant ON access_tokens(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX access_tokens_family ON access_tokens(family_id) WHERE family_id IS NOT NULL;
`,
};
