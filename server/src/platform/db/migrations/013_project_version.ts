import type { Migration } from '../migrate';

/**
 * `projects.version`: a change counter kept by the database itself. Triggers bump it whenever a
 * task of the project is added, removed, moved, renamed or (un)completed, whatever code path or
 * process made the change, so a cache of project data (the task list pages, modules/tasks/service.ts) is
 * correct when it compares the version it was filled at with the stored one.
 */
export const m013ProjectVersion: Migration = {
  version: 13,
  name: 'project_version',
  up: `
ALTER TABLE projects ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER tasks_bump_version_insert AFTER INSERT ON tasks BEGIN
  UPDATE projects SET version = version + 1 WHERE id = NEW.project_id;
END;
CREATE TRIGGER tasks_bump_version_delete AFTER DELETE ON tasks BEGIN
  UPDATE projects SET version = version + 1 WHERE id = OLD.project_id;
END;
CREATE TRIGGER tasks_bump_version_update AFTER UPDATE OF project_id, parent_id, rank, path, text, completed ON tasks BEGIN
  UPDATE projects SET version = version + 1 WHERE id IN (OLD.project_id, NEW.project_id);
END;
`,
};
