import type { FastifyPluginAsync } from 'fastify';
import {
  clearTaskDate,
  DATE_PATTERN,
  getTaskDate,
  MAX_TIMEZONE_LENGTH,
  setTaskDate,
  TIME_PATTERN,
  TIMEZONE_PATTERN,
  type TaskDateInput,
} from './dates';
import { itemEnvelope, params, responses } from '../../http/schemas';
import { taskSchema, type TaskParams } from './schemas';

const tags = ['tasks'];

const pointIn = {
  type: 'object',
  nullable: true,
  required: ['date'],
  additionalProperties: false,
  properties: {
    date: { type: 'string', pattern: DATE_PATTERN, description: 'YYYY-MM-DD (a real calendar date)' },
    time: { type: 'string', nullable: true, pattern: TIME_PATTERN, description: 'HH:MM or HH:MM:SS, 24-hour; absent for all day' },
    timezone: {
      type: 'string',
      nullable: true,
      maxLength: MAX_TIMEZONE_LENGTH,
      pattern: TIMEZONE_PATTERN,
      description: 'IANA time zone; default UTC',
    },
  },
} as const;

const pointOut = {
  type: 'object',
  nullable: true,
  required: ['date', 'timezone'],
  properties: { date: { type: 'string' }, time: { type: 'string' }, timezone: { type: 'string' } },
} as const;

/** Task date (spec section 4.1): read, set (create or replace), remove. */
export const taskDatesRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;
  const taskParams = params('projectId', 'taskId');

  app.get<{ Params: TaskParams }>(
    '/projects/:projectId/tasks/:taskId/date',
    {
      schema: {
        tags,
        summary: "A task's date (404 when it has none)",
        params: taskParams,
        response: responses(itemEnvelope({ type: 'object', required: ['start', 'end'], properties: { start: pointOut, end: pointOut } })),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(getTaskDate(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.put<{ Params: TaskParams; Body: TaskDateInput }>(
    '/projects/:projectId/tasks/:taskId/date',
    {
      schema: {
        tags,
        summary: "Set a task's date: start, end or both (an absent side is cleared)",
        params: taskParams,
        body: { type: 'object', additionalProperties: false, properties: { start: pointIn, end: pointIn } },
        response: responses(itemEnvelope(taskSchema)),
      },
    },
    async (request) => ({
      ok: true,
      item: await svc.store.run(setTaskDate(svc, request.actor, request.params.projectId, request.params.taskId, request.body)),
    }),
  );

  app.delete<{ Params: TaskParams }>(
    '/projects/:projectId/tasks/:taskId/date',
    { schema: { tags, summary: "Remove a task's date (idempotent)", params: taskParams, response: responses(itemEnvelope(taskSchema)) } },
    async (request) => ({
      ok: true,
      item: await svc.store.run(clearTaskDate(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );
};
