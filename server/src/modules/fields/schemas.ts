import { Type, type Static } from '@sinclair/typebox';

/**
 * Input schemas of the task field values, written once with TypeBox: the value route validates
 * and documents its body with them, and the automation engine's `task.setField` is checked
 * against them (automations/service-adapter.ts) before the domain function runs.
 */

/**
 * Body of `PUT .../tasks/{taskId}/fields/{fieldId}`: `{value}`. The value is untyped on purpose
 * (ajv's type coercion would turn null into 0 or ""): `normalizeFieldValue` checks it against
 * the field's type.
 */
export const fieldValueBody = Type.Object(
  { value: Type.Unknown({ description: 'number, string (min length 1) or, for boolean fields, true/false' }) },
  { additionalProperties: false },
);

/** A field value as written, before the field's type is checked. */
export type FieldValueInput = Static<typeof fieldValueBody>;
