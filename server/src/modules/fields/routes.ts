import type { FastifyPluginAsync } from 'fastify';
import {
  ACCEPTED_FIELD_TYPES,
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

const str = { type: 'string' } as const;
const kind = (value: string) => ({ type: 'string', enum: [value] }) as const;

/** `data` of a definition: the real service's `Field` shapes, one per type. */
const fieldData = {
  description: "The real service's field definition shape for the type (boolean, number, string = our text, Select, DateTime = our date)",
  anyOf: [
    { type: 'object', required: ['type'], additionalProperties: false, properties: { type: kind('boolean') } },
    {
      type: 'object',
      required: ['displayName', 'type', 'render', 'format'],
      additionalProperties: false,
      properties: {
        displayName: str,
        type: kind('number'),
        render: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: kind('text') } },
        format: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: kind('decimal') } },
      },
    },
    {
      type: 'object',
      required: ['displayName', 'type'],
      additionalProperties: false,
      properties: { displayName: str, type: kind('string') },
    },
    {
      type: 'object',
      required: ['displayName', 'type', 'options'],
      additionalProperties: false,
      properties: {
        displayName: str,
        type: kind('Select'),
        options: {
          type: 'object',
          description: 'The options keyed by option id',
          additionalProperties: {
            type: 'object',
            required: ['id', 'name', 'rank'],
            additionalProperties: false,
            properties: { id: str, name: str, rank: str },
          },
        },
      },
    },
    {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: kind('DateTime'),
        title: str,
        format: { type: 'object', additionalProperties: false, properties: { time: { type: 'boolean' }, zone: { type: 'boolean' } } },
      },
    },
  ],
} as const;

/** A field definition: `id` and `data` as the real service has them; `name`, `type` and `options` are ours. */
const definition = {
  type: 'object',
  required: ['id', 'name', 'type', 'data'],
  properties: {
    id: str,
    name: str,
    type: { type: 'string', enum: FIELD_TYPES, description: 'Our type name' },
    options: { type: 'array', items: str, description: 'Select fields only: the option texts, in order (the values tasks take)' },
    data: fieldData,
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
            type: {
              type: 'string',
              enum: ACCEPTED_FIELD_TYPES,
              description: "Ours, or the real service's names string (= text), Select (= select), DateTime (= date)",
            },
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
    {
      schema: {
        tags,
        summary: "A project's custom fields, in creation order",
        params: params('projectId'),
        response: responses(itemsEnvelope(definition)),
      },
    },
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
    async (request) => ({
      ok: true,
      items: await svc.store.run(listTaskFieldValues(svc, request.actor, request.params.projectId, request.params.taskId)),
    }),
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
