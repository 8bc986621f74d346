/**
 * What work actions see and implement (`types.ts`); the kinds themselves are declared in
 * `../kinds` (control-flow actions are run by the executor itself, see `control.ts`).
 */
export type { ActionContext, ActionKind } from './types';
export { DEFAULT_HTTP_TIMEOUT_MS } from '../kinds/actions/http-request';
export type { ApprovalDecision, ApprovalInput } from './control';
export type { RunResponse } from './respond';
