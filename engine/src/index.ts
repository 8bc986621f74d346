/**
 * Taskspace automation engine: triggers plus ordered actions, with Liquid variables,
 * branching, approval, delays and durable, journalled runs. Runs in-process behind ports
 * (store, service, HTTP, clock) and never imports the server.
 *
 * A program needs: a {@link RunStore} (e.g. {@link MemoryStore}), a {@link Service}, an
 * {@link Http} (e.g. {@link fetchHttp}) and optionally a {@link Clock}; then
 * `const engine = createEngine({store, service, http}); await engine.start();`,
 * `engine.createAutomation(...)`, `engine.submit(event)` for service events,
 * `engine.startRun(id, body)` for webhooks, `engine.decide(...)` for approvals.
 * See README "Automations".
 * @packageDocumentation
 */
export const ENGINE_VERSION = '0.1.0';

export {
  createEngine,
  Engine,
  EngineError,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_WORKER_ID,
  type EngineOptions,
  type NewAutomation,
  type RunWithSteps,
  type StartRunOptions,
} from './engine';
export {
  AUTOMATION_SCHEMA,
  SCHEMA_REASONS,
  validateDefinition,
  walkActions,
  actionIdOf,
  LOOP_LIMITS,
  TRIGGER_TYPES,
  EVENT_TRIGGER_TYPES,
  AUTOMATION_FAILED,
  APPROVAL_REQUESTED,
  RUN_EVENT_TRIGGER_TYPES,
  INBOUND_TRIGGER_TYPES,
  SUB_RUN_TRIGGER,
  FORM_FIELD_TYPES,
  ALLOWED_RESPONSE_HEADERS,
  REFUSED_CUSTOM_HEADERS,
  responseHeaderRefusal,
  isRedirectUrl,
  usesAction,
  type AutomationFailedTrigger,
  type FormField,
  type FormTrigger,
  type RespondAction,
  type RunAutomationAction,
  OPERATORS,
  HTTP_METHODS,
  type Action,
  type ActionType,
  type ActionBase,
  type AgentCommandAction,
  type ApprovalAction,
  type AutomationDefinition,
  type BranchAction,
  type Conditions,
  type CreateTaskAction,
  type DefinitionProblem,
  type DelayAction,
  type EventTrigger,
  type EventTriggerType,
  type HttpRequestAction,
  type SetAction,
  type LoopAction,
  type Operator,
  type RetryPolicy,
  type Rule,
  type ScheduleTrigger,
  type TaskAction,
  type Trigger,
  type TriggerScope,
  type TriggerType,
  type ValidationResult,
  type WebhookTrigger,
  type WebhookMethod,
  type WebhookVerify,
  WEBHOOK_METHODS,
  WEBHOOK_VERIFY_TYPES,
  type CodeAction,
  type OnError,
  type WaitEventAction,
  EVENT_NAME,
} from './definition';
export type { RunEventOutput, WaitEventInput } from './events';
export {
  AUTOMATION_VARIABLES,
  ERROR_VARIABLES,
  LOOP_VARIABLES,
  RUN_VARIABLES,
  TRIGGER_VARIABLES,
  closestName,
  triggerVariables,
  variableProblems,
  type TriggerVariableNames,
  type VariableCheckOptions,
} from './definition';
export { ActionError, classifyError, permanent, type ErrorInfo } from './errors';
export { DEFAULT_RETRY, backoffMs, isTransientStatus, parseRetryAfter, retryPolicy, type ResolvedRetry } from './retry';
export { Templates, type Scope, type TemplateOptions } from './templates';
export { compare, evaluateConditions, type ConditionResult, type EvaluatedRule } from './conditions';
export { TASK_ADDED_FIELDS, dueSlot, nextSlot, type TriggerEvent, type WebhookRequest } from './triggers';
export { DEFAULT_HTTP_TIMEOUT_MS, type ApprovalDecision, type ApprovalInput, type RunResponse } from './actions';
export { SUB_RUN_RECHECK_MS, type SubRunOutput } from './actions/sub-run';
export { SECRET_MIN_LENGTH, SecretMask, secretPlaceholder, type SecretSource } from './secrets';
export { REDACTED, isCredentialName, redactActions, redactHeaders, redactUrl, type RedactedActions } from './redaction';
export { MemoryStore } from './memory-store';
export { fetchHttp, type FetchHttpOptions } from './fetch-http';
export {
  FINAL_STATUSES,
  systemClock,
  type AutomationRecord,
  type Clock,
  type Http,
  type HttpRequest,
  type HttpResponse,
  type Logger,
  type RunLease,
  type RunQuery,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type Service,
  type ServiceContext,
  type StepRecord,
  type VersionRecord,
  type StepStatus,
  type TaskRef,
  type TaskDatePoint,
  type WaitInfo,
  type FindTasksParams,
} from './ports';
