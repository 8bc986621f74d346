/**
 * The data steps: `set` (computed values), `code` (JavaScript in the sandbox) and `respond` (the
 * answer to whoever started the run). Their executors are `set.ts`, `code.ts`
 * and `respond.ts`.
 */
import { Type } from '@sinclair/typebox';
import { CODE_ACTION, CODE_MEMORY_MB, CODE_TIMEOUT_MS } from './code';
import { RESPOND_ACTION } from './respond';
import { SET_ACTION } from './set';
import { codeSyntaxError } from '../../code/syntax';
import { responseHeaderRefusal } from './response-headers';
import type { DefinitionProblem } from '../../definition/validate';
import { defineAction } from '../kind';
import { Dict, HEADER_NAME, JsonTemplate, Template, VALUE_NAME } from '../parts';
import type { ActionOf } from '../kind';

const pathOf = (segments: (string | number)[]) =>
  segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');

const setParams = Type.Object({
  values: Dict(JsonTemplate({ title: 'Value' }), {
    minProperties: 1,
    maxProperties: 100,
    propertyNames: { pattern: VALUE_NAME },
    title: 'Values',
    description: 'Names (letters, digits, `_`) to values: any JSON whose strings are templates; a single output tag keeps its type.',
  }),
});
const codeParams = Type.Object({
  code: Type.String({
    minLength: 1,
    maxLength: 100_000,
    title: 'Code',
    'x-editor': 'code',
    description: 'The body of an async function reading `input`, `trigger`, `steps` and `run`; what it returns is the output.',
  }),
  input: Type.Optional(
    JsonTemplate({
      title: 'Input',
      description: 'What the code reads as `input`: any JSON whose strings are templates (the only way to hand it a secret).',
    }),
  ),
  timeoutMs: Type.Optional(
    Type.Integer({ minimum: 1, maximum: CODE_TIMEOUT_MS.max, default: CODE_TIMEOUT_MS.default, title: 'Time limit (ms)' }),
  ),
  memoryMb: Type.Optional(
    Type.Integer({ minimum: 1, maximum: CODE_MEMORY_MB.max, default: CODE_MEMORY_MB.default, title: 'Memory limit (MiB)' }),
  ),
});
const respondParams = Type.Object({
  status: Type.Optional(Type.Integer({ minimum: 200, maximum: 599, default: 200, title: 'Status' })),
  headers: Type.Optional(
    Dict(Template({ title: 'Value' }), {
      maxProperties: 50,
      propertyNames: { pattern: HEADER_NAME },
      title: 'Headers',
      description: 'Only the allowed response headers and most `X-` names.',
    }),
  ),
  body: Type.Optional(JsonTemplate({ title: 'Body', description: 'A string is sent as text, anything else as JSON.' })),
});

/** Computes named values for later steps (`steps.<id>.<name>`). */
export type SetAction = ActionOf<'set', typeof setParams> & { values: Record<string, unknown> };
/**
 * Runs JavaScript in the engine's sandbox (docs "Code"): `code` is the body of an async function
 * that reads `input`, `trigger`, `steps` and `run` and returns the step's output (JSON).
 */
export type CodeAction = ActionOf<'code', typeof codeParams>;
/**
 * Answers the call that started the run (docs "Respond to webhook"): the inbound caller or the
 * parent run of an `automation.run` step. Only the first `respond` step to run answers.
 */
export type RespondAction = ActionOf<'respond', typeof respondParams>;

/** `set`. */
export const SET_KIND = defineAction({
  type: 'set',
  title: 'Set values',
  summary: 'Computes named values for later steps.',
  category: 'Data',
  icon: 'variable',
  sideEffects: false,
  parameters: setParams,
  executor: SET_ACTION,
});

/** `code`. */
export const CODE_KIND = defineAction({
  type: 'code',
  title: 'Run code',
  summary: 'Runs JavaScript in a sandbox and returns its result.',
  category: 'Data',
  icon: 'code',
  sideEffects: false,
  literal: ['code'],
  parameters: codeParams,
  executor: CODE_ACTION,
  check(action, path) {
    const error = codeSyntaxError(action.code as string);
    const at = pathOf([...path, 'code']);
    return error ? [{ path: at, reason: 'invalid_code', message: `${at}: ${error}` }] : [];
  },
});

/** `respond`. */
export const RESPOND_KIND = defineAction({
  type: 'respond',
  title: 'Respond',
  summary: 'Answers the webhook call or parent run that started this run.',
  category: 'Inbound',
  icon: 'reply',
  sideEffects: false,
  parameters: respondParams,
  output: Type.Object({ status: Type.Integer(), headers: Dict(Type.String()), body: Type.Unknown() }, { title: 'Response' }),
  executor: RESPOND_ACTION,
  check(action, path) {
    const problems: DefinitionProblem[] = [];
    for (const name of Object.keys((action.headers as Record<string, string> | undefined) ?? {})) {
      const refusal = responseHeaderRefusal(name, (action.status as number | undefined) ?? 200);
      if (refusal) {
        const where = pathOf([...path, 'headers', name]);
        problems.push({ path: where, reason: 'forbidden_header', message: `${where}: ${refusal}` });
      }
    }
    return problems;
  },
});

declare module '../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    set: SetAction;
    code: CodeAction;
    respond: RespondAction;
  }
}
