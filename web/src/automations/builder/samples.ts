import type { JSONSchema, KindInfo } from './kinds';
import type { Definition } from './model';
import type { Run } from '../types';

/** A value shaped like `schema` for a sample: objects by property, arrays of one item, typed leaves. */
export function sampleOf(name: string, schema: JSONSchema | undefined, depth = 0): unknown {
  if (schema?.examples?.length) return schema.examples[0];
  if (schema?.default !== undefined) return schema.default;
  if (schema?.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema?.type) ? schema.type.find((t) => t !== 'null') : schema?.type;
  if (schema?.properties && depth < 3)
    return Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, sampleOf(k, s, depth + 1)]));
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return depth < 3 && schema?.items ? [sampleOf(name, schema.items, depth + 1)] : [];
    case 'object':
      return {};
    default:
      return `sample ${name}`;
  }
}

/** A plain object, else undefined. */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The trigger sample of the builder's tests (the test run's payload and the step tests'
 * `trigger`): from `run` (a run opened from the run view, else the automation's latest run) when
 * there is one — its trigger variables, or for a webhook its call's body; else one value per
 * variable of the trigger kind, shaped by the kind's declared output (a form's fields by name).
 */
export function triggerSample(trigger: Definition['trigger'], kind: KindInfo | undefined, run: Run | undefined): Record<string, unknown> {
  const variables = run?.trigger.variables;
  if (variables) return trigger.type === 'webhook' ? (objectOf(variables.body) ?? {}) : variables;
  const fields =
    trigger.type === 'form' && Array.isArray(trigger.fields)
      ? (trigger.fields as { name?: unknown }[]).map((f) => String(f?.name ?? '')).filter(Boolean)
      : null;
  const names = fields ?? kind?.variables ?? Object.keys(kind?.output?.properties ?? {});
  return Object.fromEntries(names.map((n) => [n, sampleOf(n, kind?.output?.properties?.[n])]));
}

/**
 * Sample outputs of steps by id, for the data picker and the step tests' pinned outputs: the
 * succeeded steps of `runs` (later runs win; ids inside loops, `each[2].inner`, count as `inner`),
 * then `tested` (the builder's step tests) over them.
 */
export function stepSamples(runs: (Run | undefined)[], tested: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const run of runs) {
    for (const s of run?.steps ?? []) if (s.status === 'succeeded' && s.output !== undefined) out[s.id.split('.').pop()!] = s.output;
  }
  return { ...out, ...tested };
}

/**
 * The `trigger.*` variables a run with the trigger sample `payload` has (the data picker's trigger
 * samples): the payload itself, except for a webhook, whose body it is (`trigger.body`, its fields
 * also at the top; method, headers and query from `run` when there is one).
 */
export function triggerVariables(type: string, payload: Record<string, unknown>, run: Run | undefined): Record<string, unknown> {
  if (type !== 'webhook') return payload;
  return { ...(run?.trigger.variables ?? {}), body: payload, ...payload };
}
