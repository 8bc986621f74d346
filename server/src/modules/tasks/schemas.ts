import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import {
  ItemEnvelope,
  ItemsEnvelope,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  OkOnly,
  Params,
  Responses,
  nullable,
  singleLine,
  stringEnum,
} from '../../http/schemas';
import { CURSOR_DEFAULT_LIMIT } from '../../platform/paging';
import { DATE_PATTERN, MAX_TIMEZONE_LENGTH, TIME_PATTERN, TIMEZONE_PATTERN } from './dates';
import { MAX_ASSIGNEES } from './assignees';
import { CONTENT_TYPES, MAX_CONTENT_LENGTH, MAX_NOTE_LENGTH, MAX_TASKS_PER_CREATE, NOTE_WRITE_TYPES } from './limits';
import { POSITIONS } from './tree';
import { BlockSchema, TaskSchema } from './item';

/**
 * Schemas of the task route plugins (spec section 2: Task, Block, member; section 4.1), declared
 * once with TypeBox: the routes validate, type and document with them. Response schemas also
 * make serialization fast.
 *
 * The input schemas (request bodies) are written once, with TypeBox: the routes validate and
 * document their bodies with them, the automation engine's task actions are checked against
 * them (`InputValidator` in http/validate-input.ts, from engine-host/service-adapter.ts), and
 * the domain functions take their `Static` types, trusting the shape.
 */

/** The task and block items: declared once, with their row mapper, in `item.ts`. */
export { BlockSchema, TaskSchema };

/** A member (assignee). */
export const MemberSchema = Type.Object({ handle: Type.String(), displayName: Type.String() }, { additionalProperties: false });

/** A task's note as read back: the short type name and the text. */
export const NoteSchema = Type.Object(
  { type: stringEnum(['text', 'markdown'] as const), value: Type.String() },
  { additionalProperties: false },
);

/** One side of a task date as returned: `time` absent for all day, `timezone` an IANA name. */
const DatePointSchema = Type.Object(
  { date: Type.String(), time: Type.Optional(Type.String()), timezone: Type.String() },
  { additionalProperties: false },
);

/** A task's date: either side null when missing. */
export const TaskDateSchema = Type.Object(
  { start: nullable(DatePointSchema), end: nullable(DatePointSchema) },
  { additionalProperties: false },
);

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

/**
 * Body of `PUT .../tasks/{taskId}/note`: the note's type (media type or short name) and its
 * single-line value, 1..10000 characters (spec 4.1: no CR or LF).
 */
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

/** One side of a task date as written: a calendar date, an optional time and time zone (null = absent). */
const DatePointInputSchema = nullable(
  Type.Object(
    {
      date: Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD (a real calendar date)' }),
      time: Type.Optional(
        nullable(Type.String({ pattern: TIME_PATTERN }), { description: 'HH:MM or HH:MM:SS, 24-hour; absent for all day' }),
      ),
      timezone: Type.Optional(
        nullable(Type.String({ maxLength: MAX_TIMEZONE_LENGTH, pattern: TIMEZONE_PATTERN }), {
          description: 'IANA time zone; default UTC',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

/** Body of `PUT .../tasks/{taskId}/date`: start, end or both; an absent or null side is cleared. */
export const taskDateBody = Type.Object(
  { start: Type.Optional(DatePointInputSchema), end: Type.Optional(DatePointInputSchema) },
  { additionalProperties: false },
);

/** Path of the project's task lists and task creation. */
export const projectParams = Params('projectId');
/** Path of one task. */
export const taskParams = Params('projectId', 'taskId');
/** Path of one assignee of a task. */
export const assigneeParams = Params('projectId', 'taskId', 'assigneeHandle');

/**
 * A query whose properties all have defaults or are optional: the document lists none as
 * required, while the handler's type has the defaulted ones, which the validator fills in.
 */
function defaultedQuery<P extends TProperties>(properties: P) {
  const { required: _required, ...schema } = Type.Object(properties);
  return Type.Unsafe<Static<TObject<P>>>(schema);
}

/** The cursor of a list: `limit` (default {@link CURSOR_DEFAULT_LIMIT}) and `after`/`before` task ids (spec section 4.2). */
const cursorProperties = {
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: CURSOR_DEFAULT_LIMIT }),
  after: Type.Optional(Type.String({ format: 'uuid' })),
  before: Type.Optional(Type.String({ format: 'uuid' })),
};

/** Query of the blocks list: the cursor. */
export const blocksQuery = defaultedQuery(cursorProperties);

/** ISO 8601 date (`2026-05-01`) or date-time (`2026-05-01T09:00:00Z`), for the due-date filters. */
const dateOrDateTime = () =>
  Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$' }));

/**
 * Query of the task list: the cursor plus filters, all optional and combined with AND (docs
 * "API notes", "Cursor lists"): `search` (text contains, case-insensitive), `completed`,
 * `assignee` (a handle, `@` optional), `dueBefore` (due strictly before) and `dueAfter` (due at
 * or after; a date means its midnight UTC). Tasks without a due date never match a due filter.
 */
export const taskListQuery = defaultedQuery({
  ...cursorProperties,
  search: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SEARCH_LENGTH })),
  completed: Type.Optional(Type.Boolean()),
  assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 101 })),
  dueBefore: dateOrDateTime(),
  dueAfter: dateOrDateTime(),
});

/** Responses of one task. */
export const taskResponses = Responses(ItemEnvelope(TaskSchema));
/** Responses of the task list. */
export const tasksResponses = Responses(ItemsEnvelope(TaskSchema));
/** Responses of task creation: the new tasks in request order. */
export const createdTasksResponses = Responses(ItemEnvelope(Type.Array(TaskSchema)));
/** Responses of the blocks list. */
export const blocksResponses = Responses(ItemsEnvelope(BlockSchema));
/** Responses of the assignee list. */
export const assigneesResponses = Responses(ItemsEnvelope(MemberSchema));
/** Responses of a task's note. */
export const noteResponses = Responses(ItemEnvelope(NoteSchema));
/** Responses of a task's date. */
export const dateResponses = Responses(ItemEnvelope(TaskDateSchema));
/** Responses of a deletion. */
export const okResponses = Responses(OkOnly);
