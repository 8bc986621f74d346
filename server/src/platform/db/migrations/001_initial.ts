import type { Migration } from '../migrate';

/** Accounts, workspaces, folders, projects, tasks and add-ons, agents, media and the event outbox. */
export const m001Initial: Migration = {
  version: 1,
  name: 'initial',
  up: `
CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  handle        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  display_name  TEXT NOT NULL,
  plan          TEXT NOT NULL DEFAULT 'free',
  rate_tier     TEXT NOT NULL DEFAULT 'standard',
  verified      INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL
);

CREATE TABLE access_tokens (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER
);
CREATE INDEX access_tokens_user ON access_tokens(user_id);

CREATE TABLE workspaces (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  created_at    INTEGER NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role          TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user ON workspace_members(user_id);

-- A workspace's home folder has the workspace's own id and no parent.
CREATE TABLE folders (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  parent_id     TEXT REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  created_at    INTEGER NOT NULL
);
CREATE INDEX folders_workspace ON folders(workspace_id);

CREATE TABLE projects (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  is_template   INTEGER NOT NULL DEFAULT 0,
  completed_at  INTEGER,
  completed_by  TEXT REFERENCES users(id) ON DELETE SET NULL,
  share_token   TEXT UNIQUE,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX projects_folder ON projects(folder_id, is_template, created_at);
CREATE INDEX projects_workspace ON projects(workspace_id, created_at);

-- Tasks form a tree per project. rank orders siblings (fractional keys, see modules/tasks/rank.ts);
-- path is the ancestors' ranks joined with '.', so ORDER BY path is document (pre-)order.
CREATE TABLE tasks (
  id            TEXT PRIMARY KEY,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  parent_id     TEXT REFERENCES tasks(id) ON DELETE CASCADE,
  rank          TEXT NOT NULL,
  path          TEXT NOT NULL,
  text          TEXT NOT NULL,
  content_type  TEXT NOT NULL DEFAULT 'text/markdown',
  completed     INTEGER NOT NULL DEFAULT 0,
  completed_at  INTEGER,
  completed_by  TEXT REFERENCES users(id) ON DELETE SET NULL,
  note_type     TEXT,
  note_value    TEXT,
  start_date    TEXT,
  start_time    TEXT,
  start_tz      TEXT,
  end_date      TEXT,
  end_time      TEXT,
  end_tz        TEXT,
  due_at        INTEGER,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE UNIQUE INDEX tasks_project_path ON tasks(project_id, path);
CREATE INDEX tasks_siblings ON tasks(project_id, parent_id, rank);
CREATE INDEX tasks_due ON tasks(due_at) WHERE due_at IS NOT NULL;

CREATE TABLE task_assignees (
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  assigned_at   INTEGER NOT NULL,
  PRIMARY KEY (task_id, user_id)
);

CREATE TABLE fields (
  id            TEXT PRIMARY KEY,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  type          TEXT NOT NULL,
  options_json  TEXT,
  created_at    INTEGER NOT NULL
);
CREATE INDEX fields_project ON fields(project_id, created_at);

CREATE TABLE task_field_values (
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  field_id      TEXT NOT NULL REFERENCES fields(id) ON DELETE CASCADE,
  value_json    TEXT NOT NULL,
  PRIMARY KEY (task_id, field_id)
);

CREATE TABLE comments (
  id            TEXT PRIMARY KEY,
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  author_id     TEXT REFERENCES users(id) ON DELETE SET NULL,
  text          TEXT NOT NULL,
  created_at    INTEGER NOT NULL
);
CREATE INDEX comments_task ON comments(task_id, created_at);

CREATE TABLE agents (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  type          TEXT NOT NULL DEFAULT 'agent',
  data_json     TEXT NOT NULL,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX agents_folder ON agents(folder_id, created_at);

CREATE TABLE agent_knowledge (
  agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('project', 'media')),
  ref_id        TEXT NOT NULL,
  added_at      INTEGER NOT NULL,
  PRIMARY KEY (agent_id, kind, ref_id)
);

CREATE TABLE public_agents (
  id               TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL UNIQUE REFERENCES agents(id) ON DELETE CASCADE,
  preferences_json TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);

CREATE TABLE conversations (
  id            TEXT PRIMARY KEY,
  agent_id      TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  title         TEXT NOT NULL,
  status        TEXT NOT NULL,
  llm_type      TEXT NOT NULL,
  llm_name      TEXT NOT NULL,
  messages_json TEXT NOT NULL,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX conversations_agent ON conversations(agent_id, created_at);

CREATE TABLE media (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL,
  name          TEXT NOT NULL,
  content_type  TEXT NOT NULL,
  size_bytes    INTEGER NOT NULL,
  storage_key   TEXT NOT NULL,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL
);
CREATE INDEX media_folder ON media(folder_id, created_at);

-- The outbox: every domain event, written in the transaction of the change that raised it.
CREATE TABLE events (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  id            TEXT NOT NULL UNIQUE,
  type          TEXT NOT NULL,
  workspace_id  TEXT NOT NULL,
  payload_json  TEXT NOT NULL,
  depth         INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL
);
`,
};
