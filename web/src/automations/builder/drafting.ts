import type { Automation } from '../types';
import { initialOf } from './fieldSchema';
import type { KindInfo, Kinds } from './kinds';
import { freshId, withIds, type Definition, type Step } from './model';

const EMPTY: Definition = { name: 'New automation', trigger: { type: '' }, actions: [] };

/**
 * The draft to start from without one kept in the browser: the saved automation's definition
 * (name, description, trigger, steps) when there is one, else an empty "New automation"; step ids filled in.
 */
export function startingDefinition(saved: Automation | undefined, kinds: Kinds): Definition {
  const definition: Definition = saved
    ? {
        name: saved.name,
        ...(saved.description ? { description: saved.description } : {}),
        trigger: saved.trigger,
        actions: saved.actions,
      }
    : EMPTY;
  return withIds(definition, kinds.nestedOf);
}

/** A new step of a kind: its constant and required list fields, two branches for `parallel`, a fresh id. */
export function newStep(definition: Definition, kind: KindInfo, kinds: Kinds): Step {
  const step = {
    ...(initialOf(kind.parameters) as Record<string, unknown>),
    type: kind.type,
    id: freshId(definition, kind.type, kinds.nestedOf),
  } as Step;
  if (kind.nested?.includes('branches')) step.branches = { branch1: [], branch2: [] };
  return step;
}
