/**
 * Set (transform): computes named values from templates for later steps. Each value is any JSON
 * whose strings are templates; a string that is exactly one output tag keeps its value's type
 * (number, list, object), so `{"total": "{{ trigger.amount | times: 1.2 }}"}` yields a number.
 * Output: the computed object, read by later steps as `steps.<id>.<name>`.
 */
import type { Action } from '../../definition/types';
import type { ActionKind } from '../executor';

/** A `set` step (declared in `data.ts`; taken from the union, so this file does not import its declaration). */
type SetAction = Extract<Action, { type: 'set' }>;

/** The `set` action kind: all work happens in `prepare`, so the journal's input is the output. */
export const SET_ACTION: ActionKind<SetAction, Record<string, unknown>> = {
  prepare(action, scope, templates) {
    return templates.renderValue(action.values, scope, 'values') as Record<string, unknown>;
  },
  async execute(_ctx, values) {
    return values;
  },
};
