/** Walking an automation's action tree (branches, approvals, loops, parallel branches and error paths hold their own lists). */
import type { Action, ActionType } from './types';

/**
 * The action id of a journal key: keys inside loop iterations are `<loopKey>[<index>].<id>`
 * (step ids hold no dots), top-level keys are the id itself.
 */
export function actionIdOf(stepKey: string): string {
  return stepKey.slice(stepKey.lastIndexOf('.') + 1);
}

/** Calls `visit` for every action of the tree in document order, with its path. */
export function walkActions(
  actions: Action[],
  visit: (action: Action, path: (string | number)[]) => void,
  prefix: (string | number)[] = ['actions'],
): void {
  actions.forEach((a, i) => {
    const path = [...prefix, i];
    visit(a, path);
    if (a.type === 'branch' || a.type === 'approval') {
      if (a.then) walkActions(a.then, visit, [...path, 'then']);
      if (a.else) walkActions(a.else, visit, [...path, 'else']);
    }
    if (a.type === 'loop') walkActions(a.actions, visit, [...path, 'actions']);
    if (a.type === 'parallel') for (const [name, list] of Object.entries(a.branches)) walkActions(list, visit, [...path, 'branches', name]);
    if (a.onError !== undefined && typeof a.onError === 'object') walkActions(a.onError.then, visit, [...path, 'onError', 'then']);
  });
}

/** True when any action of the tree (branches, approvals and loops included) is of `type`. */
export function usesAction(actions: Action[], type: ActionType): boolean {
  let found = false;
  walkActions(actions, (a) => {
    if (a.type === type) found = true;
  });
  return found;
}
