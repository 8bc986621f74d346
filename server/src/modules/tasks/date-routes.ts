import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { clearTaskDate, getTaskDate, setTaskDate } from './dates';
import { dateResponses, taskDateBody, taskParams, taskResponses } from './schemas';

const tags = ['tasks'];

/** Task date (spec section 4.1): read, set (create or replace), remove. */
export const taskDatesRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId/tasks/:taskId/date',
    {
      schema: {
        tags,
        summary: "A task's date (404 when it has none)",
        params: taskParams,
        response: dateResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getTaskDate(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put(
    '/projects/:projectId/tasks/:taskId/date',
    {
      schema: {
        tags,
        summary: "Set a task's date: start, end or both (an absent side is cleared)",
        params: taskParams,
        body: taskDateBody,
        response: taskResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.writes.run(
        (q) => setTaskDate(svc, request.actor, request.params.projectId, request.params.taskId, request.body, q),
        request.params.projectId,
      ),
    }),
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId/date',
    { schema: { tags, summary: "Remove a task's date (idempotent)", params: taskParams, response: taskResponses } },
    async (request) => ({
      ok: true,
      item: await svc.writes.run(
        (q) => clearTaskDate(svc, request.actor, request.params.projectId, request.params.taskId, q),
        request.params.projectId,
      ),
    }),
  );
};
