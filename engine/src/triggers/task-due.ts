import type { EventTriggerKind } from './types';

/** "Due date" (event `task.due`, raised by the service's due-date scheduler): the event payload. */
export const taskDue: EventTriggerKind = {
  variables(event) {
    return { ...event.payload };
  },
};
