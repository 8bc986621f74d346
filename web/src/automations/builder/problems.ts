import type { Kinds } from './kinds';
import { allSteps, type Definition } from './model';
import { describeCron } from './SpecialFields';
import { validate, type Problem } from './validate';

const STEP_ID = /^[A-Za-z][A-Za-z0-9_]*$/;

function without(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = { ...value };
  for (const k of keys) delete out[k];
  return out;
}

/**
 * What the builder can tell about a draft before saving (the service checks it all again, and
 * more, when it is saved): the name, the trigger and each step against its kind's parameters and
 * the common action parameters, unknown kinds, step ids (format and uniqueness) and cron
 * expressions.
 */
export function draftProblems(definition: Definition, kinds: Kinds): Problem[] {
  const out: Problem[] = [];
  if (typeof definition.name !== 'string' || definition.name.trim() === '') out.push({ path: ['name'], message: 'Name is required' });
  const type = definition.trigger?.type;
  const trigger = type ? kinds.trigger(type) : undefined;
  if (!type) out.push({ path: ['trigger'], message: 'Choose a trigger' });
  else if (!trigger) out.push({ path: ['trigger'], message: `Unknown trigger kind ${type}` });
  else {
    out.push(...validate(trigger.parameters, without(definition.trigger, ['type']), ['trigger']));
    if (typeof definition.trigger.cron === 'string') {
      const cron = describeCron(
        definition.trigger.cron,
        typeof definition.trigger.timezone === 'string' ? definition.trigger.timezone : undefined,
      );
      if (cron.error && !out.some((p) => p.path.join('.') === 'trigger.cron')) out.push({ path: ['trigger', 'cron'], message: cron.error });
    }
  }
  const ids = new Map<string, number>();
  for (const { path, step } of allSteps(definition, kinds.nestedOf)) {
    const kind = kinds.action(step.type);
    if (!kind) {
      out.push({ path, message: `Unknown step kind ${step.type}` });
      continue;
    }
    const nested = kind.nested ?? [];
    const own = new Set(Object.keys(kind.parameters.properties ?? {}));
    const commonKeys = ['type', 'id', 'name', 'retry', 'disabled', 'onError', 'timeoutMs'].filter((k) => !own.has(k));
    // Nested steps are checked as steps of their own below.
    const shallow = {
      ...kind.parameters,
      properties: { ...kind.parameters.properties, ...Object.fromEntries(nested.map((k) => [k, {}])) },
    };
    out.push(...validate(shallow, without(step, commonKeys), path));
    const common = without(
      step,
      [...own].filter((k) => k !== 'timeoutMs'),
    );
    out.push(
      ...validate(
        { ...kinds.catalogue.commonActionParameters, required: [] },
        without(common, ['type', 'id', 'onError', ...nested]),
        path,
      ).filter((p) => p.path.length > path.length),
    );
    if (typeof step.id === 'string') {
      if (!STEP_ID.test(step.id))
        out.push({ path: [...path, 'id'], message: 'A step id is letters, digits and _, starting with a letter' });
      ids.set(step.id, (ids.get(step.id) ?? 0) + 1);
      if (ids.get(step.id) === 2) out.push({ path: [...path, 'id'], message: `Another step is already called ${step.id}` });
    } else out.push({ path: [...path, 'id'], message: 'Give the step an id' });
  }
  return out;
}
