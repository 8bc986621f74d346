import type { FastifyPluginAsync } from 'fastify';
import {
  FIELD_TYPES,
  MAX_FIELD_NAME,
  MAX_OPTION_LENGTH,
  MAX_SELECT_OPTIONS,
  clearTaskFieldValue,
  createField,
  getTaskFieldValue,
  listTaskFieldValues,
  listFields,
  setTaskFieldValue,
  type NewField,
} from './service';
import { itemEnvelope, itemsEnvelope, okOnly, params, responses, singleLine } from '../../http/schemas';
import { fieldValueBody, type FieldValueInput } from './schemas';

const definition = {
  type: 'object',
  required: ['id', 'name', 'data'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    data: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', enum: FIELD_TYPES }, options: { type: 'array', items: { type: 'string' } } },
    },
  },
} as const;

const fieldValue = {
  type: 'object',
  required: ['fieldId', 'value'],
  properties: {
    fieldId: { type: 'string' },
    value: {
      description: 'boolean, number or string by field type; null when the task has no value',
      type: ['boolean', 'number', 'string'],
      nullable: true,
    },
  },
} as const;

const valueParams = params('projectId', 'taskId', 'fieldId');
const tags = ['fields'];

interface ValueParams {
  projectId: string;
  taskId: string;
  fieldId: string;
}

/** Custom field definitions and task field values (README "Custom fields"). */
export const fieldsRoutes: FastifyPluginAsync = async (app) => {
  const svc = app.services;

  app.post<{ Params: { projectId: string }; Body: NewField }>(
    '/projects/:projectId/fields',
    {
      schema: {
        tags,
        summary: 'Define a custom field',
        params: params('projectId'),
        body: {
          type: 'object',
          required: ['name', 'type'],
          additionalProperties: false,
          properties: {
            name: singleLine(MAX_FIELD_NAME),
            type: { type: 'string', enum: FIELD_TYPES },
            options: { type: 'array', minItems: 1, maxItems: MAX_SELECT_OPTIONS, items: singleLine(MAX_OPTION_LENGTH) },
          },
        },
        response: responses(itemEnvelope(definition)),
      },
    },
    async (request) => ({ ok: true, item: await svc.store.run(createField(svc, request.actor, request.params.projectId, request.body)) }),
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/fields',
    { schema: { tags, summary: "A project's custom fields, in creation order", params: params('projectId'), response: responses(itemsEnvelope(definition)) } },
    async (request) => ({ ok: true, items: await svc.store.run(listFields(svc, request.actor, request.params.projectId)) }),
  );

  app.get<{ Params: Omit<ValueParams, 'fieldId'> }>(
    '/projects/:projectId/tasks/:taskId/fields',
    {
      schema: {
        tags,
        summary: "A task's value for every field of its project (null where unset), in field order",
        params: params('projectId', 'taskId'),
        response: responses(itemsEnvelope(fieldValue)),
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listTaskFieldValues(svc, request.actor, request.params.projectId, request.params.taskId)) }),
  );

  app.get<{ Params: ValueParams }>(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    { schema: { tags, summary: "A task's value for a field", params: valueParams, response: responses(itemEnvelope(fieldValue)) } },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      return { ok: true, item: await svc.store.run(getTaskFieldValue(svc, request.actor, projectId, taskId, fieldId)) };
    },
  );

  app.put<{ Params: ValueParams; Body: FieldValueInput }>(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    {
      schema: {
        tags,
        summary: "Set a task's value for a field",
        params: valueParams,
        body: fieldValueBody,
        response: responses(okOnly),
      },
    },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      await svc.store.run(setTaskFieldValue(svc, request.actor, projectId, taskId, fieldId, request.body.value));
      return { ok: true };
    },
  );

  app.delete<{ Params: ValueParams }>(
    '/projects/:projectId/tasks/:taskId/fields/:fieldId',
    { schema: { tags, summary: "Clear a task's value for a field", params: valueParams, response: responses(okOnly) } },
    async (request) => {
      const { projectId, taskId, fieldId } = request.params;
      await svc.store.run(clearTaskFieldValue(svc, request.actor, projectId, taskId, fieldId));
      return { ok: true };
    },
  );
};
