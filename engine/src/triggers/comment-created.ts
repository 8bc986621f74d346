import type { EventTriggerKind } from './types';

/**
 * "New comment" (event `comment.created`): projectId, projectTitle, projectLink, nodeId,
 * nodeText, commentId, commentText, author, createdAt.
 */
export const commentCreated: EventTriggerKind = {
  variables(event) {
    return { ...event.payload };
  },
};
