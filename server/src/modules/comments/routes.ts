import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { addComment, listComments } from './service';
import { AddCommentBody, commentResponses, commentsQuery, commentsResponses, taskParams } from './schemas';

const tags = ['comments'];

/** Comments on a task: add one, list them oldest first. */
export const commentsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.post(
    '/projects/:projectId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        summary: 'Comment on a task',
        params: taskParams,
        body: AddCommentBody,
        response: commentResponses,
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(addComment(svc, request.actor, request.params.projectId, request.params.taskId, request.body.text)),
    }),
  );

  app.get(
    '/projects/:projectId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        summary: "A page of a task's comments, oldest first",
        params: taskParams,
        querystring: commentsQuery,
        response: commentsResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listComments(svc, request.actor, request.params.projectId, request.params.taskId, request.query)),
    }),
  );
};
