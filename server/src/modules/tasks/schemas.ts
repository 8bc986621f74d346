import { Type, type Static } from '@sinclair/typebox';
import { nullable, singleLine, stringEnum } from '../../http/schemas';
import { MAX_ASSIGNEES } from './assignees';
import { MAX_NOTE_LENGTH, NOTE_WRITE_TYPES } from './notes';
import { CONTENT_TYPES, MAX_CONTENT_LENGTH, MAX_TASKS_PER_CREATE } from './service';
import { POSITIONS } from './tree';

/**
 * JSON schemas shared by the task route plugins (spec section 2: Task, Block, member).
 * Response schemas also make serialization fast.
 *
 * The input schemas (request bodies) are written once, with TypeBox: the routes validate and
 * document their bodies with them, the automation engine's task actions are checked against
 * them (`InputValidator` in http/validate-input.ts, from automations/service-adapter.ts), and
 * the domain functions take their `Static` types, trusting the shape.
 */

/** A task item: `parentId` only on subtasks. */
export const taskSchema = {
  type: 'object',
  required: ['id', 'text', 'completed'],
  properties: {
    id: { type: 'string', description: 'uuid' },
    text: { type: 'string' },
    completed: { type: 'boolean' },
    parentId: { type: 'string', description: 'uuid of the parent task; absent on top-level tasks (blocks)' },
  },
} as const;

/** A block item: a top-level task, without `parentId`. */
export const blockSchema = {
  type: 'object',
  required: ['id', 'text', 'completed'],
  properties: { id: { type: 'string' }, text: { type: 'string' }, completed: { type: 'boolean' } },
} as const;

/** A member (assignee, comment author). */
export const memberSchema = {
  type: 'object',
  required: ['handle', 'displayName'],
  properties: { handle: { type: 'string' }, displayName: { type: 'string' } },
} as const;

/** A reference to a task in a body: a uuid. */
export const taskIdSchema = Type.String({ format: 'uuid' });

/** The content fields of a task: `contentType` and single-line `content`. */
const contentProperties = {
  contentType: stringEnum(CONTENT_TYPES),
  content: singleLine(MAX_CONTENT_LENGTH),
};

/** Body of `PUT .../tasks/{taskId}`: the task's new content. */
export const updateTaskBody = Type.Object(contentProperties, { additionalProperties: false });

/** The content of a task, as created or updated (content: 1..2000 characters, no CR or LF). */
export type TaskContent = Static<typeof updateTaskBody>;

/** Body of `POST .../tasks/`: 1..{@link MAX_TASKS_PER_CREATE} tasks, each placed relative to an optional reference. */
export const createTasksBody = Type.Object(
  {
    tasks: Type.Array(
      Type.Object(
        {
          ...contentProperties,
          taskId: Type.Optional(
            nullable(taskIdSchema, { description: 'Reference task; absent, null or the string "null" appends at the end of the project' }),
          ),
          placement: Type.Optional(stringEnum(POSITIONS, { description: 'Position relative to taskId; default afterend' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_TASKS_PER_CREATE },
    ),
  },
  { additionalProperties: false },
);

/**
 * One task of a create request: its content, the reference task (uuid; absent or null: append
 * at the end of the project as a block) and where to put it relative to the reference (default
 * `afterend`; ignored without a reference).
 */
export type NewTask = Static<typeof createTasksBody>['tasks'][number];

/** Body of `PUT .../tasks/{taskId}/move`: the target task and the position relative to it. */
export const moveTaskBody = Type.Object(
  {
    target: Type.Object({ taskId: taskIdSchema, position: stringEnum(POSITIONS) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** Where a task moves: `position` relative to the task `taskId`. */
export type MoveTarget = Static<typeof moveTaskBody>['target'];

/** Body of `PUT .../tasks/{taskId}/note`: the note's type (media type or short name) and single-line value. */
export const taskNoteBody = Type.Object(
  { type: stringEnum(NOTE_WRITE_TYPES), value: singleLine(MAX_NOTE_LENGTH) },
  { additionalProperties: false },
);

/** A note as written. */
export type NoteInput = Static<typeof taskNoteBody>;

/** Body of `PUT .../tasks/{taskId}/assignees`: the handles of the new assignees, at most {@link MAX_ASSIGNEES}. */
export const assigneesBody = Type.Object(
  { handles: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_ASSIGNEES }) },
  { additionalProperties: false },
);

/** Path parameters of a task route. */
export interface TaskParams {
  projectId: string;
  taskId: string;
}
