import type { FastifyPluginAsync } from 'fastify';
import { listAssignees, removeAssignee, setAssignees } from './assignees';
import { itemEnvelope, itemsEnvelope, params, responses } from '../../http/schemas';
import { assigneesBody, memberSchema, taskSchema, type TaskParams } from './schemas';

const tags = ['tasks'];

/** Task assignees (spec section 4.1): list, replace the set, remove one. */
export const taskAssigneesRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.get<{ Params: TaskParams }>(
    '/projects/:projectId/tasks/:taskId/assignees',
    {
      schema: {
        tags,
        summary: "A task's assignees",
        params: params('projectId', 'taskId'),
        response: responses(itemsEnvelope(memberSchema)),
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listAssignees(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put<{ Params: TaskParams; Body: { handles: string[] } }>(
    '/projects/:projectId/tasks/:taskId/assignees',
    {
      schema: {
        tags,
        summary: "Replace a task's assignees (members of the project's workspace)",
        params: params('projectId', 'taskId'),
        body: assigneesBody,
        response: responses(itemEnvelope(taskSchema)),
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

  app.delete<{ Params: TaskParams & { assigneeHandle: string } }>(
    '/projects/:projectId/tasks/:taskId/assignees/:assigneeHandle',
    {
      schema: {
        tags,
        summary: 'Remove one assignee (idempotent)',
        params: params('projectId', 'taskId', 'assigneeHandle'),
        response: responses(itemEnvelope(taskSchema)),
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
