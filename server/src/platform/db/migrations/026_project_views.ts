import type { PairedMigration } from '../migrate';

/**
 * When each person last opened each project (`GET /api/v1/projects/{id}`), for the
 * `viewed-asc`/`viewed-desc` orders of `GET /api/v1/me/projects` (docs "API notes"). One row per
 * person and project, overwritten on every view; removed with the project or the account.
 */
export const m026ProjectViews: PairedMigration = {
  version: 26,
  name: 'project_views',
  up: {
    sqlite: `
CREATE TABLE project_views (
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  viewed_at     INTEGER NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
CREATE INDEX project_views_project ON project_views(project_id);`,
    postgres: `
CREATE TABLE project_views (
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  viewed_at     BIGINT NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
CREATE INDEX project_views_project ON project_views (project_id);`,
  },
};
