import type { EventTriggerKind } from './types';

/** "Project completed" (event `project.completed`): projectId, projectTitle, projectLink, completedBy, completedAt. */
export const projectCompleted: EventTriggerKind = {
  variables(event) {
    return { ...event.payload };
  },
};
