import type { ComponentType } from 'react';
import type { JSONSchema } from './kinds';
import type { Path } from './model';
import { validate } from './validate';

/** Props of the builder's `Field` (one field of a kind's parameters). */
export interface FieldProps {
  name: string;
  schema: JSONSchema;
  value: unknown;
  onChange(value: unknown): void;
  /** The field's place in the definition (errors and the data picker read it). */
  path: Path;
  required?: boolean;
  siblings?: Record<string, unknown>;
  /** A label replacing the schema's title (list items). */
  label?: string;
}

/**
 * The `Field` component, handed to the group widgets (objects, lists, maps, `oneOf` choices) that
 * render fields inside themselves, so they need not import it back.
 */
export type FieldComponent = ComponentType<FieldProps>;

/** The JSON types a schema allows (`type` as a list; empty when it names none). */
export function typesOf(schema: JSONSchema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** A starting value for a newly chosen `oneOf` alternative or list item. */
export function initialOf(schema: JSONSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  const t = typesOf(schema)[0];
  if (t === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(schema.properties ?? {})) if (p.const !== undefined) out[k] = p.const;
    for (const k of schema.required ?? []) {
      const p = schema.properties?.[k];
      if (out[k] === undefined && p?.default !== undefined) out[k] = structuredClone(p.default);
      else if (out[k] === undefined && p && (typesOf(p)[0] === 'array' || p['x-editor'] === 'steps')) out[k] = [];
    }
    return out;
  }
  if (t === 'array') return [];
  if (t === 'string') return '';
  return undefined;
}

/**
 * The index of the alternative of a `oneOf`/`anyOf` that `value` is (its `const` discriminator,
 * else the first that validates, else the first of its JSON type); -1 for none.
 */
export function alternativeOf(alternatives: JSONSchema[], value: unknown): number {
  if (value === undefined) return -1;
  const byConst = alternatives.findIndex((alt) =>
    Object.entries(alt.properties ?? {}).some(
      ([k, p]) => p.const !== undefined && (value as Record<string, unknown> | null)?.[k] === p.const,
    ),
  );
  if (byConst >= 0) return byConst;
  const fits = alternatives.findIndex((alt) => validate(alt, value).length === 0);
  if (fits >= 0) return fits;
  return alternatives.findIndex((alt) => typesOf(alt).includes(Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value));
}

/** A placeholder for a field: its first example, else "Default: …" for a scalar default. */
export function placeholderOf(schema: JSONSchema): string | undefined {
  if (schema.examples?.[0] !== undefined)
    return typeof schema.examples[0] === 'string' ? schema.examples[0] : JSON.stringify(schema.examples[0]);
  if (schema.default !== undefined && typeof schema.default !== 'object') return `Default: ${String(schema.default)}`;
  return undefined;
}
