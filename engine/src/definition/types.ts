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
import type { OPERATORS } from '../kinds/parts';
import type { TASK_EVENT_KINDS } from '../kinds/triggers/task-events';
import type { PROJECT_EVENT_KINDS } from '../kinds/triggers/project-events';
import type { AUTOMATION_FAILED, APPROVAL_REQUESTED } from '../kinds/triggers/run-events';
import type { WEBHOOK_METHODS, WebhookVerify } from '../kinds/triggers/webhook';
import type { FormTriggerFields } from '../kinds/triggers/form';
import type { TaskAction } from '../kinds/actions/task-writes';
import type { HttpRequestAction } from '../kinds/actions/http-request';
import type { AgentCommandAction } from '../kinds/actions/agent-command';
import type { EmailSendAction } from '../kinds/actions/email-send';
import type { CodeAction, RespondAction, SetAction } from '../kinds/actions/data';

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
} from '../kinds/actions/task-writes';
export type { HttpRequestAction } from '../kinds/actions/http-request';
export type { AgentCommandAction } from '../kinds/actions/agent-command';
export type { CodeAction, RespondAction, SetAction } from '../kinds/actions/data';
export type { WebhookVerify } from '../kinds/triggers/webhook';
export type { FormField } from '../kinds/triggers/form';

/** The trigger type recorded on a run started by another automation's `automation.run` step. */
export const SUB_RUN_TRIGGER = 'automation.run';

/** A trigger fired by a service event (task and project events). */
export type EventTriggerType = (typeof TASK_EVENT_KINDS)[number]['type'] | (typeof PROJECT_EVENT_KINDS)[number]['type'];
/** A trigger fired by another automation's run. */
export type RunEventTriggerType = typeof AUTOMATION_FAILED | typeof APPROVAL_REQUESTED;
/** Every built-in trigger kind. */
export type TriggerType = EventTriggerType | RunEventTriggerType | 'schedule' | 'webhook' | 'form';

/** Limits an event trigger to one project or to the projects of one folder (and its subfolders). */
export interface TriggerScope {
  projectId?: string;
  folderId?: string;
}

/** What every trigger may have: a `filter` evaluated against `trigger.*` before a run is created (a refused event or call makes no run). */
export interface TriggerBase {
  filter?: Conditions;
}

/** Fires on a service event of the same name (spec section 6.2). */
export interface EventTrigger extends TriggerBase {
  type: EventTriggerType;
  /** Absent: every project of the automation's workspace. */
  scope?: TriggerScope;
  /** Task events: also start on changes made by this automation's own runs (default false). */
  includeOwnChanges?: boolean;
  /** `field.changed` only: a field name or id; only changes of that field start runs. */
  field?: string;
}

/**
 * Fires on a time schedule: exactly one of `cron` (5 or 6 fields, croner syntax) or
 * `everyMinutes` (slots aligned to the Unix epoch). Each slot fires at most once, also
 * across restarts; after downtime only the latest missed slot fires.
 */
export interface ScheduleTrigger extends TriggerBase {
  type: 'schedule';
  cron?: string;
  everyMinutes?: number;
  /** IANA time zone for `cron` (default UTC). */
  timezone?: string;
}

/** HTTP methods an inbound webhook URL may accept. */
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/**
 * Fires when the automation's inbound URL (`/webhooks/<id>`) is called with one of `methods`
 * (default `["POST"]`). `requireToken` makes the URL also demand `Authorization: Bearer <token>`
 * (spec section 5.3); `verify` checks the sender's signature.
 */
export interface WebhookTrigger extends TriggerBase {
  type: 'webhook';
  requireToken?: boolean;
  methods?: WebhookMethod[];
  verify?: WebhookVerify;
}

/** Fires when the automation's hosted form (`/forms/<id>`) is submitted (see `kinds/triggers/form.ts`). */
export type FormTrigger = TriggerBase & { type: 'form' } & FormTriggerFields;

/**
 * Fires on another automation's run of the workspace (`automationId` limits it to one
 * automation; never on the automation's own runs): `automation.failed` (a run failed) or
 * `approval.requested` (a run waits for an approval). Variables: see `kinds/triggers/run-events.ts`.
 */
export interface AutomationFailedTrigger extends TriggerBase {
  type: RunEventTriggerType;
  automationId?: string;
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

/** One of the condition operators. */
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
  | EmailSendAction
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
