import type { Migration } from '../migrate';

/**
 * Agent knowledge links point at projects or media through `ref_id`, which cannot be a foreign
 * key (it names one of two tables). These triggers drop the links when a project or media item
 * is deleted, by any path (API delete, folder or workspace cascade), in the same transaction.
 * The index serves them.
 */
export const m006AgentKnowledgeCleanup: Migration = {
  version: 6,
  name: 'agent_knowledge_cleanup',
  up: `
CREATE INDEX agent_knowledge_ref ON agent_knowledge(kind, ref_id);

CREATE TRIGGER projects_drop_agent_knowledge AFTER DELETE ON projects
BEGIN
  DELETE FROM agent_knowledge WHERE kind = 'project' AND ref_id = OLD.id;
END;

CREATE TRIGGER media_drop_agent_knowledge AFTER DELETE ON media
BEGIN
  DELETE FROM agent_knowledge WHERE kind = 'media' AND ref_id = OLD.id;
END;
`,
};
