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

/** What the builder knows of the automation's own world, to make a kind's example its own (docs "Samples"). */
export interface SampleContext {
  /** The app's origin, for links (`https://taskspace.example`). */
  origin: string;
  /** The project the trigger watches, else the workspace's first project. */
  project?: { id: string; name: string };
  /** A task of that project (its first), when it has one. */
  task?: { id: string; text: string };
  /** The signed-in person's handle. */
  handle?: string;
  /** The workspace's home folder id. */
  folderId?: string;
  /** Still reading the project, its task or the person: the sample is not the automation's own yet. */
  loading?: boolean;
}

/** The placeholders of the kinds' examples (engine `kinds/examples.ts`). */
const PLACEHOLDER = {
  project: 'example-project',
  task: 'example-task',
  member: 'example-member',
  folder: 'example-folder',
} as const;

/**
 * A trigger kind's `example` made the automation's own: its project (id, name, link), a real task
 * of it, the signed-in person for every member, the home folder; what the context lacks stays a
 * placeholder.
 */
export function adaptExample(example: Record<string, unknown>, context: SampleContext): Record<string, unknown> {
  const swap = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => swap(v));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, swap(v, k)]));
    if (typeof value !== 'string') return value;
    if (value === PLACEHOLDER.project) return context.project?.id ?? value;
    if (value === PLACEHOLDER.task) return context.task?.id ?? value;
    if (value === PLACEHOLDER.member) return context.handle ?? value;
    if (value === PLACEHOLDER.folder) return context.folderId ?? value;
    if (key === 'projectLink' && context.project) return `${context.origin}/projects/${context.project.id}`;
    if (key === 'projectTitle' && context.project) return context.project.name;
    if (key === 'nodeText' && context.task) return context.task.text;
    return value;
  };
  return swap(example) as Record<string, unknown>;
}

/** Why a kind's example cannot stand for a real event here (it names a task and the project has none), or `undefined`. */
export function exampleGap(example: Record<string, unknown> | undefined, context: SampleContext): string | undefined {
  if (!example || example.nodeId !== PLACEHOLDER.task || context.task) return undefined;
  return context.project
    ? `The sample names a task: add one to ${context.project.name} first, or type a payload.`
    : 'The sample names a task: create a project with a task first, or type a payload.';
}

/** A run's trigger sample when it can stand for this trigger: same kind, and not an empty payload. */
export function runSample(trigger: Definition['trigger'], run: Run | undefined): Record<string, unknown> | undefined {
  if (!run || run.trigger.type !== trigger.type) return undefined;
  const variables = run.trigger.variables;
  const sample = trigger.type === 'webhook' ? objectOf(variables.body) : variables;
  return sample && Object.keys(sample).length > 0 ? sample : undefined;
}

/**
 * The trigger sample of the builder's tests (the test run's payload and the step tests'
 * `trigger`), in order: `run` (a run opened from the run view, else the automation's latest run)
 * when it is of this trigger kind and not empty — its trigger variables, or for a webhook its
 * call's body; else `declared` (the sample a gallery template gave); else the kind's `example`
 * made the automation's own ({@link adaptExample}; a webhook's body); else one value per
 * variable of the trigger kind, shaped by the kind's declared output (a form's fields by name).
 */
export function triggerSample(
  trigger: Definition['trigger'],
  kind: KindInfo | undefined,
  run: Run | undefined,
  context: SampleContext,
  declared?: Record<string, unknown>,
): Record<string, unknown> {
  const fromRun = runSample(trigger, run);
  if (fromRun) return fromRun;
  if (declared) return declared;
  if (kind?.example) {
    const adapted = adaptExample(kind.example as Record<string, unknown>, context);
    return trigger.type === 'webhook' ? (objectOf(adapted.body) ?? {}) : adapted;
  }
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
