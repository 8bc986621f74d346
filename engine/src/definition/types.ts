/**
 * The automation definition's shared base types (README "Automations"): what every trigger and
 * every action has, conditions, and the definition itself. A leaf: it imports nothing of the
 * engine. Each kind declares its own trigger or action type beside its declaration
 * (`kinds/<category>/<kind>/`) and adds it to {@link TriggerTypes} or {@link ActionTypes}
 * (declaration merging); `kinds/index.ts` checks at compile time that those types and the list
 * of built-in kinds name the same kinds, so a new kind cannot be missed.
 *
 * Every string field marked "template" is a Liquid template rendered against the run's
 * variables (see `templates.ts`). A template that is exactly one output tag, such as
 * `"{{ trigger.count }}"`, keeps the type of its value (number, object, array) instead of
 * becoming a string.
 */

/** The trigger type recorded on a run started by another automation's `automation.run` step. */
export const SUB_RUN_TRIGGER = 'automation.run';

/** Condition operators (docs "Conditions"). Ordering operators compare numerically when both sides are numbers. */
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

/**
 * The trigger types of the built-in kinds, one entry per kind module (any key): each module adds
 * its own with `declare module` (declaration merging). {@link Trigger} is their union.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the kind modules
export interface TriggerTypes {}

/**
 * The action types of the built-in kinds, one entry per kind module (any key): each module adds
 * its own with `declare module` (declaration merging). {@link Action} is their union.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the kind modules
export interface ActionTypes {}

/** A trigger of a built-in kind. */
export type Trigger = TriggerTypes[keyof TriggerTypes];
/** Every built-in trigger kind's type. */
export type TriggerType = Trigger['type'];
/** An action of a built-in kind. */
export type Action = ActionTypes[keyof ActionTypes];
/** The `type` of every action kind. */
export type ActionType = Action['type'];

/** Limits an event trigger to one project or to the projects of one folder (and its subfolders). */
export interface TriggerScope {
  projectId?: string;
  folderId?: string;
}

/** What every trigger may have: a `filter` evaluated against `trigger.*` before a run is created (a refused event or call makes no run). */
export interface TriggerBase {
  filter?: Conditions;
}

/** Fires on a service event of the same name `T` (spec section 6.2): task and project events. */
export interface EventTriggerOf<T extends string> extends TriggerBase {
  type: T;
  /** Absent: every project of the automation's workspace. */
  scope?: TriggerScope;
  /** Task events: also start on changes made by this automation's own runs (default false). */
  includeOwnChanges?: boolean;
  /** `field.changed` only: a field name or id; only changes of that field start runs. */
  field?: string;
}

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
