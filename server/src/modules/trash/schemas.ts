import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, PageQuerySchema, Params, Responses, nullable } from '../../http/schemas';

/** Schemas of the deleted-tasks view (docs "API", "Deleted tasks"), declared once: the routes validate, type and document with them. */

/** One entry of `GET /projects/{projectId}/trash` (see `DeletedTask` in ./service.ts). */
export const DeletedTaskSchema = Type.Object(
  {
    id: Type.String({
      description: 'The entry id: what restore takes (not a task id).',
    }),
    taskId: Type.String({
      description: 'The deleted task; a restore brings it back with this id.',
    }),
    text: Type.String(),
    parentId: nullable(Type.String(), {
      description: 'The former parent task; null for a top-level task.',
    }),
    taskCount: Type.Integer({
      description: 'Tasks in the deleted subtree, the task itself included.',
    }),
    deletedAt: Type.String({ format: 'date-time' }),
    deletedBy: nullable(Type.String(), {
      description: 'Handle of who deleted it; null once that account is gone.',
    }),
    expiresAt: nullable(Type.String({ format: 'date-time' }), {
      description: 'When it is purged; null while retention is off.',
    }),
  },
  { additionalProperties: false },
);

/** The restored task, as the task routes answer it. */
const RestoredTaskSchema = Type.Object(
  {
    id: Type.String(),
    text: Type.String(),
    completed: Type.Boolean(),
    parentId: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** Path of the list. */
export const trashParams = Params('projectId');
/** Path of one entry. */
export const entryParams = Params('projectId', 'id');
/** Query of the list: a page (default 50 entries). */
export const TrashQuery = PageQuerySchema(50);
/** Responses of the list. */
export const trashResponses = Responses(ItemsEnvelope(DeletedTaskSchema));
/** Responses of a restore: the restored task; 409 on a completed project or when a task of the subtree exists again. */
export const restoreResponses = Responses(ItemEnvelope(RestoredTaskSchema), {
  409: ErrorRef,
});
