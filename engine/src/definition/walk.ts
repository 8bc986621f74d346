/** Walking an automation's action tree (control-flow kinds declare the properties holding their own lists; error paths hold one too). */
import type { Action, ActionType } from './types';

/**
 * The action id of a journal key: keys inside loop iterations are `<loopKey>[<index>].<id>`
 * (step ids hold no dots), top-level keys are the id itself.
 */
export function actionIdOf(stepKey: string): string {
  return stepKey.slice(stepKey.lastIndexOf('.') + 1);
}

/**
 * Which properties of an action hold step lists: the `nested` declarations of a kind registry
 * (`KindRegistry`, `DefinitionRules`). A property holds a list (`then`, `else`, `actions`) or an
 * object of named lists (`branches`).
 */
export interface NestedKinds {
  action(type: string): { nested?: readonly string[] } | undefined;
}

/** The fields every action has; never step lists of a kind (`onError.then` is walked on its own). */
const COMMON_FIELDS = new Set(['id', 'type', 'name', 'retry', 'disabled', 'onError', 'timeoutMs']);

function isStepList(value: unknown): value is Action[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (v) =>
        v !== null &&
        typeof v === 'object' &&
        typeof (v as { type?: unknown }).type === 'string' &&
        typeof (v as { id?: unknown }).id === 'string',
    )
  );
}

/**
 * The properties of `action` holding step lists: its kind's `nested` declaration when `kinds`
 * knows the kind; otherwise (no registry at hand, or a kind it does not know) every property
 * whose value is a list of steps (objects with a string `type` and `id`, as a validated
 * definition's steps all are) or an object whose values are all such lists.
 */
function nestedKeys(action: Action, kinds: NestedKinds | undefined): readonly string[] {
  const declared = kinds?.action(action.type);
  if (declared) return declared.nested ?? [];
  const record = action as unknown as Record<string, unknown>;
  return Object.keys(record).filter((key) => {
    if (COMMON_FIELDS.has(key)) return false;
    const value = record[key];
    if (isStepList(value)) return true;
    return (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).length > 0 &&
      Object.values(value).every(isStepList)
    );
  });
}

/**
 * Calls `visit` for every action of the tree in document order, with its path: each action, then
 * the step lists its kind declares (`nested`, see {@link NestedKinds}; a custom kind holding steps
 * is walked too), then its `onError.then`. `kinds`: the registry whose declarations say which
 * properties hold steps (recommended; without it step lists are recognised by their shape).
 */
export function walkActions(
  actions: Action[],
  visit: (action: Action, path: (string | number)[]) => void,
  prefix: (string | number)[] = ['actions'],
  kinds?: NestedKinds,
): void {
  actions.forEach((a, i) => {
    const path = [...prefix, i];
    visit(a, path);
    const record = a as unknown as Record<string, unknown>;
    for (const key of nestedKeys(a, kinds)) {
      const held = record[key];
      if (Array.isArray(held)) walkActions(held as Action[], visit, [...path, key], kinds);
      else if (held !== null && typeof held === 'object') {
        for (const [name, list] of Object.entries(held))
          if (Array.isArray(list)) walkActions(list as Action[], visit, [...path, key, name], kinds);
      }
    }
    if (a.onError !== undefined && typeof a.onError === 'object') walkActions(a.onError.then, visit, [...path, 'onError', 'then'], kinds);
  });
}

/** True when any action of the tree (nested lists included, see {@link walkActions}) is of `type`. */
export function usesAction(actions: Action[], type: ActionType, kinds?: NestedKinds): boolean {
  let found = false;
  walkActions(
    actions,
    (a) => {
      if (a.type === type) found = true;
    },
    undefined,
    kinds,
  );
  return found;
}
