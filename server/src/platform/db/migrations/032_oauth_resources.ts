import type { PairedMigration } from '../migrate';

/**
 * OAuth for MCP clients (issue 38, docs/oauth.md "Resource indicators", "Self-registered
 * clients"): resource indicators (RFC 8707) and clients that register themselves (RFC 7591).
 * - `oauth_clients.workspace_id` may be NULL: a self-registered client belongs to no workspace;
 *   `registration` says how a client came (`owner`: an Owner registered it in a workspace,
 *   `dynamic`: it registered itself at `/oauth/register`).
 * - `oauth_codes.resource`, `oauth_refresh_tokens.resource`: the resource (canonical URI) a code
 *   or refresh token was issued for; NULL when none was named.
 * - `access_tokens.audience`: an OAuth access token's audience, the resource it may be used at.
 *
 * SQLite cannot drop a NOT NULL constraint in place, and its migrations run inside a transaction
 * with foreign keys on (a dropped parent table deletes its children's rows), so the four OAuth
 * tables are copied aside, dropped children first, made again with the new columns at the end
 * (where PostgreSQL's ALTER TABLE puts them) and filled back, inside the migration's transaction.
 */
export const m032OAuthResources: PairedMigration = {
  version: 32,
  name: 'oauth_resources',
  up: {
    sqlite: `
CREATE TABLE m032_clients AS SELECT * FROM oauth_clients;
CREATE TABLE m032_grants AS SELECT * FROM oauth_grants;
CREATE TABLE m032_codes AS SELECT * FROM oauth_codes;
CREATE TABLE m032_refresh AS SELECT * FROM oauth_refresh_tokens;
DROP TABLE oauth_refresh_tokens;
DROP TABLE oauth_codes;
DROP TABLE oauth_grants;
DROP TABLE oauth_clients;

CREATE TABLE oauth_clients (
  id             TEXT PRIMARY KEY,
  workspace_id   TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  redirect_uris  TEXT NOT NULL,
  type           TEXT NOT NULL CHECK (type IN ('confidential', 'public')),
  secret_hash    TEXT,
  created_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  registration   TEXT NOT NULL DEFAULT 'owner' CHECK (registration IN ('owner', 'dynamic'))
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
  family_id              TEXT,
  resource               TEXT
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
  rotated_at   INTEGER,
  resource     TEXT
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens(family_id);

INSERT INTO oauth_clients (id, workspace_id, name, redirect_uris, type, secret_hash, created_by, created_at)
  SELECT id, workspace_id, name, redirect_uris, type, secret_hash, created_by, created_at FROM m032_clients;
INSERT INTO oauth_grants (id, user_id, client_id, scope, created_at, updated_at)
  SELECT id, user_id, client_id, scope, created_at, updated_at FROM m032_grants;
INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, scope, code_challenge, code_challenge_method, created_at, expires_at, used_at, family_id)
  SELECT code_hash, grant_id, redirect_uri, scope, code_challenge, code_challenge_method, created_at, expires_at, used_at, family_id FROM m032_codes;
INSERT INTO oauth_refresh_tokens (id, token_hash, grant_id, family_id, scope, created_at, expires_at, revoked_at, rotated_at)
  SELECT id, token_hash, grant_id, family_id, scope, created_at, expires_at, revoked_at, rotated_at FROM m032_refresh;
DROP TABLE m032_clients;
DROP TABLE m032_grants;
DROP TABLE m032_codes;
DROP TABLE m032_refresh;

ALTER TABLE access_tokens ADD COLUMN audience TEXT;`,
    postgres: `
ALTER TABLE oauth_clients ALTER COLUMN workspace_id DROP NOT NULL;
ALTER TABLE oauth_clients ADD COLUMN registration TEXT COLLATE "C" NOT NULL DEFAULT 'owner' CHECK (registration IN ('owner', 'dynamic'));
ALTER TABLE oauth_codes ADD COLUMN resource TEXT COLLATE "C";
ALTER TABLE oauth_refresh_tokens ADD COLUMN resource TEXT COLLATE "C";
ALTER TABLE access_tokens ADD COLUMN audience TEXT COLLATE "C";`,
  },
};
