/**
 * The built-in trigger and action kinds, one declaration each (issue 23 "engine kinds as data"),
 * and what derives from them by default: {@link AUTOMATION_SCHEMA}, {@link validateDefinition},
 * {@link TRIGGER_VARIABLES}. An engine takes its own list (`EngineOptions.kinds`), e.g.
 * `[...DEFAULT_KINDS, myKind]`.
 */
import type { ActionType, EventTriggerOf, TriggerType } from '../definition/types';
import type { ProjectEventType } from './projects/project-events/project-events';
import type { TaskEventType } from './tasks/task-events/task-events';
import type { ValidationResult } from '../definition/validate';
import type { KindDeclaration, TriggerVariableNames } from './kind';
import { KindRegistry } from './registry';
import { AGENT_COMMAND_KIND } from './ai/agent-command/agent-command';
import { CODE_KIND, RESPOND_KIND, SET_KIND } from './data/data';
import { APPROVAL_KIND, BRANCH_KIND, DELAY_KIND, LOOP_KIND, PARALLEL_KIND, RUN_AUTOMATION_KIND, WAIT_EVENT_KIND } from './flow/flow';
import { HTTP_REQUEST_KIND } from './http/http-request/http-request';
import { EMAIL_SEND_KIND } from './email/email-send/email-send';
import { SERVICE_KINDS } from './tasks/service/service';
import { TASK_WRITE_KINDS } from './tasks/task-writes/task-writes';
import { FORM_KIND } from './inbound/form/form';
import { PROJECT_EVENT_KINDS } from './projects/project-events/project-events';
import { RUN_EVENT_KINDS } from './runs/run-events/run-events';
import { SCHEDULE_KIND } from './time/schedule/schedule';
import { TASK_EVENT_KINDS } from './tasks/task-events/task-events';
import { WEBHOOK_KIND } from './inbound/webhook/webhook';
import { MCP_KIND } from './inbound/mcp/mcp';

export * from '../definition';
export * from './kind';
export { KindRegistry } from './registry';
export { COMMON_ACTION_PARAMETERS } from './schema';
export { Template, Ref, Scalar, JsonTemplate, Steps, Enum, Dict, OneOf } from './parts';
export { HTTP_METHODS, DEFAULT_HTTP_TIMEOUT_MS, DEFAULT_MAX_REDIRECTS, type HttpRequestAction } from './http/http-request/http-request';
export { type AgentCommandAction, type AgentParams } from './ai/agent-command/agent-command';
export { McpServerSchema, type McpServerConfig } from './ai/agent-command/mcp-tools';
export { type EmailSendAction, EMAIL_MAX_RECIPIENTS, EMAIL_MAX_ATTACHMENTS } from './email/email-send/email-send';
export { LOOP_LIMITS, EVENT_NAME } from './flow/flow';
export { WEBHOOK_METHODS, WEBHOOK_VERIFY_TYPES, type WebhookVerify } from './inbound/webhook/webhook';
export { FORM_FIELD_TYPES, isRedirectUrl, type FormField, type FormTriggerFields } from './inbound/form/form';
export {
  AUTOMATION_FAILED,
  APPROVAL_REQUESTED,
  type AutomationFailedTrigger,
  type RunEventTriggerType,
} from './runs/run-events/run-events';
export { TASK_ADDED_FIELDS, type TaskEventType } from './tasks/task-events/task-events';
export type { ProjectEventType } from './projects/project-events/project-events';
export type { ScheduleTrigger } from './time/schedule/schedule';
export type { WebhookMethod, WebhookTrigger } from './inbound/webhook/webhook';
export type { FormTrigger } from './inbound/form/form';
export { MCP_INPUT_TYPES, MCP_TOOL_NAME, type McpTrigger, type McpTriggerFields, type McpInputSchema } from './inbound/mcp/mcp';
export type {
  Position,
  DatePoint,
  TaskAction,
  CreateTaskAction,
  UpdateTaskAction,
  TaskRefAction,
  AssignTaskAction,
  SetDateAction,
  SetNoteAction,
  SetFieldAction,
  MoveTaskAction,
} from './tasks/task-writes/task-writes';
export type { CodeAction, RespondAction, SetAction } from './data/data';
export * from './flow/types';
export * from './tasks/service/service-actions';
export * from './data/response-headers';
export type { ActionContext, ActionKind } from './executor';
export type { ApprovalDecision, ApprovalInput } from './flow/control';
export type { RunResponse } from './data/respond';
export type { TriggerEvent } from './events';
export { dueSlot, nextSlot, scheduleVariables } from './time/schedule/slots';
export { webhookVariables, type WebhookRequest } from './inbound/webhook/request';

