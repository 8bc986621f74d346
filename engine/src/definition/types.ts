/**
 * The automation definition's types and the lists of its kinds: one trigger plus an ordered list of actions, stored as JSON and
 * validated against {@link AUTOMATION_SCHEMA} (README "Automations").
 *
 * Every string field marked "template" is a Liquid template rendered against the run's
 * variables (see `templates.ts`). A template that is exactly one output tag, such as
 * `"{{ trigger.count }}"`, keeps the type of its value (number, object, array) instead of
 * becoming a string.
 */
import type { ServiceActionFields } from './service-actions';

/** Trigger kinds that come from service events (the outbox). */
export const EVENT_TRIGGER_TYPES = [
  'task.added',
  'task.completed',
  'task.assigned',
  'comment.created',
  'task.due',
  'project.created',
  'project.completed',
  'project.assigned',
  'project.joined',
] as const;
/** The failure-alert trigger: another automation's run failed (docs "Failure alerts"). */
export const AUTOMATION_FAILED = 'automation.failed';
/** Another automation's run waits for an approval (docs "Approvals that reach people"). */
export const APPROVAL_REQUESTED = 'approval.requested';
/** Triggers fired by other automations' runs: optional `automationId`, never by the automation's own runs. */
export const RUN_EVENT_TRIGGER_TYPES = [AUTOMATION_FAILED, APPROVAL_REQUESTED] as const;
/** Every trigger kind. */
export const TRIGGER_TYPES = [...EVENT_TRIGGER_TYPES, ...RUN_EVENT_TRIGGER_TYPES, 'schedule', 'webhook', 'form'] as const;
/** Trigger kinds started by a call to the automation's inbound URL (the host gives them one). */
export const INBOUND_TRIGGER_TYPES = ['webhook', 'form'] as const;
/** The trigger type recorded on a run started by another automation's `automation.run` step. */
export const SUB_RUN_TRIGGER = 'automation.run';

/** A trigger fired by a service event. */
export type EventTriggerType = (typeof EVENT_TRIGGER_TYPES)[number];
/** One of {@link TRIGGER_TYPES}. */
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** Limits an event trigger to one project or to the projects of one folder (and its subfolders). */
export interface TriggerScope {
  projectId?: string;
  folderId?: string;
}

/** Fires on a service event of the same name (spec section 6.2). */
export interface EventTrigger {
  type: EventTriggerType;
  /** Absent: every project of the automation's workspace. */
  scope?: TriggerScope;
  /** Evaluated against `trigger.*` before a run is created: an event it refuses starts no run. */
  filter?: Conditions;
}

/**
 * Fires on a time schedule: exactly one of `cron` (5 or 6 fields, croner syntax) or
 * `everyMinutes` (slots aligned to the Unix epoch). Each slot fires at most once, also
 * across restarts; after downtime only the latest missed slot fires.
 */
export interface ScheduleTrigger {
  type: 'schedule';
  cron?: string;
  everyMinutes?: number;
  /** IANA time zone for `cron` (default UTC). */
  timezone?: string;
}

/** HTTP methods an inbound webhook URL may accept. */
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** Signature schemes an inbound webhook can verify (docs "Automations", "Verifying signatures"). */
export const WEBHOOK_VERIFY_TYPES = ['github', 'stripe', 'slack', 'hmac-sha256'] as const;

/**
 * Signature verification of an inbound call: an HMAC-SHA256 keyed with the workspace secret
 * `secret` (its name), checked before a run is recorded (401 INVALID_SIGNATURE otherwise).
 */
export interface WebhookVerify {
  /**
   * `github` (`X-Hub-Signature-256: sha256=<hex>` over the raw body), `stripe` (`Stripe-Signature:
   * t=<s>,v1=<hex>` over `<t>.<body>`), `slack` (`X-Slack-Signature: v0=<hex>` over
   * `v0:<X-Slack-Request-Timestamp>:<body>`), or `hmac-sha256` (the raw body, in `header`).
   */
  type: (typeof WEBHOOK_VERIFY_TYPES)[number];
  /** Name of the workspace secret holding the signing key. */
  secret: string;
  /** `hmac-sha256` only, and required for it: the header carrying the signature. */
  header?: string;
  /** `hmac-sha256` only: `hex` (default) or `base64` signature encoding. */
  encoding?: 'hex' | 'base64';
  /** `hmac-sha256` only: a prefix before the signature in the header, e.g. `sha256=`. */
  prefix?: string;
  /** `stripe` and `slack`: the largest accepted age (either way) of the signed timestamp, in seconds (default 300). */
  toleranceSeconds?: number;
}

