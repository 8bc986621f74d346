/**
 * TypeBox building blocks shared by the kind modules: templates, ids of the workspace's things,
 * step lists and conditions (as `$ref`s into the automation schema's `definitions`).
 */
import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';
import { OPERATORS } from '../definition/types';
import type { Editor, Picker } from './kind';

/** Longest template, in characters. */
export const TEMPLATE_MAX = 20_000;
/** A step id: letters, digits and `_`, starting with a letter. */
export const STEP_ID = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
/** Names of computed values, form fields and sub-run inputs. */
export const VALUE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";

/** Options of a field: its label, help and editor annotations. */
export interface FieldOptions extends SchemaOptions {
  title: string;
  'x-picker'?: Picker;
  'x-editor'?: Editor;
}

/** A Liquid template (at most 20,000 characters). */
export const Template = (options: FieldOptions) => Type.String({ maxLength: TEMPLATE_MAX, 'x-editor': 'template', ...options });
/** A template naming one of the workspace's things (`picker`): an id, or a template yielding one. */
export const Ref = (picker: Picker, options: FieldOptions) => Type.String({ maxLength: TEMPLATE_MAX, 'x-picker': picker, ...options });
/** A literal string, a number or a boolean; strings are templates. */
export const Scalar = (options: FieldOptions) =>
  Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'], 'x-editor': 'template', ...options });
/** Any JSON value whose strings are templates. */
export const JsonTemplate = (options: FieldOptions) => Type.Unknown({ 'x-editor': 'json', ...options });

/** A list of steps (`#/definitions/action` of the automation schema). */
export const Steps = <T = unknown>(options: FieldOptions & { minItems?: number }) =>
  Type.Unsafe<T[]>({ type: 'array', maxItems: 200, items: { $ref: '#/definitions/action' }, 'x-editor': 'steps', ...options });
/** Conditions (`#/definitions/conditions`): any group of rules all true. */
export const ConditionsRef = (options: FieldOptions) =>
  Type.Unsafe<ConditionsShape>({ $ref: '#/definitions/conditions', 'x-editor': 'conditions', ...options });

/** Exactly one of `alternatives` (JSON Schema `oneOf`), each with a `title`. */
export const OneOf = <T extends TSchema[]>(alternatives: [...T], options: FieldOptions) =>
  Type.Unsafe<Static<T[number]>>({ oneOf: alternatives, ...options });

export { OPERATORS } from '../definition/types';

/** The conditions shape (see `definition/types.ts` `Conditions`). */
export interface ConditionsShape {
  anyOf: { allOf: { left: string | number | boolean; operator: (typeof OPERATORS)[number]; right?: string | number | boolean }[] }[];
}

/** A trigger's `filter`: conditions on `trigger.*` evaluated before a run is created. */
export const TriggerFilter = () =>
  ConditionsRef({
    title: 'Only when',
    description: 'Conditions on the trigger variables, checked before a run is created: when they are false, no run starts.',
  });

/** Who and what a task-event trigger watches: `scope` limits it to one project or folder. */
export const Scope = () =>
  Type.Object(
    {
      projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, title: 'Project', 'x-picker': 'project' })),
      folderId: Type.Optional(
        Type.String({ minLength: 1, maxLength: 2000, title: 'Folder', description: 'Also covers its subfolders.', 'x-picker': 'folder' }),
      ),
    },
    {
      additionalProperties: false,
      maxProperties: 1,
      title: 'Where',
      description: 'One project or one folder; absent: every project of the workspace.',
    },
  );

/** One of `values` (JSON Schema `enum`, so a wrong value reads "must be equal to one of the allowed values"). */
export const Enum = <const T extends readonly (string | number)[]>(values: T, options: FieldOptions) =>
  Type.Unsafe<T[number]>({ enum: [...values], ...options });

/** An object of any names to values of one schema (`additionalProperties`), e.g. headers. */
export const Dict = <V extends TSchema>(value: V, options: SchemaOptions & { title?: string; propertyNames?: { pattern: string } } = {}) =>
  Type.Unsafe<Record<string, Static<V>>>({ type: 'object', additionalProperties: value, ...options });