/** A trigger fired by a service event (task and project events). */
export type EventTriggerType = TaskEventType | ProjectEventType;
/** A trigger fired by a service event (task and project events). */
export type EventTrigger = EventTriggerOf<EventTriggerType>;

/** The built-in trigger kinds, with their literal types. */
const BUILTIN_TRIGGERS = [
  ...TASK_EVENT_KINDS,
  ...PROJECT_EVENT_KINDS,
  ...RUN_EVENT_KINDS,
  SCHEDULE_KIND,
  WEBHOOK_KIND,
  FORM_KIND,
  MCP_KIND,
];

/** The built-in action kinds, with their literal types. */
const BUILTIN_ACTIONS = [
  ...TASK_WRITE_KINDS,
  ...SERVICE_KINDS,
  HTTP_REQUEST_KIND,
  EMAIL_SEND_KIND,
  AGENT_COMMAND_KIND,
  SET_KIND,
  CODE_KIND,
  RESPOND_KIND,
  RUN_AUTOMATION_KIND,
  BRANCH_KIND,
  APPROVAL_KIND,
  DELAY_KIND,
  LOOP_KIND,
  WAIT_EVENT_KIND,
  PARALLEL_KIND,
];

/** Every built-in trigger kind. */
export const DEFAULT_TRIGGER_KINDS: readonly KindDeclaration[] = BUILTIN_TRIGGERS;
/** Every built-in action kind. */
export const DEFAULT_ACTION_KINDS: readonly KindDeclaration[] = BUILTIN_ACTIONS;

/** True when `A` and `B` are the same union of names. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * Compile-time checks that the lists above and the `Action` / `Trigger` types (`ActionTypes`,
 * `TriggerTypes` in `definition/types.ts`, which each kind module adds its type to) name the same
 * kinds: a kind listed without its type, or a type without its kind, fails to compile here.
 */
export const BUILTIN_TYPES_AGREE: {
  actions: Same<(typeof BUILTIN_ACTIONS)[number]['type'], ActionType>;
  triggers: Same<(typeof BUILTIN_TRIGGERS)[number]['type'], TriggerType>;
} = {
  actions: true,
  triggers: true,
};

/** Every built-in kind: the default of `EngineOptions.kinds`. */
export const DEFAULT_KINDS: readonly KindDeclaration[] = [...DEFAULT_TRIGGER_KINDS, ...DEFAULT_ACTION_KINDS];

/** The registry of {@link DEFAULT_KINDS}. */
export const DEFAULT_REGISTRY = new KindRegistry(DEFAULT_KINDS);

/** Every built-in trigger kind's type. */
export const TRIGGER_TYPES: readonly string[] = DEFAULT_REGISTRY.triggers().map((k) => k.type);
/** Built-in trigger kinds that come from service events (the outbox). */
export const EVENT_TRIGGER_TYPES: readonly string[] = DEFAULT_REGISTRY.triggerTypes('event');
/** Built-in triggers fired by other automations' runs: optional `automationId`, never by the automation's own runs. */
export const RUN_EVENT_TRIGGER_TYPES: readonly string[] = DEFAULT_REGISTRY.triggerTypes('run-event');
/** Built-in trigger kinds started by a call to the automation's inbound URL (the host gives them one). */
export const INBOUND_TRIGGER_TYPES: readonly string[] = DEFAULT_REGISTRY.triggerTypes('inbound');
/** Built-in trigger kinds started by a call of the host's own (the `mcp` trigger: a tool call at the MCP endpoint). */
export const CALL_TRIGGER_TYPES: readonly string[] = DEFAULT_REGISTRY.triggerTypes('call');

/**
 * The published JSON Schema (draft-07) of an automation definition with the built-in kinds,
 * served at `GET /api/v1/automations/schema`. {@link validateDefinition} applies it plus the
 * checks a schema cannot express (unique step ids, cron syntax, template syntax, static regexes).
 */
export const AUTOMATION_SCHEMA = DEFAULT_REGISTRY.schema;

/**
 * Validates a definition with the built-in kinds and returns a normalized copy (missing step ids
 * filled in as `step<n>`, n counting all actions in document order). `checkTemplate` checks one
 * template's syntax (see `Templates.check`); without it templates are not checked. Never throws
 * on bad input.
 */
export function validateDefinition(input: unknown, checkTemplate?: (template: string) => string | undefined): ValidationResult {
  return DEFAULT_REGISTRY.validate(input, checkTemplate);
}

/**
 * The variables each built-in trigger kind gives its runs (`trigger.*`, docs "Triggers"), but
 * `form` (whose variables are its fields' names): the save check of templates reads them, and
 * the docs table is tested against them.
 */
export const TRIGGER_VARIABLES: Readonly<Record<string, TriggerVariableNames>> = DEFAULT_REGISTRY.variableTable();