/**
 * Fires when the automation's inbound URL (`/webhooks/<id>`) is called with one of `methods`
 * (default `["POST"]`). `requireToken` makes the URL also demand `Authorization: Bearer <token>`
 * (spec section 5.3); `verify` checks the sender's signature.
 */
export interface WebhookTrigger {
  type: 'webhook';
  requireToken?: boolean;
  methods?: WebhookMethod[];
  verify?: WebhookVerify;
}

/** Field kinds of a form trigger. */
export const FORM_FIELD_TYPES = ['text', 'number', 'choice', 'date', 'checkbox'] as const;

/** One field of a form trigger; its value becomes `trigger.<name>`. */
export interface FormField {
  /** Variable name: letters, digits and `_`, starting with a letter or `_`; unique in the form. */
  name: string;
  /** Shown above the input (plain text). */
  label: string;
  type: (typeof FORM_FIELD_TYPES)[number];
  /** A submission without it is refused (for `checkbox`: it must be ticked). */
  required?: boolean;
  /** `choice` only, and required for it: the allowed values (1 to 100, unique). */
  options?: string[];
  /** `text` only: a multi-line input. */
  multiline?: boolean;
  /** Help text under the input. */
  help?: string;
  placeholder?: string;
}

/**
 * Fires when the automation's hosted form (`/forms/<id>`) is submitted (spec 6.1 "form
 * submission"). The page is generated from `fields`; each field's value becomes a trigger
 * variable of its name (text, number, `YYYY-MM-DD` date, boolean checkbox, chosen option).
 * Afterwards the page shows `thankYou` (default "Thank you!") or redirects to `redirectUrl`.
 */
export interface FormTrigger {
  type: 'form';
  /** Page heading (plain text). */
  title: string;
  description?: string;
  fields: FormField[];
  /** Label of the submit button (default "Submit"). */
  submitLabel?: string;
  thankYou?: string;
  /** An absolute http(s) URL the browser is sent to after a successful submission. */
  redirectUrl?: string;
  /** Require a token: `?token=` on the page link, or `Authorization: Bearer` for JSON posts. */
  requireToken?: boolean;
}

/**
 * Fires on another automation's run of the workspace (`automationId` limits it to one
 * automation; never on the automation's own runs):
 * - `automation.failed`: a run failed (an error handler, like n8n's Error Trigger). Variables:
 *   automationId, automationName, runId, runLink, version, error, failedAt.
 * - `approval.requested`: a run waits for an approval. Variables: automationId, automationName,
 *   runId, runLink, stepId, message, approvers, timeoutAt, test.
 */
export interface AutomationFailedTrigger {
  type: (typeof RUN_EVENT_TRIGGER_TYPES)[number];
  automationId?: string;
  /** As {@link EventTrigger.filter}. */
  filter?: Conditions;
}

export type Trigger = EventTrigger | AutomationFailedTrigger | ScheduleTrigger | WebhookTrigger | FormTrigger;

/**
 * Retry settings of one action, for transient failures only (network errors, timeouts, HTTP
 * 5xx and 429). Delay before attempt n+1 = min(maxDelayMs, initialDelayMs × factor^(n−1)).
 * Defaults per action kind: {@link DEFAULT_RETRY}.
 */
export interface RetryPolicy {
  /** Total attempts including the first (1 = no retry). */
  maxAttempts?: number;
  /** Delay before the second attempt, in ms. */
  initialDelayMs?: number;
  /** Multiplier applied per further attempt. */
  factor?: number;
  /** Upper bound of one delay, in ms. */
  maxDelayMs?: number;
}

