/**
 * JSON schemas shared by the task route plugins (spec section 2: Task, Block, member).
 * Response schemas also make serialization fast.
 */

/** A task item: `parentId` only on subtasks. */
export const taskSchema = {
  type: 'object',
  required: ['id', 'text', 'completed'],
  properties: {
    id: { type: 'string', description: 'uuid' },
    text: { type: 'string' },
    completed: { type: 'boolean' },
    parentId: { type: 'string', description: 'uuid of the parent task; absent on top-level tasks (blocks)' },
  },
} as const;

/** A block item: a top-level task, without `parentId`. */
export const blockSchema = {
  type: 'object',
  required: ['id', 'text', 'completed'],
  properties: { id: { type: 'string' }, text: { type: 'string' }, completed: { type: 'boolean' } },
} as const;

/** A member (assignee, comment author). */
export const memberSchema = {
  type: 'object',
  required: ['handle', 'displayName'],
  properties: { handle: { type: 'string' }, displayName: { type: 'string' } },
} as const;

/** A reference to a task in a body: a uuid. */
export const taskIdSchema = { type: 'string', format: 'uuid' } as const;

/** Path parameters of a task route. */
export interface TaskParams {
  projectId: string;
  taskId: string;
}
