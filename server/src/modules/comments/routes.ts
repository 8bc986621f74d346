import type { FastifyPluginAsync } from 'fastify';
import { addComment, COMMENTS_DEFAULT_LIMIT, listComments, MAX_COMMENT_LENGTH } from './service';
import { itemEnvelope, itemsEnvelope, pageQuery, params, responses, type PageQuery } from '../../http/schemas';
import { memberSchema, type TaskParams } from '../tasks/schemas';

const tags = ['comments'];

const commentSchema = {
  type: 'object',
  required: ['id', 'taskId', 'text', 'author', 'createdAt'],
  properties: {
    id: { type: 'string' },
    taskId: { type: 'string' },
    text: { type: 'string' },
    author: { ...memberSchema, nullable: true },
    createdAt: { type: 'string', description: 'ISO 8601' },
  },
} as const;

/** Comments on a task: add one, list them oldest first. */
export const commentsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const taskParams = params('projectId', 'taskId');

  app.post<{ Params: TaskParams; Body: { text: string } }>(
    '/projects/:projectId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        summary: 'Comment on a task',
        params: taskParams,
        body: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { text: { type: 'string', minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'May span several lines' } },
        },
        response: responses(itemEnvelope(commentSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(addComment(svc, request.actor, request.params.projectId, request.params.taskId, request.body.text)),
    }),
  );

  app.get<{ Params: TaskParams; Querystring: PageQuery }>(
    '/projects/:projectId/tasks/:taskId/comments',
    {
      schema: {
        tags,
        summary: "A page of a task's comments, oldest first",
        params: taskParams,
        querystring: pageQuery(COMMENTS_DEFAULT_LIMIT),
        response: responses(itemsEnvelope(commentSchema)),
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listComments(svc, request.actor, request.params.projectId, request.params.taskId, request.query)),
    }),
  );
};
