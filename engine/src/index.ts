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
  SCHEMA_REASONS,
  walkActions,
  actionIdOf,
  SUB_RUN_TRIGGER,
  ALLOWED_RESPONSE_HEADERS,
  REFUSED_CUSTOM_HEADERS,
  responseHeaderRefusal,
  usesAction,
  type NestedKinds,
  type AutomationFailedTrigger,
  type FormField,
  type FormTrigger,
  type RespondAction,
  type RunAutomationAction,
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
  type CodeAction,
  type OnError,
  type WaitEventAction,
} from './kinds';
export {
  AUTOMATION_SCHEMA,
  validateDefinition,
  TRIGGER_VARIABLES,
  DEFAULT_KINDS,
  DEFAULT_TRIGGER_KINDS,
  DEFAULT_ACTION_KINDS,
  DEFAULT_REGISTRY,
  KindRegistry,
  COMMON_ACTION_PARAMETERS,
  defineAction,
  defineTrigger,
  LOOP_LIMITS,
  TRIGGER_TYPES,
  EVENT_TRIGGER_TYPES,
  AUTOMATION_FAILED,
  APPROVAL_REQUESTED,
  RUN_EVENT_TRIGGER_TYPES,
  INBOUND_TRIGGER_TYPES,
  FORM_FIELD_TYPES,
  isRedirectUrl,
  OPERATORS,
  HTTP_METHODS,
  WEBHOOK_METHODS,
  WEBHOOK_VERIFY_TYPES,
  EVENT_NAME,
  TASK_ADDED_FIELDS,
  Template,
  Ref,
  Scalar,
  JsonTemplate,
  Steps,
  Enum,
  Dict,
  OneOf,
  type ActionKindDeclaration,
  type TriggerKindDeclaration,
  type KindDeclaration,
  type KindInfo,
  type KindCatalogue,
  type KindLists,
  EDITORS,
  PICKERS,
  type KindDescription,
  type TriggerSource,
  type Picker,
  type Editor,
} from './kinds';
export type { RunEventOutput, WaitEventInput } from './events';
export {
  AUTOMATION_VARIABLES,
  ERROR_VARIABLES,
  LOOP_VARIABLES,
  RUN_VARIABLES,
  closestName,
  variableProblems,
  type VariableCheckOptions,
} from './kinds/variables';
export { triggerVariables, type TriggerVariableNames } from './kinds/trigger-variables';
export {
  DEFAULT_HTTP_TIMEOUT_MS,
  dueSlot,
  nextSlot,
  type ActionKind,
  type ActionContext,
  type ApprovalDecision,
  type ApprovalInput,
  type RunResponse,
  type TriggerEvent,
  type WebhookRequest,
} from './kinds';
export { ActionError, classifyError, permanent, type ErrorInfo } from './errors';
export { STEP_TEST_TIMEOUT_MS, findStep, type StepTestInput, type StepTestResult } from './steps/step-test';
export { DEFAULT_RETRY, backoffMs, isTransientStatus, parseRetryAfter, retryPolicy, type ResolvedRetry } from './retry';
export { Templates, type Scope, type TemplateOptions } from './templates';
export { compare, evaluateConditions, type ConditionResult, type EvaluatedRule } from './conditions';
export {
  DEFAULT_MAX_PAGES,
  MAX_PAGES_LIMIT,
  MAX_PAGINATED_CHARS,
  MAX_PAGINATED_ITEMS,
  nextLink,
  type HttpPagination,
} from './kinds/http/http-request/http-pagination';
export { SUB_RUN_RECHECK_MS, type SubRunOutput } from './kinds/flow/sub-run';
export { SECRET_MIN_LENGTH, SecretMask, secretPlaceholder, type SecretSource } from './secrets';
export {
  REDACTED,
  CROSS_ORIGIN_SAFE_HEADERS,
  crossOriginHeaders,
  isCredentialName,
  redactActions,
  redactHeaders,
  redactUrl,
  type RedactedActions,
} from './redaction';
export { MemoryStore } from './memory-store';
export { fetchHttp, type FetchHttpOptions } from './fetch-http';
export {
  FINAL_STATUSES,
  FINAL_RUN_STATUSES,
  RUN_STATUSES,
  STEP_STATUSES,
  systemClock,
  type AutomationRecord,
  type Clock,
  type Http,
  type AgentToolCall,
  type AgentToolDefinition,
  type AgentToolSet,
  type EmailParams,
  type HttpMultipartPart,
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
export type { McpCallResult, McpClient, McpServerTarget, McpSession, McpToolInfo } from './mcp-client';
export * from './pieces';
