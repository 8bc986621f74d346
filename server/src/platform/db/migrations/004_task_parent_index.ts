import type { Migration } from '../migrate';

/**
 * An index on `tasks(parent_id)`. SQLite looks children up by `parent_id` for the
 * `ON DELETE CASCADE` of every deleted task; without this index each deleted task (and each
 * task removed by a project delete) scans the whole tasks table.
 */
export const m004TaskParentIndex: Migration = {
  version: 4,
  name: 'task_parent_index',
  up: `CREATE INDEX tasks_parent ON tasks(parent_id);`,
};
