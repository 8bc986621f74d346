/**
 * A small JSON Schema (draft-07) walker for the JSON view: the subset the service's automation
 * schema (`GET /api/v1/automations/schema`, engine `buildAutomationSchema`) uses — `$ref` to
 * `#/definitions`, `allOf` of `if`/`then` clauses keyed on `type`, `oneOf`/`anyOf`, types,
 * `enum`/`const`, `required`, `properties`/`additionalProperties`, `items` and the size limits.
 * It interprets the schema (no code is generated, so it works under the app's CSP); keywords it
 * does not know are left to the service's save-time check.
 */
import type { JSONSchema } from '../kinds';

/** A JSON Schema as the service publishes it (the builder's one JSON Schema type). */
export type Schema = JSONSchema;

/** A step of a path into a JSON value: a property name or an array index. */
export type Segment = string | number;

/** One schema error: where (`key` when the property name itself is wrong) and what. */
export interface SchemaProblem {
  path: Segment[];
  message: string;
  /** True when the property at `path` should not be there (the name is underlined, not the value). */
  key?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `s` with its `$ref` (to `#/definitions/<name>` of `root`) followed; the referring schema's own keywords kept. */
export function resolve(s: Schema | boolean | undefined, root: Schema): Schema {
  if (s === undefined || typeof s === 'boolean') return {};
  let out = s;
  for (let depth = 0; out.$ref && depth < 20; depth++) {
    const { $ref, ...rest } = out;
    const name = $ref.startsWith('#/definitions/') ? $ref.slice('#/definitions/'.length) : undefined;
    const target = name !== undefined ? root.definitions?.[name] : $ref === '#' ? root : undefined;
    if (!target) return rest;
    out = { ...target, ...rest };
  }
  return out;
}

/** Whether `value` satisfies `s`, judged with this walker. */
export function matches(s: Schema, value: unknown, root: Schema): boolean {
  const out: SchemaProblem[] = [];
  check(s, value, [], root, out);
  return out.length === 0;
}

/** The JSON type names `value` has (`integer` numbers are `number` too). */
function typesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

const article = (t: string) => (t === 'array' || t === 'object' || t === 'integer' ? `an ${t}` : t === 'null' ? 'null' : `a ${t}`);

/** A short list of allowed values for a message (the first few). */
function allowed(values: readonly unknown[]): string {
  const shown = values.slice(0, 8).map((v) => JSON.stringify(v));
  return shown.join(', ') + (values.length > 8 ? `, … (${values.length} in all)` : '');
}

/** The schemas among `alternatives` whose declared type fits `value` (all of them when none declares a type). */
function fitting(alternatives: Schema[], value: unknown, root: Schema): Schema[] {
  const types = typesOf(value);
  return alternatives.filter((a) => {
    const r = resolve(a, root);
    if (r.type === undefined) return r.const === undefined || same(r.const, value) || typeof r.const === typeof value;
    return (Array.isArray(r.type) ? r.type : [r.type]).some((t) => types.includes(t));
  });
}

/**
 * Checks `value` against `schema`, adding what is wrong to `out` (each place once, the first
 * reason), as the service's save-time check would judge it.
 */
export function check(schema: Schema | boolean | undefined, value: unknown, path: Segment[], root: Schema, out: SchemaProblem[]): void {
  const s = resolve(schema, root);
  const add = (p: SchemaProblem) => {
    if (!out.some((o) => o.path.join('\u0000') === p.path.join('\u0000') && !!o.key === !!p.key)) out.push(p);
  };
  if (s.type !== undefined) {
    const wanted = Array.isArray(s.type) ? s.type : [s.type];
    if (!wanted.some((t) => typesOf(value).includes(t))) {
      add({ path, message: `must be ${wanted.map(article).join(' or ')}` });
      return;
    }
  }
  if (s.const !== undefined && !same(s.const, value)) add({ path, message: `must be ${JSON.stringify(s.const)}` });
  if (s.enum && !s.enum.some((e) => same(e, value))) {
    add({
      path,
      message:
        path.at(-1) === 'type' && typeof value === 'string'
          ? `unknown kind "${value}"; one of ${allowed(s.enum)}`
          : `must be one of ${allowed(s.enum)}`,
    });
    return;
  }
  if (typeof value === 'string') {
    if (s.minLength !== undefined && value.length < s.minLength)
      add({ path, message: s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters` });
    if (s.maxLength !== undefined && value.length > s.maxLength) add({ path, message: `must be at most ${s.maxLength} characters` });
    if (s.pattern !== undefined && !safeTest(s.pattern, value)) add({ path, message: `does not have the expected form (${s.pattern})` });
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) add({ path, message: `must be at least ${s.minimum}` });
    if (s.maximum !== undefined && value > s.maximum) add({ path, message: `must be at most ${s.maximum}` });
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems)
      add({ path, message: `must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}` });
    if (s.maxItems !== undefined && value.length > s.maxItems) add({ path, message: `must have at most ${s.maxItems} items` });
    if (s.items) value.forEach((item, i) => check(s.items, item, [...path, i], root, out));
  }
  if (isObject(value)) {
    for (const name of s.required ?? []) if (!(name in value)) add({ path, message: `missing the required field "${name}"` });
    if (s.minProperties !== undefined && Object.keys(value).length < s.minProperties)
      add({ path, message: `must have at least ${s.minProperties} field${s.minProperties === 1 ? '' : 's'}` });
    for (const [key, v] of Object.entries(value)) {
      const declared = s.properties?.[key];
      if (declared !== undefined) check(declared, v, [...path, key], root, out);
      else if (s.additionalProperties === false) {
        const known = Object.keys(s.properties ?? {}).filter((k) => k !== 'type');
        add({
          path: [...path, key],
          key: true,
          message: `unknown field "${key}"${known.length ? `; known fields: ${known.slice(0, 12).join(', ')}` : ''}`,
        });
      } else if (typeof s.additionalProperties === 'object') check(s.additionalProperties, v, [...path, key], root, out);
    }
  }
  for (const part of s.allOf ?? []) {
    const p = resolve(part, root);
    if (p.if) {
      const branch = matches(p.if, value, root) ? p.then : p.else;
      if (branch) check(branch, value, path, root, out);
    } else check(p, value, path, root, out);
  }
  for (const [alternatives, one] of [
    [s.oneOf, true],
    [s.anyOf, false],
  ] as const) {
    if (!alternatives) continue;
    const passing = alternatives.filter((a) => matches(a, value, root)).length;
    if (passing === 0) {
      // The alternative of the value's own type says best what is wrong; otherwise name them all.
      const candidates = fitting(alternatives, value, root);
      if (candidates.length === 1) check(candidates[0], value, path, root, out);
      else add({ path, message: describeAlternatives(alternatives, root) });
    } else if (one && passing > 1) add({ path, message: describeAlternatives(alternatives, root, true) });
  }
}

/** "must have one of the fields a, b" / "must be one of …" for alternatives none (or, `exactlyOne`, several) of which match. */
function describeAlternatives(alternatives: Schema[], root: Schema, exactlyOne = false): string {
  const resolved = alternatives.map((a) => resolve(a, root));
  const fields = resolved.every((r) => r.required?.length === 1 && !r.type) ? resolved.map((r) => r.required![0]) : undefined;
  if (fields)
    return exactlyOne ? `must have only one of the fields ${fields.join(', ')}` : `must have one of the fields ${fields.join(', ')}`;
  const names = resolved.map(
    (r) =>
      r.title ??
      (r.const !== undefined
        ? JSON.stringify(r.const)
        : r.enum
          ? allowed(r.enum)
          : Array.isArray(r.type)
            ? r.type.join(' or ')
            : (r.type ?? 'value')),
  );
  return `must be ${exactlyOne ? 'exactly ' : ''}one of: ${names.join('; ')}`;
}

/** `pattern` tested on `value` (a pattern this browser cannot read passes: the service checks it). */
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/**
 * Every schema that applies to `value` through `s` (`s` itself resolved, the `then` of its
 * matching `if` clauses, and its `oneOf`/`anyOf` alternatives that fit the value's type).
 */
export function applicable(s: Schema | undefined, value: unknown, root: Schema): Schema[] {
  const r = resolve(s, root);
  const out = [r];
  for (const part of r.allOf ?? []) {
    const p = resolve(part, root);
    if (p.if) {
      const branch = matches(p.if, value, root) ? p.then : p.else;
      if (branch) out.push(...applicable(branch, value, root));
    } else out.push(...applicable(p, value, root));
  }
  for (const alternatives of [r.oneOf, r.anyOf])
    if (alternatives)
      for (const a of value === undefined ? alternatives : fitting(alternatives, value, root)) out.push(...applicable(a, value, root));
  return out;
}

/** The schemas of the value at `path` in `document`, walking down from `root`. */
export function schemasAt(root: Schema, document: unknown, path: readonly Segment[]): Schema[] {
  let schemas = applicable(root, document, root);
  let value: unknown = document;
  for (const segment of path) {
    const child: unknown =
      typeof segment === 'number' ? (Array.isArray(value) ? value[segment] : undefined) : isObject(value) ? value[segment] : undefined;
    const next: Schema[] = [];
    for (const s of schemas) {
      const sub =
        typeof segment === 'number'
          ? s.items
          : (s.properties?.[segment] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
      if (sub) next.push(...applicable(sub, child, root));
    }
    schemas = next;
    value = child;
  }
  return schemas;
}

/** The properties the object at `path` may have, with their (first) schema, in declaration order. */
export function propertiesAt(root: Schema, document: unknown, path: readonly Segment[]): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const s of schemasAt(root, document, path))
    for (const [name, sub] of Object.entries(s.properties ?? {})) {
      const r = resolve(sub, root);
      const seen = out.get(name);
      // The `then` clause repeats `type` as `{}`: keep the description that says something.
      if (!seen || (!seen.title && !seen.description && !seen.enum && (r.title || r.description || r.enum))) out.set(name, r);
    }
  return out;
}

/** The values the schema names for the value at `path` (`enum`, `const`, booleans). */
export function valuesAt(root: Schema, document: unknown, path: readonly Segment[]): unknown[] {
  const out: unknown[] = [];
  const push = (v: unknown) => !out.some((o) => same(o, v)) && out.push(v);
  for (const s of schemasAt(root, document, path)) {
    s.enum?.forEach(push);
    if (s.const !== undefined) push(s.const);
    if (s.type === 'boolean' || (Array.isArray(s.type) && s.type.includes('boolean'))) [true, false].forEach(push);
  }
  return out;
}
