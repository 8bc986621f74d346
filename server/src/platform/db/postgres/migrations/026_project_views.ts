import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 026 (../../migrations/026_project_views.ts): when each person last opened each project. */
export const m026ProjectViews: Migration = {
  version: 26,
  name: 'project_views',
  up: `
CREATE TABLE project_views (
  user_id       TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id    TEXT COLLATE "C" NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  viewed_at     BIGINT NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
CREATE INDEX project_views_project ON project_views (project_id);`,
};
