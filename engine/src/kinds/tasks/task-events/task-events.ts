/**
 * Triggers on task events of the service (the outbox, spec section 6.2; docs "Triggers"): task
 * added, completed, assigned, updated, deleted, due, commented, and a custom field changed. Each
 * takes `scope` (one project or folder), `filter` and `includeOwnChanges` (default false: an event
 * caused by this automation's own run starts no run).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { EventTriggerOf } from '../../../definition/types';
import { defineTrigger } from '../../kind';
import { Scope } from '../../parts';
import { EXAMPLE_IDS, EXAMPLE_TIME, PROJECT_EXAMPLE } from '../../examples';

/** The variables every task event gives. */
export const TASK_VARIABLES = ['projectId', 'projectTitle', 'projectLink', 'nodeId', 'nodeText'] as const;

/**
 * The variables of "Task added": the field names of spec section 6.2 plus `parentId` (a subtask's
 * parent) and `createdBy` (the creator's handle); optional ones only when set.
 */
export const TASK_ADDED_FIELDS = [...TASK_VARIABLES, 'nodeNote', 'assignees', 'startDate', 'endDate', 'parentId', 'createdBy'] as const;

const scoped = () => Type.Object({ scope: Type.Optional(Scope()) });

const AT = EXAMPLE_TIME;
/** The variables every task event's example has ({@link TASK_VARIABLES}). */
const TASK_EXAMPLE = { ...PROJECT_EXAMPLE, nodeId: EXAMPLE_IDS.nodeId, nodeText: 'Write the announcement' };
const task = { category: 'Tasks', source: 'event', ownChanges: true, sideEffects: false } as const;
const TaskOutput = (extra: Record<string, TSchema>) =>
  Type.Object({ ...Object.fromEntries(TASK_VARIABLES.map((n) => [n, Type.String()])), ...extra }, { title: 'Trigger variables' });

