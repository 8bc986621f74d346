/**
 * The automation definition: one trigger plus an ordered list of actions, stored as JSON and
 * validated against {@link AUTOMATION_SCHEMA} (README "Automations").
 *
 * Every string field marked "template" is a Liquid template rendered against the run's
 * variables (see `templates.ts`). A template that is exactly one output tag, such as
 * `"{{ trigger.count }}"`, keeps the type of its value (number, object, array) instead of
 * becoming a string.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { RE2JS } from 're2js';
import { Cron } from 'croner';

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

/**
 * Fires when the automation's inbound URL (`POST /webhooks/<id>`) receives a JSON object.
 * `requireToken` makes the URL also demand `Authorization: Bearer <token>` (spec section 5.3).
 */
export interface WebhookTrigger {
  type: 'webhook';
  requireToken?: boolean;
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
}

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
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

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
   * `form`: string fields sent as application/x-www-form-urlencoded.
   */
  body?: { type: 'json'; value: unknown } | { type: 'form'; fields: Record<string, string> };
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
  /** Header values are templates; a few names are refused (see {@link FORBIDDEN_RESPONSE_HEADERS}). */
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Response headers an automation may not set: those that frame the message (length, encoding,
 * connection), set cookies on the service's origin, or weaken the security headers the service
 * sends with every automation response.
 */
export const FORBIDDEN_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'content-security-policy',
  'keep-alive',
  'proxy-authenticate',
  'set-cookie',
  'strict-transport-security',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-content-type-options',
]);

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
export type Action =
  | TaskAction
  | HttpRequestAction
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
}

const STEP_ID = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
/** Names of computed values, form fields and sub-run inputs. */
const VALUE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
const templ = { type: 'string', maxLength: 20000 } as const;
const idish = { type: 'string', minLength: 1, maxLength: 2000 } as const;
const retry = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxAttempts: { type: 'integer', minimum: 1, maximum: 20 },
    initialDelayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    factor: { type: 'number', minimum: 1, maximum: 10 },
    maxDelayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 },
  },
} as const;
const base = {
  id: { type: 'string', pattern: STEP_ID },
  name: { type: 'string', maxLength: 200 },
  retry,
} as const;

/** One action kind as an if/then clause: the schema applies only to actions of that type, so errors name the right fields. */
function action(type: string | readonly string[], required: string[], properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const kind = typeof type === 'string' ? { const: type } : { enum: type };
  return {
    if: { required: ['type'], properties: { type: kind } },
    then: { type: 'object', required: ['type', ...required], additionalProperties: false, properties: { type: kind, ...base, ...properties }, ...extra },
  };
}

const datePoint = {
  type: 'object',
  required: ['date'],
  additionalProperties: false,
  properties: { date: templ, time: templ, timezone: templ },
} as const;
const scalarTemplate = { type: ['string', 'number', 'boolean'] } as const;
const actionList = { type: 'array', maxItems: 200, items: { $ref: '#/definitions/action' } } as const;

/**
 * The published JSON Schema (draft-07) of an automation definition. Served by the server at
 * `GET /api/v1/automations/schema`. {@link validateDefinition} applies it plus the checks a
 * schema cannot express (unique step ids, cron syntax, template syntax, static regexes).
 */
