import type { PairedMigration } from '../migrate';

/**
 * Connections of Activepieces pieces (docs/integrations.md "Connections"; issue 37): one row per
 * named connection of a workspace to a piece's service. `value_sealed` is the connection's value
 * (`{type, secret_text}`, `{type, username, password}`, `{type, props}` or an OAuth2 token set)
 * as JSON sealed with the app's secret box, like workspace secrets; it is never returned.
 */
export const m033Connections: PairedMigration = {
  version: 33,
  name: 'connections',
  up: {
    sqlite: `
CREATE TABLE connections (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  piece         TEXT NOT NULL,
  name          TEXT NOT NULL,
  auth_type     TEXT NOT NULL,
  value_sealed  TEXT NOT NULL,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX connections_workspace ON connections(workspace_id, piece);`,
    postgres: `
CREATE TABLE connections (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  piece         TEXT COLLATE "C" NOT NULL,
  name          TEXT COLLATE "C" NOT NULL,
  auth_type     TEXT COLLATE "C" NOT NULL,
  value_sealed  TEXT COLLATE "C" NOT NULL,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  UNIQUE (workspace_id, name)
);
CREATE INDEX connections_workspace ON connections (workspace_id, piece);`,
  },
};