/** The task-event trigger kinds. */
export const TASK_EVENT_KINDS = [
  defineTrigger({
    ...task,
    type: 'task.added',
    title: 'Task added',
    summary: 'When a task is created.',
    icon: 'list-plus',
    parameters: scoped(),
    variables: { names: TASK_ADDED_FIELDS, open: false },
    example: { ...TASK_EXAMPLE, assignees: [{ handle: EXAMPLE_IDS.handle }], createdBy: EXAMPLE_IDS.handle },
    match(event) {
      const out: Record<string, unknown> = {};
      for (const key of TASK_ADDED_FIELDS) if (event.payload[key] !== undefined) out[key] = event.payload[key];
      return out;
    },
  }),
  defineTrigger({
    ...task,
    type: 'task.completed',
    title: 'Task completed',
    summary: 'When a task is marked done.',
    icon: 'circle-check',
    parameters: scoped(),
    // Plus one key per custom field value of the task, named after the field.
    variables: { names: [...TASK_VARIABLES, 'completedBy', 'completedAt', 'triggerTime', 'assignees'], open: true },
    example: {
      ...TASK_EXAMPLE,
      completedBy: EXAMPLE_IDS.handle,
      completedAt: AT,
      triggerTime: AT,
      assignees: [{ handle: EXAMPLE_IDS.handle }],
    },
  }),
  defineTrigger({
    ...task,
    type: 'task.assigned',
    title: 'Task assigned',
    summary: 'When someone is assigned to a task.',
    icon: 'user-plus',
    parameters: scoped(),
    variables: { names: [...TASK_VARIABLES, 'assignees', 'added', 'assignedBy'], open: false },
    example: {
      ...TASK_EXAMPLE,
      assignees: [{ handle: EXAMPLE_IDS.handle, displayName: 'Example Member' }],
      added: [{ handle: EXAMPLE_IDS.handle }],
      assignedBy: EXAMPLE_IDS.handle,
    },
  }),
  defineTrigger({
    ...task,
    type: 'task.updated',
    title: 'Task updated',
    summary: "When a task's text, note or dates change.",
    icon: 'pencil',
    parameters: scoped(),
    variables: {
      names: [...TASK_VARIABLES, 'nodeNote', 'startDate', 'endDate', 'assignees', 'parentId', 'updatedBy', 'changed', 'changes'],
      open: false,
    },
    example: {
      ...TASK_EXAMPLE,
      nodeNote: null,
      startDate: null,
      endDate: null,
      assignees: [{ handle: EXAMPLE_IDS.handle }],
      parentId: null,
      updatedBy: EXAMPLE_IDS.handle,
      changed: ['text'],
      changes: { text: { from: 'Write the first draft', to: 'Write the announcement' } },
    },
    output: TaskOutput({
      changed: Type.Array(Type.String(), { description: 'Among text, note, startDate, endDate.' }),
      changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
      updatedBy: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
  defineTrigger({
    ...task,
    type: 'task.deleted',
    title: 'Task deleted',
    summary: 'When a task is deleted (once per task of a deleted subtree).',
    icon: 'trash-2',
    parameters: scoped(),
    variables: { names: [...TASK_VARIABLES, 'parentId', 'deletedBy', 'deletedAt'], open: false },
    example: { ...TASK_EXAMPLE, parentId: null, deletedBy: EXAMPLE_IDS.handle, deletedAt: AT },
  }),
  defineTrigger({
    ...task,
    type: 'task.due',
    title: 'Task due',
    summary: "When a task's due time comes.",
    icon: 'alarm-clock',
    parameters: scoped(),
    variables: {
      names: [...TASK_VARIABLES, 'nodeNote', 'parentId', 'dueAt', 'startDate', 'endDate', 'assignees', 'triggerTime'],
      open: false,
    },
    example: { ...TASK_EXAMPLE, dueAt: AT, endDate: '2026-01-15', assignees: [{ handle: EXAMPLE_IDS.handle }], triggerTime: AT },
  }),
  defineTrigger({
    ...task,
    type: 'comment.created',
    title: 'Comment added',
    summary: 'When someone comments on a task.',
    icon: 'message-square',
    parameters: scoped(),
    variables: { names: [...TASK_VARIABLES, 'commentId', 'commentText', 'author', 'createdAt'], open: false },
    example: { ...TASK_EXAMPLE, commentId: 'example-comment', commentText: 'Looks good to me', author: EXAMPLE_IDS.handle, createdAt: AT },
  }),
  defineTrigger({
    ...task,
    type: 'field.changed',
    title: 'Field changed',
    summary: "When a task's custom field value changes.",
    icon: 'tag',
    parameters: Type.Object({
      scope: Type.Optional(Scope()),
      field: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          title: 'Field',
          description: 'A field name or id: only changes of that field start runs. Absent: every field.',
          'x-picker': 'field',
        }),
      ),
    }),
    variables: { names: [...TASK_VARIABLES, 'fieldId', 'fieldName', 'from', 'to', 'changedBy'], open: false },
    example: { ...TASK_EXAMPLE, fieldId: 'example-field', fieldName: 'Stage', from: null, to: 'Review', changedBy: EXAMPLE_IDS.handle },
    match(event, trigger) {
      const field = trigger.field as string | undefined;
      const { fieldId, fieldName } = event.payload;
      if (field !== undefined && field !== fieldId && (typeof fieldName !== 'string' || fieldName.toLowerCase() !== field.toLowerCase()))
        return undefined;
      return { ...event.payload };
    },
  }),
] as const;

/** A task event trigger's type (`task.created`, …). */
export type TaskEventType = (typeof TASK_EVENT_KINDS)[number]['type'];

declare module '../../../definition/types' {
  /** The task event triggers (see {@link TriggerTypes}). */
  interface TriggerTypes {
    taskEvents: EventTriggerOf<TaskEventType>;
  }
}
