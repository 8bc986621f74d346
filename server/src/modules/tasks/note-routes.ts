import type { FastifyPluginAsync } from 'fastify';
import { deleteNote, getNote, setNote } from './notes';
import { itemEnvelope, okOnly, params, responses } from '../../http/schemas';
import { taskNoteBody, type NoteInput, type TaskParams } from './schemas';

const tags = ['tasks'];

const noteSchema = {
  type: 'object',
  required: ['type', 'value'],
  properties: { type: { type: 'string', enum: ['text', 'markdown'] }, value: { type: 'string' } },
} as const;

/** Task note (spec section 4.1): read, create or replace, remove. */
export const taskNotesRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const taskParams = params('projectId', 'taskId');

  app.get<{ Params: TaskParams }>(
    '/projects/:projectId/tasks/:taskId/note',
    {
      schema: { tags, summary: "A task's note (404 when it has none)", params: taskParams, response: responses(itemEnvelope(noteSchema)) },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getNote(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put<{ Params: TaskParams; Body: NoteInput }>(
    '/projects/:projectId/tasks/:taskId/note',
    {
      schema: {
        tags,
        summary: "Create or replace a task's note",
        params: taskParams,
        body: taskNoteBody,
        response: responses(itemEnvelope(noteSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(setNote(svc, request.actor, request.params.projectId, request.params.taskId, request.body)),
    }),
  );

  app.delete<{ Params: TaskParams }>(
    '/projects/:projectId/tasks/:taskId/note',
    { schema: { tags, summary: "Remove a task's note (idempotent)", params: taskParams, response: responses(okOnly) } },
    async (request) => {
      await svc.store.run(deleteNote(svc, request.actor, request.params.projectId, request.params.taskId));
      return { ok: true };
    },
  );
};
