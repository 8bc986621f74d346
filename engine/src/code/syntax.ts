/**
 * The save-time check of a code step (docs/automations.md "Code"): the code is compiled, never
 * run, as the body of the async function the sandbox runs it in.
 */
import { Script } from 'node:vm';

/**
 * The syntax error of a code step's `code` with its line (counted from 1 in `code`), or
 * undefined when it compiles. Compiling runs none of the code.
 */
export function codeSyntaxError(code: string): string | undefined {
  try {
    new Script(`(async function () {\n${code}\n})`, { filename: 'code-step.js' });
    return undefined;
  } catch (error) {
    const where = /code-step\.js:(\d+)/.exec((error as Error).stack ?? '');
    return `${(error as Error).message}${where ? ` (line ${Number(where[1]) - 1})` : ''}`;
  }
}
