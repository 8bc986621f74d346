import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { listAssignees, removeAssignee, setAssignees } from './assignees';
import { assigneeParams, assigneesBody, assigneesResponses, taskParams, taskResponses } from './schemas';

const tags = ['tasks'];

/** Task assignees (spec section 4.1): list, replace the set, remove one. */
export const taskAssigneesRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId/tasks/:taskId/assignees',
    {
      schema: { tags, summary: "A task's assignees", params: taskParams, response: assigneesResponses },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listAssignees(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put(
    '/projects/:projectId/tasks/:taskId/assignees',
    {
      schema: {
        tags,
        summary: "Replace a task's assignees (members of the project's workspace)",
        params: taskParams,
        body: assigneesBody,
        response: taskResponses,
      },
    },
    async (request) => ({
      ok: true,
      // In the project's write lane, as every task write (PostgreSQL: takes its turn with the
      // project's other writes over every process instead of colliding with them).
      item: await svc.writes.run(
        (q) => setAssignees(svc, request.actor, request.params.projectId, request.params.taskId, request.body.handles, q),
        request.params.projectId,
      ),
    }),
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId/assignees/:assigneeHandle',
    {
      schema: {
        tags,
        summary: 'Remove one assignee (idempotent)',
        params: assigneeParams,
        response: taskResponses,
      },
    },
    async (request) => {
      const { projectId, taskId, assigneeHandle } = request.params;
      return {
        ok: true,
        item: await svc.writes.run((q) => removeAssignee(svc, request.actor, projectId, taskId, assigneeHandle, q), projectId),
      };
    },
  );
};
