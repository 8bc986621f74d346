import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { clearTaskFieldValue, createField, getTaskFieldValue, listTaskFieldValues, listFields, setTaskFieldValue } from './service';
import {
  NewFieldBody,
  fieldResponses,
  fieldValueBody,
  fieldsResponses,
  okResponses,
  projectParams,
  taskParams,
  valueParams,
  valueResponses,
  valuesResponses,
} from './schemas';

const tags = ['fields'];

/** Custom field definitions and task field values (README "Custom fields"). */
export const fieldsRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;

  app.post(
    '/projects/:projectId/fields',
    {
      schema: {
        tags,
        summary: 'Define a custom field',
        params: projectParams,
        body: NewFieldBody,
        response: fieldResponses,
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createField(svc, request.actor, request.params.projectId, request.body)) }),
  );

  app.get(
    '/projects/:projectId/fields',
    { schema: { tags, summary: "A project's custom fields, in creation order", params: projectParams, response: fieldsResponses } },
    async (request) => ({ ok: true, items: await svc.store.run(listFields(svc, request.actor, request.params.projectId)) }),
  );

  app.get(
    '/projects/:projectId/tasks/:taskId/fields',
    {
      schema: {
        tags,
        summary: "A task's value for every field of its project (null where unset), in field order",
        params: taskParams,
        response: valuesResponses,
      },
    },
    async (request) => ({
      ok: true,
      items: await svc.store.run(listTaskFieldValues(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
  );

  app.get(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    { schema: { tags, summary: "A task's value for a field", params: valueParams, response: valueResponses } },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      return { ok: true, item: await svc.store.run(getTaskFieldValue(svc, request.actor, projectId, taskId, fieldId)) };
    },
  );

  app.put(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    {
      schema: {
        tags,
        summary: "Set a task's value for a field",
        params: valueParams,
        body: fieldValueBody,
        response: okResponses,
      },
    },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      await svc.writes.run((q) => setTaskFieldValue(svc, request.actor, projectId, taskId, fieldId, request.body.value, q), projectId);
      return { ok: true };
    },
  );

  app.delete(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    { schema: { tags, summary: "Clear a task's value for a field", params: valueParams, response: okResponses } },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      await svc.writes.run((q) => clearTaskFieldValue(svc, request.actor, projectId, taskId, fieldId, q), projectId);
      return { ok: true };
    },
  );
};