export const AUTOMATION_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://taskspace.dev/schemas/automation.json',
  title: 'Taskspace automation',
  type: 'object',
  required: ['name', 'trigger', 'actions'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$' },
    description: { type: 'string', maxLength: 2000 },
    trigger: { $ref: '#/definitions/trigger' },
    actions: actionList,
  },
  definitions: {
    trigger: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: TRIGGER_TYPES } },
      allOf: [
        {
          if: { required: ['type'], properties: { type: { enum: EVENT_TRIGGER_TYPES } } },
          then: {
            additionalProperties: false,
            properties: {
              type: {},
              scope: {
                type: 'object',
                additionalProperties: false,
                maxProperties: 1,
                properties: { projectId: idish, folderId: idish },
              },
            },
          },
        },
        {
          if: { required: ['type'], properties: { type: { enum: RUN_EVENT_TRIGGER_TYPES } } },
          then: { additionalProperties: false, properties: { type: {}, automationId: idish } },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'schedule' } } },
          then: {
            additionalProperties: false,
            properties: {
              type: {},
              cron: { type: 'string', minLength: 1, maxLength: 200 },
              everyMinutes: { type: 'integer', minimum: 1, maximum: 525_600 },
              timezone: { type: 'string', minLength: 1, maxLength: 100 },
            },
            oneOf: [{ required: ['cron'] }, { required: ['everyMinutes'] }],
          },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'webhook' } } },
          then: { additionalProperties: false, properties: { type: {}, requireToken: { type: 'boolean' } } },
        },
        {
          if: { required: ['type'], properties: { type: { const: 'form' } } },
          then: {
            required: ['title', 'fields'],
            additionalProperties: false,
            properties: {
              type: {},
              title: { type: 'string', minLength: 1, maxLength: 200 },
              description: { type: 'string', maxLength: 2000 },
              fields: { type: 'array', minItems: 1, maxItems: 50, items: { $ref: '#/definitions/formField' } },
              submitLabel: { type: 'string', minLength: 1, maxLength: 100 },
              thankYou: { type: 'string', maxLength: 2000 },
              redirectUrl: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
              requireToken: { type: 'boolean' },
            },
          },
        },
      ],
    },
    formField: {
      type: 'object',
      required: ['name', 'label', 'type'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', pattern: VALUE_NAME },
        label: { type: 'string', minLength: 1, maxLength: 200 },
        type: { enum: FORM_FIELD_TYPES },
        required: { type: 'boolean' },
        options: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } },
        multiline: { type: 'boolean' },
        help: { type: 'string', maxLength: 500 },
        placeholder: { type: 'string', maxLength: 200 },
      },
    },
    rule: {
      type: 'object',
      required: ['left', 'operator'],
      additionalProperties: false,
      properties: { left: scalarTemplate, operator: { enum: OPERATORS }, right: scalarTemplate },
    },
    conditions: {
      type: 'object',
      required: ['anyOf'],
      additionalProperties: false,
      properties: {
        anyOf: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'object',
            required: ['allOf'],
            additionalProperties: false,
            properties: { allOf: { type: 'array', minItems: 1, maxItems: 50, items: { $ref: '#/definitions/rule' } } },
          },
        },
      },
    },
    action: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          enum: [
            'task.create',
            'task.update',
            'task.complete',
            'task.uncomplete',
            'task.delete',
            'task.assign',
            'task.setDate',
            'task.setNote',
            'task.setField',
            'task.move',
            'http.request',
            'agent.command',
            'set',
            'respond',
            'automation.run',
            'branch',
            'approval',
            'delay',
            'loop',
          ],
        },
      },
      allOf: [
        action('task.create', ['projectId', 'text'], { projectId: templ, text: templ, referenceTaskId: templ, placement: templ }),
        action('task.update', ['projectId', 'taskId', 'text'], { projectId: templ, taskId: templ, text: templ }),
        action(['task.complete', 'task.uncomplete', 'task.delete'], ['projectId', 'taskId'], { projectId: templ, taskId: templ }),
        action('task.assign', ['projectId', 'taskId', 'handles'], {
          projectId: templ,
          taskId: templ,
          handles: { anyOf: [templ, { type: 'array', maxItems: 100, items: templ }] },
        }),
        action(
          'task.setDate',
          ['projectId', 'taskId'],
          { projectId: templ, taskId: templ, start: datePoint, end: datePoint },
          { anyOf: [{ required: ['start'] }, { required: ['end'] }] },
        ),
        action('task.setNote', ['projectId', 'taskId', 'value'], { projectId: templ, taskId: templ, value: templ, noteType: templ }),
        action('task.setField', ['projectId', 'taskId', 'fieldId', 'value'], {
          projectId: templ,
          taskId: templ,
          fieldId: templ,
          value: scalarTemplate,
        }),
        action('task.move', ['projectId', 'taskId', 'targetTaskId', 'position'], {
          projectId: templ,
          taskId: templ,
          targetTaskId: templ,
          position: templ,
        }),
        action('http.request', ['method', 'url'], {
          method: { enum: HTTP_METHODS },
          url: { type: 'string', minLength: 1, maxLength: 8000 },
          query: { type: 'object', maxProperties: 100, additionalProperties: templ },
          headers: { type: 'object', maxProperties: 100, additionalProperties: templ },
          body: {
            oneOf: [
              { type: 'object', required: ['type', 'value'], additionalProperties: false, properties: { type: { const: 'json' }, value: {} } },
              {
                type: 'object',
                required: ['type', 'fields'],
                additionalProperties: false,
                properties: { type: { const: 'form' }, fields: { type: 'object', maxProperties: 200, additionalProperties: templ } },
              },
            ],
          },
          timeoutMs: { type: 'integer', minimum: 1, maximum: 300_000 },
          failOnHttpError: { type: 'boolean' },
        }),
        action('agent.command', ['agentId', 'command'], { agentId: templ, command: templ, input: templ }),
        action('set', ['values'], {
          values: {
            type: 'object',
            minProperties: 1,
            maxProperties: 100,
            propertyNames: { pattern: VALUE_NAME },
            additionalProperties: {},
          },
        }),
        action('respond', [], {
          status: { type: 'integer', minimum: 200, maximum: 599 },
          headers: { type: 'object', maxProperties: 50, propertyNames: { pattern: HEADER_NAME }, additionalProperties: templ },
          body: {},
        }),
        action('automation.run', ['automationId'], {
          automationId: templ,
          input: { type: 'object', maxProperties: 100, propertyNames: { pattern: VALUE_NAME }, additionalProperties: {} },
          wait: { type: 'boolean' },
        }),
        action('branch', ['conditions'], { conditions: { $ref: '#/definitions/conditions' }, then: actionList, else: actionList }),
        action('approval', [], {
          message: templ,
          approvers: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 100 } },
          timeoutMinutes: { type: 'number', exclusiveMinimum: 0, maximum: 525_600 },
          onTimeout: { enum: ['approve', 'reject'] },
          onReject: { enum: ['end', 'else'] },
          then: actionList,
          else: actionList,
        }),
        action('loop', ['items', 'actions'], {
          items: { anyOf: [templ, { type: 'array', maxItems: LOOP_LIMITS.maxIterations }] },
          maxIterations: { type: 'integer', minimum: 1, maximum: LOOP_LIMITS.maxIterations },
          actions: actionList,
        }),
        action(
          'delay',
          [],
          {
            seconds: { type: 'number', minimum: 0 },
            minutes: { type: 'number', minimum: 0 },
            hours: { type: 'number', minimum: 0 },
            days: { type: 'number', minimum: 0, maximum: 3650 },
            until: templ,
          },
          { anyOf: [{ required: ['seconds'] }, { required: ['minutes'] }, { required: ['hours'] }, { required: ['days'] }, { required: ['until'] }] },
        ),
      ],
    },
  },
} as const;

