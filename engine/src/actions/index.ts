/** Action kinds by type (control-flow actions are run by the executor itself, see `control.ts`). */
import type { Action } from '../definition';
import { AGENT_ACTION } from './agent';
import { CODE_ACTION } from './code';
import { HTTP_ACTION } from './http';
import { RESPOND_ACTION } from './respond';
import { SERVICE_ACTIONS } from './service';
import { SET_ACTION } from './set';
import { TASK_ACTIONS } from './task';
import type { ActionKind } from './types';

export type { ActionContext, ActionKind } from './types';
export { DEFAULT_HTTP_TIMEOUT_MS } from './http';
export type { ApprovalDecision, ApprovalInput } from './control';
export type { RunResponse } from './respond';

/** The kinds that do work: every task and service action, `http.request`, `agent.command`, `set`, `code` and `respond`. */
export const WORK_ACTIONS: Record<string, ActionKind<Action, unknown>> = {
  ...TASK_ACTIONS,
  ...SERVICE_ACTIONS,
  'http.request': HTTP_ACTION as unknown as ActionKind<Action, unknown>,
  'agent.command': AGENT_ACTION as unknown as ActionKind<Action, unknown>,
  set: SET_ACTION as unknown as ActionKind<Action, unknown>,
  code: CODE_ACTION as unknown as ActionKind<Action, unknown>,
  respond: RESPOND_ACTION as unknown as ActionKind<Action, unknown>,
};
