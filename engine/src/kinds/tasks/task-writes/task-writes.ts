/**
 * The task writes: create, update text, complete, uncomplete, delete, assign, set date, set note,
 * set a custom field, move. Each renders its templates and calls the matching {@link Service}
 * method (`task.ts`), which runs the same logic as the API; the API-shaped result is the
 * step's output.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TASK_ACTIONS } from './task';
import { defineAction, type ActionOf } from '../../kind';
import { Ref, Scalar, Template } from '../../parts';
import { TaskOutput } from '../../outputs';

export type { ActionOf } from '../../kind';

/** Task placement relative to a reference task (the four DOM insertion positions). */
export type Position = 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';
const POSITIONS: Position[] = ['beforebegin', 'afterbegin', 'beforeend', 'afterend'];

const project = () => Ref('project', { title: 'Project' });
const task = (title = 'Task') => Ref('task', { title });
const ref = { projectId: project(), taskId: task() };

const createParams = Type.Object({
  projectId: project(),
  text: Template({ title: 'Text', description: 'The task text (markdown).' }),
  referenceTaskId: Type.Optional(task('Next to task')),
  placement: Type.Optional(
    Template({
      title: 'Placement',
      description: `Where, relative to the reference task: ${POSITIONS.join(', ')}.`,
      examples: ['beforeend'],
    }),
  ),
});
const updateParams = Type.Object({ ...ref, text: Template({ title: 'Text' }) });
const refParams = Type.Object(ref);
const assignParams = Type.Object({
  ...ref,
  handles: Type.Union(
    [Template({ title: 'Handles' }), Type.Array(Template({ title: 'Handle', 'x-picker': 'member' }), { maxItems: 100, title: 'Handles' })],
    {
      title: 'Assignees',
      description: 'Handles; replaces the assignees. One template may also yield a list of handles.',
    },
  ),
});
const datePoint = (title: string) =>
  Type.Object(
    {
      date: Template({ title: 'Date', description: 'YYYY-MM-DD', examples: ['2026-01-31'] }),
      time: Type.Optional(Template({ title: 'Time', description: 'HH:MM', examples: ['09:30'] })),
      timezone: Type.Optional(Template({ title: 'Time zone', 'x-editor': 'timezone' })),
    },
    { additionalProperties: false, title },
  );
const dateParams = Type.Object({ ...ref, start: Type.Optional(datePoint('Start')), end: Type.Optional(datePoint('End')) });
const noteParams = Type.Object({
  ...ref,
  value: Template({ title: 'Note' }),
  noteType: Type.Optional(Template({ title: 'Note type', default: 'text/plain', examples: ['text/markdown'] })),
});
const fieldParams = Type.Object({ ...ref, fieldId: Ref('field', { title: 'Field' }), value: Scalar({ title: 'Value' }) });
const moveParams = Type.Object({
  ...ref,
  targetTaskId: task('Target task'),
  position: Template({ title: 'Position', description: `Relative to the target: ${POSITIONS.join(', ')}.`, examples: ['afterend'] }),
});

/** Creates a task (all strings are templates). Without `referenceTaskId` it is appended to the project. */
export type CreateTaskAction = ActionOf<'task.create', typeof createParams>;
/** Replaces a task's text. */
export type UpdateTaskAction = ActionOf<'task.update', typeof updateParams>;
/** Completes, uncompletes or deletes a task. */
export type TaskRefAction = ActionOf<'task.complete' | 'task.uncomplete' | 'task.delete', typeof refParams>;
/** Sets a task's assignees (same semantics as `PUT .../assignees`). */
export type AssignTaskAction = ActionOf<'task.assign', typeof assignParams>;
/** One end of a task date. */
export type DatePoint = Static<ReturnType<typeof datePoint>>;
/** Sets a task's date (same semantics as `PUT .../date`: a side not given is cleared; at least one side). */
export type SetDateAction = ActionOf<'task.setDate', typeof dateParams>;
/** Sets a task's note (`noteType` default `text/plain`). */
export type SetNoteAction = ActionOf<'task.setNote', typeof noteParams>;
/** Sets a custom field value of a task (`value`: a template, or a literal number or boolean). */
export type SetFieldAction = ActionOf<'task.setField', typeof fieldParams>;
/** Moves a task relative to a target task. */
export type MoveTaskAction = ActionOf<'task.move', typeof moveParams>;
/** Every task write. */
export type TaskAction =
  | CreateTaskAction
  | UpdateTaskAction
  | TaskRefAction
  | AssignTaskAction
  | SetDateAction
  | SetNoteAction
  | SetFieldAction
  | MoveTaskAction;

const work = { category: 'Tasks', sideEffects: true, timeout: true } as const;

/** The task write kinds. */
export const TASK_WRITE_KINDS = [
  defineAction({
    ...work,
    type: 'task.create',
    title: 'Create a task',
    summary: 'Adds a task to a project, optionally next to another task.',
    icon: 'list-plus',
    parameters: createParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.create'],
  }),
  defineAction({
    ...work,
    type: 'task.update',
    title: 'Update a task',
    summary: "Replaces a task's text.",
    icon: 'pencil',
    parameters: updateParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.update'],
  }),
  defineAction({
    ...work,
    type: 'task.complete',
    title: 'Complete a task',
    summary: 'Marks a task done.',
    icon: 'circle-check',
    parameters: refParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.complete'],
  }),
  defineAction({
    ...work,
    type: 'task.uncomplete',
    title: 'Reopen a task',
    summary: 'Marks a done task not done.',
    icon: 'circle',
    parameters: refParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.uncomplete'],
  }),
  defineAction({
    ...work,
    type: 'task.delete',
    title: 'Delete a task',
    summary: 'Deletes a task and its subtasks.',
    icon: 'trash-2',
    parameters: refParams,
    executor: TASK_ACTIONS['task.delete'],
  }),
  defineAction({
    ...work,
    type: 'task.assign',
    title: 'Assign a task',
    summary: "Sets a task's assignees.",
    icon: 'user-plus',
    parameters: assignParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.assign'],
  }),
  defineAction({
    ...work,
    type: 'task.setDate',
    title: 'Set task dates',
    summary: "Sets a task's start and end; a side not given is cleared.",
    icon: 'calendar',
    parameters: dateParams,
    constraints: { anyOf: [{ required: ['start'] }, { required: ['end'] }] },
    output: TaskOutput,
    executor: TASK_ACTIONS['task.setDate'],
  }),
  defineAction({
    ...work,
    type: 'task.setNote',
    title: 'Set task note',
    summary: "Replaces a task's note.",
    icon: 'sticky-note',
    parameters: noteParams,
    executor: TASK_ACTIONS['task.setNote'],
  }),
  defineAction({
    ...work,
    type: 'task.setField',
    title: 'Set a field',
    summary: "Sets a task's custom field value.",
    icon: 'tag',
    parameters: fieldParams,
    executor: TASK_ACTIONS['task.setField'],
  }),
  defineAction({
    ...work,
    type: 'task.move',
    title: 'Move a task',
    summary: 'Moves a task before, after or under another.',
    icon: 'move',
    parameters: moveParams,
    output: TaskOutput,
    executor: TASK_ACTIONS['task.move'],
  }),
] as const;

declare module '../../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    taskWrites: TaskAction;
  }
}
