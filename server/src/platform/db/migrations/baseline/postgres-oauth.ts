/**
 * OAuth: clients, grants, authorization codes and refresh tokens.
 * Part of PostgreSQL's frozen baseline (./postgres.ts, version 20); never edit it: installed
 * databases were made with this text.
 */
export const OAUTH_SQL = `
CREATE TABLE oauth_clients (
  id             TEXT COLLATE "C" PRIMARY KEY,
  workspace_id   TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name           TEXT COLLATE "C" NOT NULL,
  redirect_uris  TEXT COLLATE "C" NOT NULL,
  type           TEXT COLLATE "C" NOT NULL CHECK (type IN ('confidential', 'public')),
  secret_hash    TEXT COLLATE "C",
  created_by     TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at     BIGINT NOT NULL
);
CREATE INDEX oauth_clients_workspace ON oauth_clients (workspace_id, created_at);

CREATE TABLE oauth_grants (
  id          TEXT COLLATE "C" PRIMARY KEY,
  user_id     TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id   TEXT COLLATE "C" NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  scope       TEXT COLLATE "C" NOT NULL,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL,
  UNIQUE (user_id, client_id)
);

CREATE TABLE oauth_codes (
  code_hash              TEXT COLLATE "C" PRIMARY KEY,
  grant_id               TEXT COLLATE "C" NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  redirect_uri           TEXT COLLATE "C" NOT NULL,
  scope                  TEXT COLLATE "C" NOT NULL,
  code_challenge         TEXT COLLATE "C",
  code_challenge_method  TEXT COLLATE "C",
  created_at             BIGINT NOT NULL,
  expires_at             BIGINT NOT NULL,
  used_at                BIGINT,
  family_id              TEXT COLLATE "C"
);

CREATE TABLE oauth_refresh_tokens (
  id           TEXT COLLATE "C" PRIMARY KEY,
  token_hash   TEXT COLLATE "C" NOT NULL UNIQUE,
  grant_id     TEXT COLLATE "C" NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  family_id    TEXT COLLATE "C" NOT NULL,
  scope        TEXT COLLATE "C" NOT NULL,
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  revoked_at   BIGINT,
  rotated_at   BIGINT
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens (family_id);
`;