/** One problem found in a definition. `path` uses dots and brackets, e.g. `actions[1].url`. */
export interface DefinitionProblem {
  path: string;
  /** Machine-readable reason: required, invalid_type, invalid_value, duplicate, invalid_format, ... */
  reason: string;
  message: string;
}

/** Result of {@link validateDefinition}. */
export type ValidationResult = { ok: true; definition: AutomationDefinition } | { ok: false; problems: DefinitionProblem[] };

const ajv = new Ajv({ allErrors: false, strict: false, verbose: true });
const schemaCheck = ajv.compile(AUTOMATION_SCHEMA);

/**
 * The machine-readable `reason` for each JSON-schema (ajv) keyword, shared with the server's
 * request validation so both report failures the same way (README "Errors").
 */
export const SCHEMA_REASONS: Readonly<Record<string, string>> = {
  required: 'required',
  format: 'invalid_format',
  type: 'invalid_type',
  enum: 'invalid_value',
  const: 'invalid_value',
  oneOf: 'invalid_value',
  anyOf: 'invalid_value',
  additionalProperties: 'unknown_field',
  pattern: 'invalid_format',
  maxLength: 'too_long',
  minLength: 'too_short',
  maxItems: 'too_many',
  minItems: 'too_few',
  maximum: 'too_large',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  maxProperties: 'too_many',
  minProperties: 'too_few',
  propertyNames: 'invalid_format',
  uniqueItems: 'duplicate',
};

