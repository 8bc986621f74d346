/**
 * Triggers, as PL/pgSQL functions each named like its trigger: the project version bumps
 * (SQLite migration 013) and the agent knowledge cleanup (SQLite migration 006).
 * Part of PostgreSQL's frozen baseline (./postgres.ts, version 20); never edit it: installed
 * databases were made with this text.
 */
export const TRIGGERS_SQL = `
-- projects.version (SQLite migration 013): bumped whenever a task of the project is added,
-- removed, moved, renamed or (un)completed, by whatever path, so cached project data can be
-- checked against it.
CREATE FUNCTION tasks_bump_version_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET version = version + 1 WHERE id = NEW.project_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER tasks_bump_version_insert AFTER INSERT ON tasks
  FOR EACH ROW EXECUTE FUNCTION tasks_bump_version_insert();

CREATE FUNCTION tasks_bump_version_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET version = version + 1 WHERE id = OLD.project_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER tasks_bump_version_delete AFTER DELETE ON tasks
  FOR EACH ROW EXECUTE FUNCTION tasks_bump_version_delete();

-- A task moved to another project bumps both projects, once each.
CREATE FUNCTION tasks_bump_version_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projects SET version = version + 1 WHERE id IN (OLD.project_id, NEW.project_id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER tasks_bump_version_update AFTER UPDATE OF project_id, parent_id, rank, path, text, completed ON tasks
  FOR EACH ROW EXECUTE FUNCTION tasks_bump_version_update();

-- Agent knowledge links to a deleted project or media item go with it (SQLite migration 006),
-- whatever deleted it (API, folder or workspace cascade), in the same transaction.
CREATE FUNCTION projects_drop_agent_knowledge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_knowledge WHERE kind = 'project' AND ref_id = OLD.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER projects_drop_agent_knowledge AFTER DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION projects_drop_agent_knowledge();

CREATE FUNCTION media_drop_agent_knowledge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_knowledge WHERE kind = 'media' AND ref_id = OLD.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER media_drop_agent_knowledge AFTER DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION media_drop_agent_knowledge();
`;