/** Fields every action has. */
export interface ActionBase {
  /**
   * Step id, unique in the automation: letters, digits and `_`, starting with a letter. Later
   * steps read this step's output as `steps.<id>`. Filled in as `step1`, `step2`… when absent.
   */
  id: string;
  /** Display name. */
  name?: string;
  retry?: RetryPolicy;
  /**
   * Time limit of one attempt, in ms, on steps that do work (task actions, `agent.command`,
   * `http.request`, `code`): past it the attempt is aborted and fails with the transient
   * `STEP_TIMEOUT` (retried by the step's policy). `http.request` defaults to 30000 and `code`
   * to 1000; the others have none (docs "Timeouts").
   */
  timeoutMs?: number;
  /** A disabled step is skipped: not run and not journalled; with its nested steps (docs "Error paths"). */
  disabled?: boolean;
  /**
   * What a failure of this step (after its retries) does: `fail` ends the run (default);
   * `continue` records the failure and goes on, with `steps.<id>` = `{error}`; `{then: [...]}`
   * runs those steps with `error` in scope, then goes on (docs "Error paths").
   */
  onError?: OnError;
}

/** See {@link ActionBase.onError}. */
export type OnError = 'fail' | 'continue' | { then: Action[] };

/** Task placement relative to a reference task (the four DOM insertion positions). */
export type Position = 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';

/** Creates a task (all strings are templates). Without `referenceTaskId` it is appended to the project. */
export interface CreateTaskAction extends ActionBase {
  type: 'task.create';
  projectId: string;
  text: string;
  referenceTaskId?: string;
  placement?: Position | string;
}
/** Replaces a task's text. */
export interface UpdateTaskAction extends ActionBase {
  type: 'task.update';
  projectId: string;
  taskId: string;
  text: string;
}
/** Completes, uncompletes or deletes a task. */
export interface TaskRefAction extends ActionBase {
  type: 'task.complete' | 'task.uncomplete' | 'task.delete';
  projectId: string;
  taskId: string;
}
/** Sets a task's assignees (same semantics as `PUT .../assignees`). */
export interface AssignTaskAction extends ActionBase {
  type: 'task.assign';
  projectId: string;
  taskId: string;
  /** Handles (templates); one template may also yield an array of handles. */
  handles: string[] | string;
}
/** One end of a task date. */
export interface DatePoint {
  date: string;
  time?: string;
  timezone?: string;
}
/** Sets a task's date (same semantics as `PUT .../date`: a side not given is cleared; at least one side). */
export interface SetDateAction extends ActionBase {
  type: 'task.setDate';
  projectId: string;
  taskId: string;
  start?: DatePoint;
  end?: DatePoint;
}
/** Sets a task's note. */
export interface SetNoteAction extends ActionBase {
  type: 'task.setNote';
  projectId: string;
  taskId: string;
  value: string;
  /** Note type (default `text/plain`). */
  noteType?: string;
}
/** Sets a custom field value of a task. */
export interface SetFieldAction extends ActionBase {
  type: 'task.setField';
  projectId: string;
  taskId: string;
  fieldId: string;
  /** A template, or a literal number. */
  value: string | number | boolean;
}
/** Moves a task relative to a target task. */
export interface MoveTaskAction extends ActionBase {
  type: 'task.move';
  projectId: string;
  taskId: string;
  targetTaskId: string;
  position: Position | string;
}

/** Every task action. */
export type TaskAction =
  | CreateTaskAction
  | UpdateTaskAction
  | TaskRefAction
  | AssignTaskAction
  | SetDateAction
  | SetNoteAction
  | SetFieldAction
  | MoveTaskAction;

/** HTTP methods of the HTTP Request action. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/**
 * Sends an HTTP request. URL, query values, header values and the body are templates. The
 * output is `{status, headers, body}` (body parsed when the response is JSON).
 */
export interface HttpRequestAction extends ActionBase {
  type: 'http.request';
  method: (typeof HTTP_METHODS)[number];
  url: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /**
   * `json`: any JSON value whose strings are templates (sent as application/json);
   * `form`: string fields sent as application/x-www-form-urlencoded;
   * `raw`: one template sent as it renders, with `contentType` (default text/plain; XML, CSV...).
   */
  body?:
    | { type: 'json'; value: unknown }
    | { type: 'form'; fields: Record<string, string> }
    | { type: 'raw'; value: string; contentType?: string };
  /** Follow 301/302/303/307/308 answers, each hop checked by the host's SSRF guard again (default false). */
  followRedirects?: boolean;
  /** Most redirects followed (default 5, at most 10). */
  maxRedirects?: number;
  /** Per-attempt timeout in ms (default 30000). */
  timeoutMs?: number;
  /**
   * Default true: a 4xx response fails the step (no retry), a 5xx or 429 is retried and then
   * fails. False: every response is the step's output (network errors are still retried).
   */
  failOnHttpError?: boolean;
}

