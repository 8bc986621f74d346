import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteTask, getTask, listBlocks, listTasks, moveTask, setTaskCompleted, updateTask } from './service';
import { queueCreateTasks } from './create';
import {
  blocksQuery,
  blocksResponses,
  createTasksBody,
  createdTasksResponses,
  moveTaskBody,
  okResponses,
  projectParams,
  taskListQuery,
  taskParams,
  taskResponses,
  tasksResponses,
  updateTaskBody,
} from './schemas';

const tags = ['tasks'];

/**
 * Clients generated from the real service's API document send `taskId: "null"` (the string) to
 * mean the project root; it is treated like an absent `taskId` (README "Tasks").
 */
async function rootReferenceAsAbsent(request: FastifyRequest): Promise<void> {
  const tasks = (request.body as { tasks?: unknown } | undefined)?.tasks;
  if (!Array.isArray(tasks)) return;
  for (const task of tasks) {
    if (task && typeof task === 'object' && (task as { taskId?: unknown }).taskId === 'null') delete (task as { taskId?: unknown }).taskId;
  }
}

/**
 * Tasks (spec section 4.1) and a project's cursor lists of blocks and tasks (section 4.2),
 * plus the task add-on plugins: assignees, date, note and comments. Task writes (create, update,
 * complete, move, delete) go through the group commit (`svc.writes`): on SQLite concurrent writes
 * share one transaction, on PostgreSQL writes to one project run one after another (lane: the
 * project id); each answer waits for its commit.
 */
export const tasksRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.get(
    '/projects/:projectId/tasks',
    {
      schema: {
        tags,
        summary:
          "A page of a project's tasks in document order, subtasks included; optional filters search, completed, assignee, dueBefore, dueAfter",
        params: projectParams,
        querystring: taskListQuery,
        response: tasksResponses,
      },
    },
    async (request) => {
      const { limit, after, before, ...filter } = request.query;
      return {
        ok: true,
        items: await svc.store.run(listTasks(svc, request.actor, request.params.projectId, { limit, after, before }, filter)),
      };
    },
  );

  app.get(
    '/projects/:projectId/blocks',
    {
      schema: {
        tags,
        summary: "A page of a project's blocks (top-level tasks)",
        params: projectParams,
        querystring: blocksQuery,
        response: blocksResponses,
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listBlocks(svc, request.actor, request.params.projectId, request.query)) }),
  );

  // The spec writes the path with a trailing slash; the form without one is accepted too (hidden from the document).
  for (const [path, hide] of [
    ['/projects/:projectId/tasks/', false],
    ['/projects/:projectId/tasks', true],
  ] as const) {
    app.post(
      path,
      {
        preValidation: rootReferenceAsAbsent,
        schema: {
          tags,
          hide,
          summary: 'Create tasks (all or nothing), in request order',
          params: projectParams,
          body: createTasksBody,
          response: createdTasksResponses,
        },
      },
      async (request) => ({
        ok: true,
        item: await queueCreateTasks(svc, request.actor, request.params.projectId, request.body.tasks),
      }),
    );
  }

  app.get(
    '/projects/:projectId/tasks/:taskId',
    { schema: { tags, summary: 'One task', params: taskParams, response: taskResponses } },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getTask(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put(
    '/projects/:projectId/tasks/:taskId',
    {
      schema: { tags, summary: "Replace a task's content", params: taskParams, body: updateTaskBody, response: taskResponses },
    },
    async (request) => ({
      ok: true,
      item: await svc.writes.run(
        (q) => updateTask(svc, request.actor, request.params.projectId, request.params.taskId, request.body, q),
        request.params.projectId,
      ),
    }),
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId',
    { schema: { tags, summary: 'Delete a task and its subtasks', params: taskParams, response: okResponses } },
    async (request) => {
      await svc.writes.run(
        (q) => deleteTask(svc, request.actor, request.params.projectId, request.params.taskId, q),
        request.params.projectId,
      );
      return { ok: true };
    },
  );

  for (const [suffix, completed] of [
    ['complete', true],
    ['uncomplete', false],
  ] as const) {
    app.post(
      `/projects/:projectId/tasks/:taskId/${suffix}`,
      {
        schema: {
          tags,
          summary: completed ? 'Mark a task completed (idempotent)' : 'Mark a task not completed (idempotent)',
          params: taskParams,
          response: taskResponses,
        },
      },
      async (request) => ({
        ok: true,
        item: await svc.writes.run(
          (q) => setTaskCompleted(svc, request.actor, request.params.projectId, request.params.taskId, completed, q),
          request.params.projectId,
        ),
      }),
    );
  }

  app.put(
    '/projects/:projectId/tasks/:taskId/move',
    {
      schema: {
        tags,
        summary: 'Move a task with its subtasks relative to another task',
        params: taskParams,
        body: moveTaskBody,
        response: taskResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.writes.run(
        (q) => moveTask(svc, request.actor, request.params.projectId, request.params.taskId, request.body.target, q),
        request.params.projectId,
      ),
    }),
  );
};
