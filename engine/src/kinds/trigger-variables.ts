/**
 * The variables a trigger gives its runs (`trigger.*`, docs "Triggers"), as its kind declares
 * them (`kinds/`): the save check of templates reads them (`variables.ts`).
 */
import { DEFAULT_REGISTRY } from '.';
import type { TriggerVariableNames } from './kind';
import type { KindRegistry } from './registry';
import type { Trigger } from '../definition/types';

export type { TriggerVariableNames } from './kind';

/** The `trigger.*` names a run of an automation with `trigger` has: the declared ones, or a form's field names. */
export function triggerVariables(trigger: Trigger, kinds: KindRegistry = DEFAULT_REGISTRY): TriggerVariableNames {
  return kinds.triggerVariables(trigger);
}
