/**
 * Code (docs/automations.md "Code"): the author's JavaScript, run in the engine's QuickJS sandbox
 * (`code/sandbox.ts`) with a time and a memory limit and no access to the host: no `process`,
 * `require`, files, network or timers. The code is the body of an async function; it reads
 * `input` (the step's `input`, rendered: the only way a secret reaches it), `trigger`, `steps`
 * (earlier outputs as recorded) and `run`, and what it returns (JSON) is the step's output.
 * Failures are permanent (the same code fails the same way again): `CODE_ERROR` (a syntax error,
 * a throw, a value that is not JSON), `CODE_TIMEOUT`, `CODE_MEMORY`; `details.logs` has what it
 * printed with `console.log`. Transient: `SANDBOX_CLOSED` (the engine stopped) and `CODE_BUSY`
 * (the workspace has too many code steps waiting for the sandbox). Jobs run in the workspace's
 * fair share of the sandbox (`code/shares.ts`).
 */
import type { Action } from '../../definition/types';
import { ActionError } from '../../errors';
import type { CodeJob } from '../../code/protocol';
import type { ActionKind } from '../executor';

/** A `code` step (declared in `data.ts`; taken from the union, so this file does not import its declaration). */
type CodeAction = Extract<Action, { type: 'code' }>;

/** Default and largest time limit of a code step, in ms. */
export const CODE_TIMEOUT_MS = { default: 1000, max: 30_000 } as const;
/** Default and largest memory limit of a code step, in MiB. */
export const CODE_MEMORY_MB = { default: 32, max: 128 } as const;
/** Longest JSON a code step may return, in characters (1 MiB). */
export const CODE_MAX_OUTPUT_CHARS = 1024 * 1024;

/** Parameters of one code step: its rendered input and limits. */
export interface CodeParams {
  input: unknown;
  timeoutMs: number;
  memoryMb: number;
}

/** The `code` kind. */
export const CODE_ACTION: ActionKind<CodeAction, CodeParams> = {
  prepare: (a, s, t) => ({
    input: a.input === undefined ? null : t.renderValue(a.input, s, 'input'),
    timeoutMs: a.timeoutMs ?? CODE_TIMEOUT_MS.default,
    memoryMb: a.memoryMb ?? CODE_MEMORY_MB.default,
  }),

  async execute(ctx, p, a) {
    const job: CodeJob = {
      code: a.code,
      variables: { input: p.input, trigger: ctx.scope.trigger, steps: ctx.scope.steps, run: ctx.scope.run },
      timeoutMs: p.timeoutMs,
      memoryBytes: p.memoryMb * 1024 * 1024,
      maxOutputChars: CODE_MAX_OUTPUT_CHARS,
    };
    const reply = await ctx.sandbox.run(job, { workspaceId: ctx.run.workspaceId, signal: ctx.signal });
    if (!reply.ok)
      throw new ActionError(reply.code, reply.message, reply.code === 'SANDBOX_CLOSED' || reply.code === 'CODE_BUSY', {
        details: { logs: reply.logs },
      });
    try {
      return JSON.parse(reply.output) as unknown;
    } catch {
      // Only code that escaped the wrapper the worker runs it in can hand back something else.
      throw new ActionError('CODE_ERROR', 'the code did not return its value through the function it runs in', false, {
        details: { logs: reply.logs },
      });
    }
  },
};