function pathOf(segments: (string | number)[]): string {
  return segments.reduce<string>((acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function problemOf(error: ErrorObject): DefinitionProblem {
  const segments: (string | number)[] = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
  const extra = (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
    (error.params as { additionalProperty?: string }).additionalProperty;
  if (extra) segments.push(extra);
  const path = pathOf(segments) || 'definition';
  const name = error.propertyName;
  const message = name === undefined ? `${path} ${error.message ?? 'is invalid'}` : `${path}: the name '${name}' ${error.message ?? 'is invalid'}`;
  return { path, reason: SCHEMA_REASONS[error.keyword] ?? error.keyword, message };
}

/**
 * The most useful schema problem: an "one of these fields" group (`anyOf`/`oneOf` of
 * `required`) as one message, else the first real error (ajv adds an `if` error after a
 * failed `then`).
 */
function bestProblem(errors: ErrorObject[]): DefinitionProblem {
  const group = errors.find((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && Array.isArray(e.schema));
  const branches = group ? (group.schema as { required?: string[]; properties?: { type?: { const?: unknown } } }[]) : [];
  // A union told apart by `type` (an HTTP body: json or form): name each shape.
  if (group && branches.every((b) => typeof b.properties?.type?.const === 'string')) {
    const base = problemOf({ ...group, params: {} });
    const shapes = branches.map((b) => `{type: "${String(b.properties!.type!.const)}"${(b.required ?? []).filter((f) => f !== 'type').map((f) => `, ${f}`).join('')}}`);
    return { path: base.path, reason: 'invalid_value', message: `${base.path} must be one of: ${shapes.join(' or ')}` };
  }
  const alternatives = branches.map((b) => b.required?.[0]);
  if (group && alternatives.every((a) => a !== undefined)) {
    const base = problemOf({ ...group, params: {} });
    const exactlyOne = group.keyword === 'oneOf';
    return { path: base.path, reason: 'required', message: `${base.path} needs ${exactlyOne ? 'exactly ' : ''}one of: ${alternatives.join(', ')}` };
  }
  return problemOf(errors.find((e) => e.keyword !== 'if') ?? errors[0]!);
}

/**
 * The action id of a journal key: keys inside loop iterations are `<loopKey>[<index>].<id>`
 * (step ids hold no dots), top-level keys are the id itself.
 */
export function actionIdOf(stepKey: string): string {
  return stepKey.slice(stepKey.lastIndexOf('.') + 1);
}

/** Calls `visit` for every action of the tree in document order, with its path. */
export function walkActions(actions: Action[], visit: (action: Action, path: (string | number)[]) => void, prefix: (string | number)[] = ['actions']): void {
  actions.forEach((a, i) => {
    const path = [...prefix, i];
    visit(a, path);
    if (a.type === 'branch' || a.type === 'approval') {
      if (a.then) walkActions(a.then, visit, [...path, 'then']);
      if (a.else) walkActions(a.else, visit, [...path, 'else']);
    }
    if (a.type === 'loop') walkActions(a.actions, visit, [...path, 'actions']);
  });
}

/**
 * Validates a definition against {@link AUTOMATION_SCHEMA} and the rules the schema cannot
 * express, and returns a normalized copy (missing step ids filled in as `step<n>`, n counting
 * all actions in document order). `checkTemplate` checks one template's syntax (see
 * `Templates.check`); without it templates are not checked.
 * Never throws on bad input.
 */
export function validateDefinition(input: unknown, checkTemplate?: (template: string) => string | undefined): ValidationResult {
  // Fill ids first so that the schema sees complete actions (ids are optional on input).
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(input ?? null));
  } catch {
    return { ok: false, problems: [{ path: 'definition', reason: 'invalid_type', message: 'definition must be JSON' }] };
  }
  const used = new Set<string>();
  const problems: DefinitionProblem[] = [];
  const raw = copy as { actions?: unknown };
  if (copy && typeof copy === 'object' && Array.isArray(raw.actions)) {
    const all: Record<string, unknown>[] = [];
    const collect = (list: unknown[]) => {
      for (const a of list) {
        if (!a || typeof a !== 'object') continue;
        const rec = a as Record<string, unknown>;
        all.push(rec);
        if (Array.isArray(rec.then)) collect(rec.then);
        if (Array.isArray(rec.else)) collect(rec.else);
        if (Array.isArray(rec.actions)) collect(rec.actions);
      }
    };
    collect(raw.actions);
    for (const a of all) if (typeof a.id === 'string') used.add(a.id);
    let n = 0;
    for (const a of all) {
      if (a.id !== undefined) continue;
      do n++;
      while (used.has(`step${n}`));
      a.id = `step${n}`;
      used.add(a.id as string);
    }
  }
  if (!schemaCheck(copy)) return { ok: false, problems: [bestProblem(schemaCheck.errors ?? [])] };
  const definition = copy as AutomationDefinition;

  const seen = new Set<string>();
  walkActions(definition.actions, (a, path) => {
    if (seen.has(a.id)) problems.push({ path: pathOf([...path, 'id']), reason: 'duplicate', message: `step id '${a.id}' is used twice` });
    seen.add(a.id);
    const check = (value: unknown, where: (string | number)[]) => {
      if (typeof value === 'string' && checkTemplate) {
        const error = checkTemplate(value);
        if (error) problems.push({ path: pathOf(where), reason: 'invalid_template', message: `${pathOf(where)}: ${error}` });
      } else if (Array.isArray(value)) value.forEach((v, i) => check(v, [...where, i]));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) check(v, [...where, k]);
    };
    for (const [key, value] of Object.entries(a)) {
      if (key === 'id' || key === 'type' || key === 'name' || key === 'retry' || key === 'then' || key === 'else' || key === 'approvers') continue;
      if (a.type === 'loop' && key === 'actions') continue;
      check(value, [...path, key]);
    }
    if (a.type === 'delay' && a.until !== undefined && [a.seconds, a.minutes, a.hours, a.days].some((v) => v !== undefined)) {
      problems.push({ path: pathOf([...path, 'until']), reason: 'invalid_value', message: `${pathOf(path)}: give either until or a duration, not both` });
    }
    if (a.type === 'respond') {
      for (const name of Object.keys(a.headers ?? {})) {
        if (FORBIDDEN_RESPONSE_HEADERS.has(name.toLowerCase())) {
          const where = pathOf([...path, 'headers', name]);
          problems.push({ path: where, reason: 'forbidden_header', message: `${where}: an automation may not set the ${name} header` });
        }
      }
    }
    if (a.type === 'branch') {
      a.conditions.anyOf.forEach((g, gi) =>
        g.allOf.forEach((r, ri) => {
          if (r.operator === 'matches' && typeof r.right === 'string' && !r.right.includes('{')) {
            try {
              regexOf(r.right);
            } catch (error) {
              const where = pathOf([...path, 'conditions', 'anyOf', gi, 'allOf', ri, 'right']);
              problems.push({ path: where, reason: 'invalid_format', message: `${where}: ${(error as Error).message}` });
            }
          }
        }),
      );
    }
  });
  const trigger = definition.trigger;
  if (trigger.type === 'schedule' && trigger.cron !== undefined) {
    try {
      new Cron(trigger.cron, { paused: true, timezone: trigger.timezone });
    } catch (error) {
      problems.push({ path: 'trigger.cron', reason: 'invalid_format', message: `trigger.cron: ${(error as Error).message}` });
    }
  }
  if (trigger.type === 'schedule' && trigger.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: trigger.timezone });
    } catch {
      problems.push({ path: 'trigger.timezone', reason: 'invalid_value', message: `trigger.timezone: unknown time zone '${trigger.timezone}'` });
    }
  }
  if (trigger.type === 'form') problems.push(...formProblems(trigger));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition };
}

