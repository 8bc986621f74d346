/**
 * Accounts and workspaces: users, access tokens, setup links, sessions, workspaces and their
 * members, invitations and workspace secrets.
 * Part of PostgreSQL's frozen baseline (./postgres.ts, version 20); never edit it: installed
 * databases were made with this text.
 */
export const ACCOUNTS_SQL = `
CREATE TABLE users (
  id            TEXT COLLATE "C" PRIMARY KEY,
  handle        TEXT COLLATE "C" NOT NULL,
  display_name  TEXT COLLATE "C" NOT NULL,
  plan          TEXT COLLATE "C" NOT NULL DEFAULT 'free',
  rate_tier     TEXT COLLATE "C" NOT NULL DEFAULT 'standard',
  verified      BIGINT NOT NULL DEFAULT 0,
  created_at    BIGINT NOT NULL,
  email         TEXT COLLATE "C",
  password_hash TEXT COLLATE "C"
);
-- SQLite: handle TEXT NOT NULL UNIQUE COLLATE NOCASE.
CREATE UNIQUE INDEX users_handle_nocase ON users (lower(handle));
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE access_tokens (
  id            TEXT COLLATE "C" PRIMARY KEY,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  token_hash    TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT,
  revoked_at    BIGINT,
  expires_at    BIGINT,
  scope         TEXT COLLATE "C" NOT NULL DEFAULT 'write',
  client_id     TEXT COLLATE "C",
  grant_id      TEXT COLLATE "C",
  family_id     TEXT COLLATE "C"
);
CREATE INDEX access_tokens_user ON access_tokens (user_id);
CREATE INDEX access_tokens_grant ON access_tokens (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX access_tokens_family ON access_tokens (family_id) WHERE family_id IS NOT NULL;

CREATE TABLE setup_links (
  id          TEXT COLLATE "C" PRIMARY KEY,
  user_id     TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL,
  used_at     BIGINT
);

CREATE TABLE sessions (
  id            TEXT COLLATE "C" PRIMARY KEY,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash   TEXT COLLATE "C" NOT NULL UNIQUE,
  user_agent    TEXT COLLATE "C",
  created_at    BIGINT NOT NULL,
  last_used_at  BIGINT NOT NULL,
  expires_at    BIGINT NOT NULL,
  revoked_at    BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id, created_at);

CREATE TABLE workspaces (
  id            TEXT COLLATE "C" PRIMARY KEY,
  name          TEXT COLLATE "C" NOT NULL,
  created_at    BIGINT NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role          TEXT COLLATE "C" NOT NULL,
  created_at    BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members (user_id);

-- email and handle are NOCASE in SQLite; nothing indexes them (compare them with lower() as m020Baseline's comment says).
CREATE TABLE invitations (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  role          TEXT COLLATE "C" NOT NULL,
  email         TEXT COLLATE "C",
  handle        TEXT COLLATE "C",
  token_hash    TEXT COLLATE "C" NOT NULL UNIQUE,
  invited_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  expires_at    BIGINT NOT NULL,
  accepted_at   BIGINT,
  accepted_by   TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  revoked_at    BIGINT
);
CREATE INDEX invitations_workspace ON invitations (workspace_id, created_at);

CREATE TABLE workspace_secrets (
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  value_sealed  TEXT COLLATE "C" NOT NULL,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  updated_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, name)
);
`;