/** Runs an agent's command through the model provider; the answer is the output. */
export interface AgentCommandAction extends ActionBase {
  type: 'agent.command';
  agentId: string;
  /** Command id or name. */
  command: string;
  /** Text rendered into the command's prompt (template). */
  input?: string;
}

/**
 * Computes named values for later steps (`steps.<id>.<name>`). Values are any JSON whose strings
 * are templates; a single output tag keeps its type (numbers, lists, objects).
 */
export interface SetAction extends ActionBase {
  type: 'set';
  /** Names (letters, digits, `_`; starting with a letter or `_`) to values. */
  values: Record<string, unknown>;
}

/**
 * Answers the call that started the run (docs "Respond to webhook"): the inbound webhook caller
 * waiting on its request, or the parent run of an `automation.run` step. `body` is any JSON whose
 * strings are templates: a string is sent as text, anything else as JSON. Only the first `respond`
 * step to run answers; later ones are only journalled.
 */
export interface RespondAction extends ActionBase {
  type: 'respond';
  /** HTTP status, 200 to 599 (default 200). */
  status?: number;
  /** Header values are templates; only the names of `ALLOWED_RESPONSE_HEADERS` and most `X-` names are accepted (see definition/response-headers.ts). */
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Starts a run of another automation of the same workspace with `input` as its trigger variables
 * (docs "Run another automation"). With `wait` (default true) the step waits, durably, until that
 * run ends; its output is then `{runId, status, steps, response?}` and a child run that `failed`,
 * was `cancelled` or `skipped` fails the step. Without `wait` the output is `{runId, status}` at once.
 * The child's depth is the parent's + 1, so chains stop at the loop guard.
 */
export interface RunAutomationAction extends ActionBase {
  type: 'automation.run';
  /** The automation to run (template). */
  automationId: string;
  /** Its trigger variables: any JSON object whose strings are templates. */
  input?: Record<string, unknown>;
  wait?: boolean;
}

/** Condition operators (README "Automations"). Ordering operators compare numerically when both sides are numbers. */
export const OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'matches',
  'is_empty',
  'is_not_empty',
  'gt',
  'lt',
  'gte',
  'lte',
] as const;
/** One of {@link OPERATORS}. */
export type Operator = (typeof OPERATORS)[number];

/** One comparison. `left`/`right` strings are templates; `right` is unused by is_empty/is_not_empty. */
export interface Rule {
  left: string | number | boolean;
  operator: Operator;
  right?: string | number | boolean;
}

/** True when any group is true; a group is true when all of its rules are true. */
export interface Conditions {
  anyOf: { allOf: Rule[] }[];
}

/** Evaluates conditions and runs `then` or `else`, then continues after the branch. */
export interface BranchAction extends ActionBase {
  type: 'branch';
  conditions: Conditions;
  then?: Action[];
  else?: Action[];
}

/**
 * Pauses the run until a member approves or rejects it through the API, or the timeout
 * decides. Approved: runs `then` and continues. Rejected: `onReject: 'end'` (default) ends the
 * run with status `rejected`; `'else'` runs `else` and continues.
 */
export interface ApprovalAction extends ActionBase {
  type: 'approval';
  /** Shown to approvers (template). */
  message?: string;
  /** Handles allowed to decide; absent = any member with the Participant role or above. */
  approvers?: string[];
  /** Minutes before the timeout decides (absent = wait forever). */
  timeoutMinutes?: number;
  /** Decision taken at the timeout (default `reject`). */
  onTimeout?: 'approve' | 'reject';
  onReject?: 'end' | 'else';
  then?: Action[];
  else?: Action[];
}

/** Default and largest `maxIterations` of a loop. */
export const LOOP_LIMITS = { defaultMaxIterations: 1000, maxIterations: 10_000 } as const;

