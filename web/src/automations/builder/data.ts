import type { VariableGroup, Variable } from './context';
import type { JSONSchema, Kinds } from './kinds';
import { allSteps, getAt, startsWith, type Definition, type Path } from './model';

/** The keys of a plain object, else none. */
function keysOf(value: unknown): string[] {
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

/**
 * Paths of a step output or trigger variable, three levels deep (`body`, `body.ok`): the
 * properties its schema declares and those its sample has, each with its sample value when known.
 */
function outputPaths(prefix: string, schema: JSONSchema | undefined, sample: unknown, depth = 0): Variable[] {
  const out: Variable[] = [];
  if (depth >= 3) return out;
  const names = [...new Set([...Object.keys(schema?.properties ?? {}), ...keysOf(sample)])];
  for (const k of names) {
    const path = `${prefix}.${k}`;
    const s = getAt(sample, [k]);
    out.push({ path, ...(s !== undefined ? { sample: s } : {}) });
    out.push(...outputPaths(path, schema?.properties?.[k], s, depth + 1));
  }
  return out;
}

/** Sample values for the data picker: the trigger's variables and step outputs by step id. */
export interface Samples {
  trigger: Record<string, unknown>;
  steps: Record<string, unknown>;
}

/**
 * The trigger's variable names: a form's field names, an assistant call's (`mcp`) input
 * properties, else the kind's declared variables or output.
 */
function triggerNames(definition: Definition, trigger: ReturnType<Kinds['trigger']>): string[] {
  const formFields = Array.isArray(definition.trigger.fields)
    ? (definition.trigger.fields as { name?: unknown }[]).map((f) => String(f?.name ?? '')).filter(Boolean)
    : [];
  // An assistant's call (`mcp`): one variable per property of the tool's input schema.
  const inputSchema = definition.trigger.inputSchema as { properties?: Record<string, unknown> } | undefined;
  const toolInputs = inputSchema?.properties && typeof inputSchema.properties === 'object' ? Object.keys(inputSchema.properties) : [];
  return definition.trigger.type === 'form'
    ? formFields
    : definition.trigger.type === 'mcp'
      ? toolInputs
      : (trigger?.variables ?? Object.keys(trigger?.output?.properties ?? {}));
}

/**
 * What a template field at `at` can read (docs "Automations", "Variables"): the trigger's
 * variables, the outputs of the steps before it in document order, the loop's item inside a loop,
 * the failure inside an error path, the run and the automation. Sample values come from `samples`
 * (a run's trigger variables and step outputs, and the builder's step tests).
 */
export function variablesAt(definition: Definition, at: Path, kinds: Kinds, samples: Samples): VariableGroup[] {
  const groups: VariableGroup[] = [];
  const trigger = kinds.trigger(definition.trigger.type);
  const sampleTrigger = samples.trigger;
  const names = triggerNames(definition, trigger);
  if (names.length > 0) {
    groups.push({
      label: `Trigger: ${trigger?.title ?? definition.trigger.type}`,
      variables: names.flatMap((n) => [
        { path: `trigger.${n}`, ...(sampleTrigger[n] !== undefined ? { sample: sampleTrigger[n] } : {}) },
        ...outputPaths(`trigger.${n}`, trigger?.output?.properties?.[n], sampleTrigger[n], 1),
      ]),
    });
  }
  const steps = allSteps(definition, kinds.nestedOf);
  const here = steps.findIndex((s) => startsWith(at, s.path));
  const before = steps.slice(0, here < 0 ? steps.length : here).filter((s) => !startsWith(at, s.path) && typeof s.step.id === 'string');
  for (const { step } of before) {
    const kind = kinds.action(step.type);
    const sample = samples.steps[step.id as string];
    const paths = outputPaths(`steps.${step.id}`, kind?.output, sample);
    groups.push({
      label: `${step.id} (${kind?.title ?? step.type})`,
      variables: paths.length ? paths : [{ path: `steps.${step.id}`, ...(sample !== undefined ? { sample } : {}) }],
    });
  }
  // Enclosing loops and error paths.
  for (const { path, step } of steps) {
    if (step.type === 'loop' && startsWith(at, [...path, 'actions']))
      groups.push({ label: 'Loop', variables: ['loop.item', 'loop.index', 'loop.count'].map((p) => ({ path: p })) });
    if (startsWith(at, [...path, 'onError', 'then']))
      groups.push({ label: 'Error', variables: ['error.code', 'error.message', 'error.status', 'error.stepId'].map((p) => ({ path: p })) });
  }
  groups.push({
    label: 'Run',
    variables: ['run.id', 'run.createdAt', 'run.test', 'run.resumeUrl', 'automation.id', 'automation.name', 'automation.version'].map(
      (p) => ({ path: p }),
    ),
  });
  return groups;
}
