import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteNote, getNote, setNote } from './notes';
import { noteResponses, okResponses, taskNoteBody, taskParams } from './schemas';

const tags = ['tasks'];

/** Task note (spec section 4.1): read, create or replace, remove. */
export const taskNotesRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId/tasks/:taskId/note',
    { schema: { tags, summary: "A task's note (404 when it has none)", params: taskParams, response: noteResponses } },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getNote(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put(
    '/projects/:projectId/tasks/:taskId/note',
    {
      schema: {
        tags,
        summary: "Create or replace a task's note",
        params: taskParams,
        body: taskNoteBody,
        response: noteResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.writes.run(
        (q) => setNote(svc, request.actor, request.params.projectId, request.params.taskId, request.body, q),
        request.params.projectId,
      ),
    }),
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId/note',
    { schema: { tags, summary: "Remove a task's note (idempotent)", params: taskParams, response: okResponses } },
    async (request) => {
      await svc.writes.run(
        (q) => deleteNote(svc, request.actor, request.params.projectId, request.params.taskId, q),
        request.params.projectId,
      );
      return { ok: true };
    },
  );
};
