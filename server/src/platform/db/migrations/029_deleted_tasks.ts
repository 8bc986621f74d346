import type { PairedMigration } from '../migrate';

/**
 * The deleted-tasks view (docs "API", "Deleted tasks"; issue 29): each task deletion keeps the
 * deleted subtree, restorable for `TASKSPACE_TRASH_RETENTION_DAYS` (modules/trash). One row per
 * deletion: the subtree's root task id, its former parent (null for a block) and rank, its text
 * and task count (what the list shows), who deleted it (null once that account is gone) and when
 * (ms epoch), and `subtree_json`, every task of the subtree with its note, dates, assignees, field
 * values, comments and due-trigger marks (modules/tasks/trash-capture.ts `DeletedSubtree`). Removed with
 * the project.
 */
export const m029DeletedTasks: PairedMigration = {
  version: 29,
  name: 'deleted_tasks',
  up: {
    sqlite: `
CREATE TABLE deleted_tasks (
  id            TEXT PRIMARY KEY,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  task_id       TEXT NOT NULL,
  parent_id     TEXT,
  rank          TEXT NOT NULL,
  text          TEXT NOT NULL,
  task_count    INTEGER NOT NULL,
  subtree_json  TEXT NOT NULL,
  deleted_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  deleted_at    INTEGER NOT NULL
);
CREATE INDEX deleted_tasks_project ON deleted_tasks(project_id, deleted_at);
CREATE INDEX deleted_tasks_deleted_at ON deleted_tasks(deleted_at);`,
    postgres: `
CREATE TABLE deleted_tasks (
  id            TEXT COLLATE "C" PRIMARY KEY,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  task_id       TEXT COLLATE "C" NOT NULL,
  parent_id     TEXT COLLATE "C",
  rank          TEXT COLLATE "C" NOT NULL,
  text          TEXT COLLATE "C" NOT NULL,
  task_count    BIGINT NOT NULL,
  subtree_json  TEXT COLLATE "C" NOT NULL,
  deleted_by    TEXT COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  deleted_at    BIGINT NOT NULL
);
CREATE INDEX deleted_tasks_project ON deleted_tasks (project_id, deleted_at);
CREATE INDEX deleted_tasks_deleted_at ON deleted_tasks (deleted_at);`,
  },
};
