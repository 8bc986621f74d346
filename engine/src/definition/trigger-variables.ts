/**
 * The variables each trigger kind gives its runs (`trigger.*`, docs "Triggers"), declared once as
 * data: the save check of templates reads them (`variables.ts`), and the docs table is tested
 * against them.
 */
import type { Trigger, TriggerType } from './types';

/** The `trigger.*` names of one trigger kind. */
export interface TriggerVariableNames {
  /** The names the trigger always or sometimes gives (optional ones included). */
  names: readonly string[];
  /**
   * True when a run may have further names not known when the automation is saved: a webhook's
   * body fields, a completed task's custom field values.
   */
  open: boolean;
}

const TASK = ['projectId', 'projectTitle', 'projectLink', 'nodeId', 'nodeText'] as const;
const PROJECT = ['projectId', 'projectTitle', 'projectLink'] as const;
const RUN_EVENT = ['automationId', 'automationName', 'runId', 'runLink'] as const;

/**
 * The variables of every trigger kind but `form` (whose variables are its fields' names, see
 * {@link triggerVariables}), as the service raises them.
 */
export const TRIGGER_VARIABLES: Readonly<Record<Exclude<TriggerType, 'form'>, TriggerVariableNames>> = {
  'task.added': { names: [...TASK, 'nodeNote', 'assignees', 'startDate', 'endDate', 'parentId', 'createdBy'], open: false },
  // Plus one key per custom field value of the task, named after the field.
  'task.completed': { names: [...TASK, 'completedBy', 'completedAt', 'triggerTime', 'assignees'], open: true },
  'task.assigned': { names: [...TASK, 'assignees', 'added', 'assignedBy'], open: false },
  'task.due': { names: [...TASK, 'nodeNote', 'parentId', 'dueAt', 'startDate', 'endDate', 'assignees', 'triggerTime'], open: false },
  'comment.created': { names: [...TASK, 'commentId', 'commentText', 'author', 'createdAt'], open: false },
  'project.created': { names: [...PROJECT, 'folderId', 'createdBy'], open: false },
  'project.completed': { names: [...PROJECT, 'completedBy', 'completedAt'], open: false },
  'project.assigned': { names: [...PROJECT, 'folderId', 'handle', 'displayName', 'assignedBy'], open: false },
  'project.joined': { names: [...PROJECT, 'folderId', 'handle', 'displayName'], open: false },
  'automation.failed': { names: [...RUN_EVENT, 'version', 'error', 'failedAt'], open: false },
  'approval.requested': { names: [...RUN_EVENT, 'stepId', 'message', 'approvers', 'decisionLink', 'timeoutAt', 'test'], open: false },
  schedule: { names: ['scheduledAt', 'firedAt'], open: false },
  // `body` is the whole body; an object body's top-level fields are variables of their own. The
  // call gives `method`, `headers` (lower-case names, credentials redacted), `query`, `rawBody`
  // (text, up to 1 MiB) and `http` (those four); see `triggers/webhook.ts`.
  webhook: { names: ['body', 'method', 'headers', 'query', 'rawBody', 'http'], open: true },
};

/** The `trigger.*` names a run of an automation with `trigger` has: the declared ones, or a form's field names. */
export function triggerVariables(trigger: Trigger): TriggerVariableNames {
  if (trigger.type === 'form') return { names: trigger.fields.map((f) => f.name), open: false };
  return TRIGGER_VARIABLES[trigger.type] ?? { names: [], open: true };
}
