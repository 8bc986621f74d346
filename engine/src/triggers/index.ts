/**
 * Trigger kinds. Event triggers (task added, completed or assigned, new comment, due date,
 * project created, completed, assigned or joined) match service events; schedule triggers fire from `Engine.tick`; webhook triggers
 * start through `Engine.startRun` when the automation's inbound URL is called.
 */
import {
  RUN_EVENT_TRIGGER_TYPES,
  type AutomationFailedTrigger,
  type EventTrigger,
  type EventTriggerType,
  type Trigger,
} from '../definition';
import type { Service } from '../ports';
import { eventPayload } from './event-payload';
import { taskAdded } from './task-added';
import type { EventTriggerKind, TriggerEvent } from './types';

export type { TriggerEvent, EventTriggerKind } from './types';
export { TASK_ADDED_FIELDS } from './task-added';
export { dueSlot, nextSlot, scheduleVariables } from './schedule';
export { webhookVariables, type WebhookRequest } from './webhook';

/** Event trigger kinds by event type. */
export const EVENT_TRIGGERS: Record<EventTriggerType, EventTriggerKind> = {
  'task.added': taskAdded,
  'task.completed': eventPayload,
  'comment.created': eventPayload,
  'task.due': eventPayload,
  'task.assigned': eventPayload,
  'project.completed': eventPayload,
  'project.created': eventPayload,
  'project.assigned': eventPayload,
  'project.joined': eventPayload,
};

/**
 * The run variables when `trigger` matches `event`, or undefined when it does not (other type,
 * or outside the trigger's project/folder scope). Folder scope asks the service for the
 * project's folder chain, so a folder also covers its subfolders.
 */
export async function matchEvent(trigger: Trigger, event: TriggerEvent, service: Service): Promise<Record<string, unknown> | undefined> {
  if (trigger.type !== event.type) return undefined;
  if ((RUN_EVENT_TRIGGER_TYPES as readonly string[]).includes(trigger.type)) {
    const only = (trigger as AutomationFailedTrigger).automationId;
    return only === undefined || only === event.payload.automationId ? { ...event.payload } : undefined;
  }
  const kind = EVENT_TRIGGERS[trigger.type as EventTriggerType];
  if (!kind) return undefined;
  const scope = (trigger as EventTrigger).scope;
  const projectId = typeof event.payload.projectId === 'string' ? event.payload.projectId : undefined;
  if (scope?.projectId !== undefined && scope.projectId !== projectId) return undefined;
  if (scope?.folderId !== undefined) {
    if (!projectId) return undefined;
    const folders = await service.projectFolders(event.workspaceId, projectId);
    if (!folders.includes(scope.folderId)) return undefined;
  }
  return kind.variables(event, trigger);
}
