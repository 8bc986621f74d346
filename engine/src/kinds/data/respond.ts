/**
 * Respond: the answer to whoever started the run (docs "Respond to webhook"). The step only
 * computes and journals the response; the host reads the first succeeded `respond` step of the run
 * and sends it (the waiting inbound webhook call), and a parent run reads it as `response`.
 * Output: `{status, headers, body}`.
 */
import type { Action } from '../../definition/types';
import { responseHeaderRefusal } from './response-headers';
import { permanent } from '../../errors';
import type { ActionKind } from '../executor';

/** A `respond` step (declared in `data.ts`; taken from the union, so this file does not import its declaration). */
type RespondAction = Extract<Action, { type: 'respond' }>;

/** A response as journalled and sent: `body` is text (sent as text/plain) or any other JSON value (sent as JSON). */
export interface RunResponse {
  /** 200 to 599. */
  status: number;
  /** Header names as written in the definition; values rendered. */
  headers: Record<string, string>;
  body: unknown;
}

/** Characters a header value may not hold once rendered (line breaks and other controls would split or end the header). */
const UNSAFE_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The `respond` kind: all work happens in `prepare`, so the journal's input is the output. */
export const RESPOND_ACTION: ActionKind<RespondAction, RunResponse> = {
  prepare(action, scope, templates) {
    const headers: Record<string, string> = {};
    const status = action.status ?? 200;
    for (const [name, template] of Object.entries(action.headers ?? {})) {
      // Checked at save too; again here for definitions saved before the rule (an allow-list) held.
      const refusal = responseHeaderRefusal(name, status);
      if (refusal) throw permanent('INVALID_INPUT', refusal, { field: `headers.${name}` });
      const value = templates.render(template, scope, `headers.${name}`);
      if (UNSAFE_HEADER_VALUE.test(value))
        throw permanent('INVALID_INPUT', `header ${name} renders to a value with a line break or another control character`, {
          field: `headers.${name}`,
        });
      headers[name] = value;
    }
    const body = action.body === undefined ? null : templates.renderValue(action.body, scope, 'body');
    return { status, headers, body };
  },
  async execute(_ctx, response) {
    return response;
  },
};
