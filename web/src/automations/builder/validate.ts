import type { JSONSchema } from './kinds';
import type { Path } from './model';

/** A problem found in a draft: where, and what to say at that field. */
export interface Problem {
  path: Path;
  message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string | string[] | undefined, value: unknown): boolean {
  if (expected === undefined) return true;
  const actual = typeOf(value);
  return (Array.isArray(expected) ? expected : [expected]).some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

/** The label of a field for messages: its schema title, else its name. */
function label(schema: JSONSchema | undefined, name: string | number): string {
  return schema?.title ?? String(name);
}

/**
 * Checks `value` against `schema` without compiling anything (the app's CSP forbids run-time code):
 * `required`, `type`, `enum`/`const`, `pattern`, `minimum`/`maximum`, lengths, item counts, nested
 * objects and lists, and `oneOf`/`anyOf` (valid when one alternative is). The service checks
 * everything again when saving; this is what the builder can say before that, at the field.
 */
export function validate(schema: JSONSchema | undefined, value: unknown, at: Path = []): Problem[] {
  if (!schema) return [];
  if (value === undefined) return [];
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && !schema.properties) {
    const results = alternatives.map((alt) => validate(alt, value, at));
    if (results.some((r) => r.length === 0)) return [];
    // The alternative whose discriminating `const` matches, else the closest one.
    const chosen = alternatives.findIndex((alt) =>
      Object.entries(alt.properties ?? {}).some(([k, p]) => p.const !== undefined && (value as Record<string, unknown>)?.[k] === p.const),
    );
    if (chosen >= 0) return results[chosen]!;
    return [...results].sort((a, b) => a.length - b.length)[0] ?? [];
  }
  if (alternatives && typeOf(value) === 'object') {
    // Constraints on the whole object (`anyOf` of `required` groups): one must hold.
    const own = validate({ ...schema, oneOf: undefined, anyOf: undefined }, value, at);
    if (own.length > 0) return own;
    if (alternatives.some((alt) => validate({ ...alt, properties: { ...schema.properties, ...alt.properties } }, value, at).length === 0))
      return [];
    const groups = alternatives
      .map((alt) => (alt.required ?? []).map((k) => label(schema.properties?.[k], k)).join(' and '))
      .filter(Boolean);
    return [{ path: at, message: groups.length ? `Fill in ${groups.join(', or ')}` : 'These values do not fit together' }];
  }
  if (!typeMatches(schema.type, value)) {
    const t = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
    return [{ path: at, message: `Must be ${t === 'integer' ? 'a whole number' : t === 'array' ? 'a list' : `a ${t}`}` }];
  }
  if (schema.const !== undefined && value !== schema.const) return [{ path: at, message: `Must be ${JSON.stringify(schema.const)}` }];
  if (schema.enum && !schema.enum.some((e) => e === value))
    return [{ path: at, message: `Must be one of ${schema.enum.map(String).join(', ')}` }];
  const problems: Problem[] = [];
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      problems.push({ path: at, message: schema.minLength === 1 ? 'Required' : `At least ${schema.minLength} characters` });
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      problems.push({ path: at, message: `At most ${schema.maxLength} characters` });
    if (schema.pattern && value !== '' && !new RegExp(schema.pattern, 'u').test(value))
      problems.push({ path: at, message: `Not in the expected format` });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push({ path: at, message: `At least ${schema.minimum}` });
    if (schema.maximum !== undefined && value > schema.maximum) problems.push({ path: at, message: `At most ${schema.maximum}` });
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      problems.push({ path: at, message: `Add at least ${schema.minItems}` });
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push({ path: at, message: `At most ${schema.maxItems}` });
    value.forEach((item, i) => problems.push(...validate(schema.items, item, [...at, i])));
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      const v = object[name];
      if (
        v === undefined ||
        v === '' ||
        (schema.properties?.[name]?.type === 'array' && Array.isArray(v) && v.length === 0 && (schema.properties[name]!.minItems ?? 0) > 0)
      ) {
        problems.push({ path: [...at, name], message: `${label(schema.properties?.[name], name)} is required` });
      }
    }
    for (const [name, v] of Object.entries(object)) {
      const sub = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (problems.some((p) => p.path.length === at.length + 1 && p.path.at(-1) === name)) continue;
      problems.push(...validate(sub, v, [...at, name]));
    }
  }
  return problems;
}
