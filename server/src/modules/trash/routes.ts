import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { listDeletedTasks, restoreDeletedTask } from './service';
import { TrashQuery, entryParams, restoreResponses, trashParams, trashResponses } from './schemas';

/** `/api/v1/projects/{projectId}/trash`: a project's deleted tasks and their restore (docs "API", "Deleted tasks"). */
export const trashRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  const tags = ['tasks'];

  app.get(
    '/projects/:projectId/trash',
    {
      schema: {
        tags,
        summary: "A project's deleted tasks, newest first (Participant)",
        description:
          'Each task deletion is kept for TASKSPACE_TRASH_RETENTION_DAYS (default 30) with its subtasks, note, dates, assignees, field values and comments.',
        params: trashParams,
        querystring: TrashQuery,
        response: trashResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listDeletedTasks(svc, request.actor, request.params.projectId, request.query)),
    }),
  );

  app.post(
    '/projects/:projectId/trash/:id/restore',
    {
      schema: {
        tags,
        summary: 'Restore a deleted task with its subtasks (Participant)',
        description:
          'Back under its former parent if that task still exists, else at the top level; at its former position when possible. Raises task.added for each task. The entry leaves the list.',
        params: entryParams,
        response: restoreResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(restoreDeletedTask(svc, request.actor, request.params.projectId, request.params.id)),
    }),
  );
};
