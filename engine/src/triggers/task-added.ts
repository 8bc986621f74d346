import type { EventTriggerKind } from './types';

/**
 * The variables of "Task added": the field names of spec section 6.2 plus `parentId` (a subtask's
 * parent) and `createdBy` (the creator's handle); optional ones only when set.
 */
export const TASK_ADDED_FIELDS = [
  'projectId',
  'nodeId',
  'nodeText',
  'projectTitle',
  'nodeNote',
  'projectLink',
  'assignees',
  'startDate',
  'endDate',
  'parentId',
  'createdBy',
] as const;

/** "Task added" (event `task.added`). */
export const taskAdded: EventTriggerKind = {
  variables(event) {
    const out: Record<string, unknown> = {};
    for (const key of TASK_ADDED_FIELDS) if (event.payload[key] !== undefined) out[key] = event.payload[key];
    return out;
  },
};
