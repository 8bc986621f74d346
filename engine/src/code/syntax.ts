/**
 * The syntax checks of a code step (docs/automations.md "Code"): the code is compiled, never
 * run, as the body of the async function the sandbox runs it in. Used when an automation is saved
 * and by the worker before each run (for definitions saved before a check existed).
 */
import { Script } from 'node:vm';

/** V8's constructor of async functions: it compiles a body on its own, so the body cannot end the function early. */
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (body: string) => unknown;

/**
 * The syntax error of a code step's `code` with its line (counted from 1 in `code`), or
 * undefined when it compiles. Compiling runs none of the code. Code that compiles inside the
 * wrapper only because it closes the function (`}); (function () {…`) is refused too (see
 * {@link wrapperEscape}).
 */
export function codeSyntaxError(code: string): string | undefined {
  try {
    new Script(`(async function () {\n${code}\n})`, { filename: 'code-step.js' });
  } catch (error) {
    const where = /code-step\.js:(\d+)/.exec((error as Error).stack ?? '');
    return `${(error as Error).message}${where ? ` (line ${Number(where[1]) - 1})` : ''}`;
  }
  return wrapperEscape(code);
}

/**
 * Undefined when `code` is one function body on its own; otherwise why not. A body that closes
 * the function it is placed in and opens another (`}); (function () {…`) would run outside the
 * wrapper; V8's `AsyncFunction` constructor compiles the body by itself (nothing is run) and
 * refuses that.
 */
export function wrapperEscape(code: string): string | undefined {
  try {
    new AsyncFunction(code);
    return undefined;
  } catch (error) {
    return `the code closes the function it runs in (${(error as Error).message})`;
  }
}
