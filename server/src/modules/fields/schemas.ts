import { Type, type Static } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses, nullable, singleLine, stringEnum } from '../../http/schemas';
import { ACCEPTED_FIELD_TYPES, FIELD_TYPES, MAX_FIELD_NAME, MAX_OPTION_LENGTH, MAX_SELECT_OPTIONS } from './service';

/**
 * Schemas of the custom fields and the task field values (README "Custom fields"), written once
 * with TypeBox: the routes validate, type and document with them, and the automation engine's
 * `task.setField` is checked against {@link fieldValueBody} (engine-host/service-adapter.ts)
 * before the domain function runs.
 */

/** An exact object (`additionalProperties: false`). */
const exact = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** A select option in the real service's shape: `id` derived from `name`, `rank` orders them. */
const SelectOptionSchema = exact({ id: Type.String(), name: Type.String(), rank: Type.String() });

/** `data` of a definition: the real service's `Field` shapes, one per type. */
const FieldDataSchema = Type.Union(
  [
    exact({ type: stringEnum(['boolean'] as const) }),
    exact({
      displayName: Type.String(),
      type: stringEnum(['number'] as const),
      render: exact({ type: stringEnum(['text'] as const) }),
      format: exact({ type: stringEnum(['decimal'] as const) }),
    }),
    exact({ displayName: Type.String(), type: stringEnum(['string'] as const) }),
    exact({
      displayName: Type.String(),
      type: stringEnum(['Select'] as const),
      options: Type.Unsafe<Record<string, Static<typeof SelectOptionSchema>>>(
        Type.Object({}, { additionalProperties: SelectOptionSchema, description: 'The options keyed by option id' }),
      ),
    }),
    exact({
      type: stringEnum(['DateTime'] as const),
      title: Type.String(),
      format: exact({ time: Type.Boolean(), zone: Type.Boolean() }),
    }),
  ],
  {
    description: "The real service's field definition shape for the type (boolean, number, string = our text, Select, DateTime = our date)",
  },
);

/** A field definition: `id` and `data` as the real service has them; `name`, `type` and `options` are ours. */
export const FieldDefinitionSchema = exact({
  id: Type.String(),
  name: Type.String(),
  type: stringEnum(FIELD_TYPES, { description: 'Our type name' }),
  options: Type.Optional(
    Type.Array(Type.String(), { description: 'Select fields only: the option texts, in order (the values tasks take)' }),
  ),
  data: FieldDataSchema,
});

/** A task's value of a field: boolean, number or string by field type, null when unset. */
const FieldValueSchema = exact({
  fieldId: Type.String(),
  // `nullable` on one branch: OpenAPI 3.0 gives `nullable` no meaning without a `type`.
  value: Type.Union([nullable(Type.Boolean()), Type.Number(), Type.String()], {
    description: 'boolean, number or string by field type; null when the task has no value',
  }),
});

/** Path of a project's field list. */
export const projectParams = Params('projectId');
/** Path of one field of a project. */
export const fieldParams = Params('projectId', 'fieldId');
/** Path of a task's field values. */
export const taskParams = Params('projectId', 'taskId');
/** Path of one task's value of one field. */
export const valueParams = Params('projectId', 'taskId', 'fieldId');

/** Body of `POST .../fields`: a name, a type (ours or a synonym) and, for select fields, the options. */
export const NewFieldBody = exact({
  name: singleLine(MAX_FIELD_NAME),
  type: stringEnum(ACCEPTED_FIELD_TYPES, {
    description: "Ours, or the real service's names string (= text), Select (= select), DateTime (= date)",
  }),
  options: Type.Optional(Type.Array(singleLine(MAX_OPTION_LENGTH), { minItems: 1, maxItems: MAX_SELECT_OPTIONS })),
});

/**
 * Body of `PUT .../tasks/{taskId}/fields/{fieldId}`: `{value}`. The value is untyped on purpose
 * (ajv's type coercion would turn null into 0 or ""): `normalizeFieldValue` checks it against
 * the field's type.
 */
export const fieldValueBody = exact({
  value: Type.Unknown({ description: 'number, string (min length 1) or, for boolean fields, true/false' }),
});

/** A field value as written, before the field's type is checked. */
export type FieldValueInput = Static<typeof fieldValueBody>;

/** Body of `PATCH /projects/{projectId}/fields/{fieldId}`: the new name. */
export const fieldPatchBody = exact({ name: singleLine(MAX_FIELD_NAME) });
/** Body of `PUT /projects/{projectId}/fields/order`: every field id of the project, in the new order. */
export const fieldOrderBody = exact({ fieldIds: Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 }) });

/** Responses of one definition. */
export const fieldResponses = Responses(ItemEnvelope(FieldDefinitionSchema));
/** Responses of a definition list. */
export const fieldsResponses = Responses(ItemsEnvelope(FieldDefinitionSchema));
/** Responses of one task field value. */
export const valueResponses = Responses(ItemEnvelope(FieldValueSchema));
/** Responses of a task's field values. */
export const valuesResponses = Responses(ItemsEnvelope(FieldValueSchema));
/** Responses of a write that answers `{ok: true}`. */
export const okResponses = Responses(OkOnly);