/**
 * Runs `actions` once per item of a list, in order. Inside, templates see `loop.item`,
 * `loop.index` (0-based) and `loop.count`, and `steps.<id>` of the current iteration. Each
 * iteration is journalled on its own (keys `<loopId>[<index>].<stepId>`), so a resumed run does
 * not repeat finished iterations. Output: `{count, iterations}`, one object per iteration mapping
 * the loop's direct actions' ids to their outputs.
 */
export interface LoopAction extends ActionBase {
  type: 'loop';
  /** A list, or a template yielding one (a single output tag such as `{{ trigger.items }}`, or JSON text). */
  items: string | unknown[];
  /** More items than this fail the step with `LOOP_LIMIT` (default 1000, at most 10,000). */
  maxIterations?: number;
  actions: Action[];
}

/** Waits for a duration (sum of the unit fields) or until a time (template yielding an ISO 8601 timestamp). */
export interface DelayAction extends ActionBase {
  type: 'delay';
  seconds?: number;
  minutes?: number;
  hours?: number;
  days?: number;
  until?: string;
}

/** Every action kind. */
/**
 * Runs JavaScript in the engine's sandbox (docs "Code"): `code` is the body of an async function
 * that reads `input`, `trigger`, `steps` and `run` and returns the step's output (JSON).
 */
export interface CodeAction extends ActionBase {
  type: 'code';
  /** The JavaScript, at most 100,000 characters; not a template. */
  code: string;
  /** What the code reads as `input`: any JSON whose strings are templates (the only way to hand it a secret). */
  input?: unknown;
  /** Time limit, in ms (default 1000, at most 30000). */
  timeoutMs?: number;
  /** Memory limit, in MiB (default 32, at most 128). */
  memoryMb?: number;
}

/**
 * Waits until the named event is sent to the run (`POST /api/v1/runs/{runId}/events/{event}`, or
 * a call to the run's `resumeUrl`), durably; its payload is the step's output (docs "Waiting
 * for an event"). Past `timeoutMinutes` the step fails with `EVENT_TIMEOUT`.
 */
export interface WaitEventAction extends ActionBase {
  type: 'wait.event';
  /** The event's name: letters, digits, `_`, `-`, `.`; at most 100 characters. */
  event: string;
  /** Longest wait, in minutes (none: until the event comes, the run's timeout or a cancel). */
  timeoutMinutes?: number;
}

/**
 * Runs named branches of steps at the same time (docs "Parallel steps"): `join: "all"` (default)
 * waits for every branch, `"first"` for the first to finish (the others are stopped). Output:
 * `{branches: {<name>: {<step id>: output}}, first?}`; later steps also read the branches' steps
 * as `steps.<id>`. Branches may not hold `approval` or `wait.event` steps.
 */
export interface ParallelAction extends ActionBase {
  type: 'parallel';
  /** 2 to 10 branches by name (letters, digits, `_`). */
  branches: Record<string, Action[]>;
  join?: 'all' | 'first';
}

/** The service actions beyond the task writes (fields in `service-actions.ts`). */
export type ServiceAction = ServiceActionFields & ActionBase;

export type Action =
  | TaskAction
  | ServiceAction
  | ParallelAction
  | WaitEventAction
  | HttpRequestAction
  | CodeAction
  | AgentCommandAction
  | SetAction
  | RespondAction
  | RunAutomationAction
  | BranchAction
  | ApprovalAction
  | DelayAction
  | LoopAction;
/** The `type` of every action kind. */
export type ActionType = Action['type'];

/** A whole automation as stored (ids filled in). */
export interface AutomationDefinition {
  name: string;
  description?: string;
  trigger: Trigger;
  actions: Action[];
  /**
   * Longest a run may take from its creation to its end, in ms, waits included: past it the
   * step in flight is aborted and the run fails with `RUN_TIMEOUT` (docs "Timeouts").
   */
  timeoutMs?: number;
  /**
   * How long this automation's finished runs are kept, in days, replacing the server's
   * `TASKSPACE_RUN_RETENTION_DAYS` (`days`) and `TASKSPACE_RUN_RETENTION_FAILED_DAYS`
   * (`failedDays`, failed runs) for it; each 1..3650 (docs "Automations", "Run retention").
   */
  retention?: { days?: number; failedDays?: number };
  /**
   * The most runs of this automation executing at once in one process (docs "Concurrency");
   * without it, a fair share of the engine's slots.
   */
  concurrency?: number;
}
