import type { EventTriggerKind } from './types';

/**
 * "Task completed" (event `task.completed`): projectId, nodeId, nodeText, projectTitle,
 * projectLink, completedBy, completedAt, triggerTime, assignees (spec section 6.2) plus one key
 * per custom field value of the task, named after the field — the event payload as raised.
 */
export const taskCompleted: EventTriggerKind = {
  variables(event) {
    return { ...event.payload };
  },
};
