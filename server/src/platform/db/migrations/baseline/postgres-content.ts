/**
 * Workspace content: folders, projects and their members, tasks with assignees, fields and
 * comments, agents with their knowledge links, public agents, conversations and media.
 * Part of PostgreSQL's frozen baseline (./postgres.ts, version 20); never edit it: installed
 * databases were made with this text.
 */
export const CONTENT_SQL = `
CREATE TABLE folders (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  parent_id     TEXT COLLATE "C" REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  created_at    BIGINT NOT NULL
);
CREATE INDEX folders_workspace ON folders (workspace_id);

CREATE TABLE projects (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT COLLATE "C" NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  is_template   BIGINT NOT NULL DEFAULT 0,
  completed_at  BIGINT,
  completed_by  TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  share_token   TEXT COLLATE "C" UNIQUE,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  version       BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX projects_folder ON projects (folder_id, is_template, created_at);
CREATE INDEX projects_workspace ON projects (workspace_id, created_at);

CREATE TABLE project_members (
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  added_by      TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id);

CREATE TABLE tasks (
  id            TEXT COLLATE "C" PRIMARY KEY,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  parent_id     TEXT COLLATE "C" REFERENCES tasks(id) ON DELETE CASCADE,
  rank          TEXT COLLATE "C" NOT NULL,
  path          TEXT COLLATE "C" NOT NULL,
  text          TEXT COLLATE "C" NOT NULL,
  content_type  TEXT COLLATE "C" NOT NULL DEFAULT 'text/markdown',
  completed     BIGINT NOT NULL DEFAULT 0,
  completed_at  BIGINT,
  completed_by  TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  note_type     TEXT COLLATE "C",
  note_value    TEXT COLLATE "C",
  start_date    TEXT COLLATE "C",
  start_time    TEXT COLLATE "C",
  start_tz      TEXT COLLATE "C",
  end_date      TEXT COLLATE "C",
  end_time      TEXT COLLATE "C",
  end_tz        TEXT COLLATE "C",
  due_at        BIGINT,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX tasks_project_path ON tasks (project_id, path);
CREATE INDEX tasks_children ON tasks (parent_id, project_id, rank);
CREATE INDEX tasks_due ON tasks (due_at) WHERE due_at IS NOT NULL;

CREATE TABLE task_assignees (
  task_id       TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  assigned_at   BIGINT NOT NULL,
  PRIMARY KEY (task_id, user_id)
);

CREATE TABLE fields (
  id            TEXT COLLATE "C" PRIMARY KEY,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  type          TEXT COLLATE "C" NOT NULL,
  options_json  TEXT COLLATE "C",
  created_at    BIGINT NOT NULL
);
CREATE INDEX fields_project ON fields (project_id, created_at);

CREATE TABLE task_field_values (
  task_id       TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  field_id      TEXT COLLATE "C" NOT NULL REFERENCES fields(id) ON DELETE CASCADE,
  value_json    TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (task_id, field_id)
);

CREATE TABLE comments (
  id            TEXT COLLATE "C" PRIMARY KEY,
  task_id       TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  author_id     TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  text          TEXT COLLATE "C" NOT NULL,
  created_at    BIGINT NOT NULL
);
CREATE INDEX comments_task ON comments (task_id, created_at);

CREATE TABLE agents (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT COLLATE "C" NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  name          TEXT COLLATE "C" NOT NULL,
  type          TEXT COLLATE "C" NOT NULL DEFAULT 'agent',
  data_json     TEXT COLLATE "C" NOT NULL,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL
);
CREATE INDEX agents_folder ON agents (folder_id, created_at);

-- ref_id names a project or a media item (by kind), so it cannot be a foreign key: the
-- *_drop_agent_knowledge triggers below remove the links when either is deleted.
CREATE TABLE agent_knowledge (
  agent_id      TEXT COLLATE "C" NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind          TEXT COLLATE "C" NOT NULL CHECK (kind IN ('project', 'media')),
  ref_id        TEXT COLLATE "C" NOT NULL,
  added_at      BIGINT NOT NULL,
  PRIMARY KEY (agent_id, kind, ref_id)
);
CREATE INDEX agent_knowledge_ref ON agent_knowledge (kind, ref_id);

CREATE TABLE public_agents (
  id               TEXT COLLATE "C" PRIMARY KEY,
  agent_id         TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES agents(id) ON DELETE CASCADE,
  preferences_json TEXT COLLATE "C" NOT NULL,
  created_at       BIGINT NOT NULL,
  updated_at       BIGINT NOT NULL
);

CREATE TABLE conversations (
  id            TEXT COLLATE "C" PRIMARY KEY,
  agent_id      TEXT COLLATE "C" NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  title         TEXT COLLATE "C" NOT NULL,
  status        TEXT COLLATE "C" NOT NULL,
  llm_type      TEXT COLLATE "C" NOT NULL,
  llm_name      TEXT COLLATE "C" NOT NULL,
  messages_json TEXT COLLATE "C" NOT NULL,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL
);
CREATE INDEX conversations_agent ON conversations (agent_id, created_at);

CREATE TABLE media (
  id            TEXT COLLATE "C" PRIMARY KEY,
  workspace_id  TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  folder_id     TEXT COLLATE "C" NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  kind          TEXT COLLATE "C" NOT NULL,
  name          TEXT COLLATE "C" NOT NULL,
  content_type  TEXT COLLATE "C" NOT NULL,
  size_bytes    BIGINT NOT NULL,
  storage_key   TEXT COLLATE "C" NOT NULL,
  created_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  created_at    BIGINT NOT NULL
);
CREATE INDEX media_folder ON media (folder_id, created_at);
`;
