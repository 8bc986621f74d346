import type { PairedMigration } from '../migrate';

/**
 * OAuth2 connections of pieces (docs/integrations.md "OAuth2 connections"; issue 37):
 * - `connection_oauth_apps`: the provider app (client id, sealed client secret) an Owner
 *   registered for a piece in a workspace;
 * - `connection_oauth_states`: one row per consent under way (`state` hashed with SHA-256, the
 *   sealed PKCE verifier, the redirect URI sent), used once, kept 10 minutes; `connection_id` and
 *   `error` record how it ended, for the status the web app polls;
 * - `connections.refresh_until`: the lease (ms since the epoch) of the process refreshing the
 *   connection's token, so that one refresh wins across processes and the others reuse its token.
 */
export const m037ConnectionOAuth: PairedMigration = {
  version: 37,
  name: 'connection_oauth',
  up: {
    sqlite: `
CREATE TABLE connection_oauth_apps (
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  piece          TEXT NOT NULL,
  client_id      TEXT NOT NULL,
  secret_sealed  TEXT NOT NULL,
  created_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, piece)
);
CREATE TABLE connection_oauth_states (
  state_hash     TEXT PRIMARY KEY,
  workspace_id   TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  piece          TEXT NOT NULL,
  name           TEXT NOT NULL,
  request_sealed TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER,
  connection_id  TEXT,
  error          TEXT
);
CREATE INDEX connection_oauth_states_expiry ON connection_oauth_states(expires_at);
ALTER TABLE connections ADD COLUMN refresh_until INTEGER;`,
    postgres: `
CREATE TABLE connection_oauth_apps (
  workspace_id   TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  piece          TEXT COLLATE "C" NOT NULL,
  client_id      TEXT COLLATE "C" NOT NULL,
  secret_sealed  TEXT COLLATE "C" NOT NULL,
  created_by     TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, piece)
);
CREATE TABLE connection_oauth_states (
  state_hash     TEXT COLLATE "C" PRIMARY KEY,
  workspace_id   TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id        TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  piece          TEXT COLLATE "C" NOT NULL,
  name           TEXT COLLATE "C" NOT NULL,
  request_sealed TEXT COLLATE "C" NOT NULL,
  created_at     BIGINT NOT NULL,
  expires_at     BIGINT NOT NULL,
  used_at        BIGINT,
  connection_id  TEXT COLLATE "C",
  error          TEXT COLLATE "C"
);
CREATE INDEX connection_oauth_states_expiry ON connection_oauth_states (expires_at);
ALTER TABLE connections ADD COLUMN refresh_until BIGINT;`,
  },
};
