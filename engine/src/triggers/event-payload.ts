import type { EventTriggerKind } from './types';

/**
 * Event triggers whose variables are the event's payload as the service raised it (the same
 * fields as the signed-webhook event of the same name, docs "Events"):
 * - `task.completed`: projectId, nodeId, nodeText, projectTitle, projectLink, completedBy,
 *   completedAt, triggerTime, assignees, plus one key per custom field value (spec 6.2);
 * - `comment.created`: projectId, projectTitle, projectLink, nodeId, nodeText, commentId,
 *   commentText, author, createdAt;
 * - `task.due` (raised by the due-date scheduler) and `task.assigned`: the task's fields
 *   (projectId, nodeId, nodeText, …); `task.assigned` adds assignees, added and assignedBy;
 * - `project.completed`: projectId, projectTitle, projectLink, completedBy, completedAt;
 * - `project.created`: projectId, projectTitle, projectLink, folderId, createdBy;
 * - `project.assigned`: projectId, projectTitle, projectLink, folderId, handle, displayName,
 *   assignedBy; `project.joined`: the same without assignedBy.
 */
export const eventPayload: EventTriggerKind = {
  variables(event) {
    return { ...event.payload };
  },
};
