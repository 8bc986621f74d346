import type { Migration } from '../migrate';

/**
 * One index for a task's children where there were two: `tasks_siblings (project_id, parent_id,
 * rank)` served sibling order and the blocks list, `tasks_parent (parent_id)` served the
 * `ON DELETE CASCADE` lookups of a deleted task's children. `tasks_children (parent_id,
 * project_id, rank)` serves all three: children of a task by parent id, in rank order; top-level
 * blocks of a project as the `parent_id IS NULL` range of that project, in rank order; cascades by
 * its first column. Every task create writes one index entry fewer, and each task takes one
 * index's worth less space (docs "Operations", "Cost as a project grows").
 */
export const m019TaskChildrenIndex: Migration = {
  version: 19,
  name: 'task_children_index',
  up: `
DROP INDEX tasks_siblings;
DROP INDEX tasks_parent;
CREATE INDEX tasks_children ON tasks(parent_id, project_id, rank);
`,
};