/** What the schema cannot say about a form: unique field names, options exactly on `choice` fields. */
function formProblems(form: FormTrigger): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const names = new Set<string>();
  if (form.redirectUrl !== undefined && !URL.canParse(form.redirectUrl)) {
    problems.push({ path: 'trigger.redirectUrl', reason: 'invalid_format', message: 'trigger.redirectUrl must be an absolute http(s) URL' });
  }
  form.fields.forEach((f, i) => {
    const at = (key: string) => pathOf(['trigger', 'fields', i, key]);
    if (names.has(f.name)) problems.push({ path: at('name'), reason: 'duplicate', message: `${at('name')}: the field name '${f.name}' is used twice` });
    names.add(f.name);
    if (f.type === 'choice' && f.options === undefined) problems.push({ path: at('options'), reason: 'required', message: `${at('options')} is required for a choice field` });
    if (f.type !== 'choice' && f.options !== undefined) problems.push({ path: at('options'), reason: 'unknown_field', message: `${at('options')} only applies to choice fields` });
    if (f.type !== 'text' && f.multiline !== undefined) problems.push({ path: at('multiline'), reason: 'unknown_field', message: `${at('multiline')} only applies to text fields` });
  });
  return problems;
}

/** True when any action of the tree (branches, approvals and loops included) is of `type`. */
export function usesAction(actions: Action[], type: ActionType): boolean {
  let found = false;
  walkActions(actions, (a) => {
    if (a.type === type) found = true;
  });
  return found;
}

/** A compiled `matches` pattern. */
export interface Pattern {
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

/**
 * The pattern of a `matches` operand: `/source/flags` (flags `i`, `m`, `s`; `g`, `u`, `y`, `d`
 * are accepted and ignored) or a bare source. Compiled with RE2 (re2js), which matches in time
 * linear in the text, so a pattern cannot stall the server however the text is crafted (texts
 * often come from inbound webhook bodies). RE2 has no backreferences or lookarounds.
 * @throws Error when the pattern is invalid or uses what RE2 does not support.
 */
export function regexOf(pattern: string): Pattern {
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(pattern);
  const source = literal ? literal[1]! : pattern;
  const flags = literal ? literal[2]! : '';
  const compiled = RE2JS.compile(
    source,
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0),
  );
  return { test: (text) => compiled.matcher(text).find() };
}
