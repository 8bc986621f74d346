/**
 * What one trigger or action kind declares (issue 23 "engine kinds as data"): its names for
 * people, its parameters as a TypeBox (JSON Schema draft-07) object, its output or variables, and
 * its behaviour. The published schema, `validateDefinition`, the catalogue served at
 * `GET /api/v1/automations/kinds`, the executor's table of work actions and the event matcher are
 * all derived from a list of these ({@link KindRegistry}); adding a kind is one new module.
 *
 * Property schemas inside `parameters` carry `title`, and where useful `description`, `default`,
 * `examples`, and one of the editor annotations `x-picker` / `x-editor` (see {@link Picker},
 * {@link Editor}).
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ActionKind } from './executor';
import type { ActionBase } from '../definition/types';
import type { DefinitionProblem } from '../definition/validate';
import type { RunStatus, Service } from '../ports';
import type { TriggerEvent } from './events';

/** `x-picker` values: which of the workspace's things a field names (the builder offers a picker). Published in the catalogue's `lists`. */
export const PICKERS = [
  'project',
  'folder',
  'task',
  'member',
  'agent',
  'agentCommand',
  'secret',
  'automation',
  'field',
  'connection',
  'media',
] as const;
/** One of {@link PICKERS}. */
export type Picker = (typeof PICKERS)[number];

/** The piece a kind comes from (Activepieces pieces as kinds, `engine/src/pieces`). */
export interface KindPiece {
  /** Short name (`wordpress`), the first part of the kind's type. */
  name: string;
  packageName: string;
  version: string;
  displayName: string;
  /** The connection types the piece takes (SECRET_TEXT, BASIC_AUTH, CUSTOM_AUTH, OAUTH2); empty: none. */
  authTypes: string[];
}
/** `x-editor` values: a special editor for a field's value. Published in the catalogue's `lists`. */
export const EDITORS = ['template', 'cron', 'timezone', 'code', 'conditions', 'steps', 'json'] as const;
/** One of {@link EDITORS}. */
export type Editor = (typeof EDITORS)[number];

/** An action of kind `T` with the parameters `P` (plus the fields every action has). */
export type ActionOf<T extends string, P extends TObject> = ActionBase & { type: T } & Static<P>;

/** What every kind declares for people and for the builder. */
export interface KindDescription<T extends string = string, P extends TObject = TObject> {
  /** The kind's `type` in a definition, e.g. `http.request`. */
  type: T;
  /** Human label, e.g. "Send an HTTP request". */
  title: string;
  /** One line for the kind picker. */
  summary: string;
  /** Group in the kind picker: Tasks, Projects, Flow, HTTP, AI, Data, Inbound, Time, Runs. */
  category: string;
  /** A lucide icon name, kebab-case (`globe`, `list-checks`). */
  icon: string;
  /** The kind's own fields (not `type` nor the fields every action has), draft-07 via TypeBox. */
  parameters: P;
  /**
   * Further schema keywords on the whole object (e.g. `anyOf` of `required` groups, `oneOf`),
   * applied with `parameters`.
   */
  constraints?: Record<string, unknown>;
  /** Shape of the step's output or of the trigger variables, for the data picker. */
  output?: TSchema;
  /** Kinds made from an Activepieces piece: which one. */
  piece?: KindPiece;
}

/** The `trigger.*` names of one trigger kind. */
export interface TriggerVariableNames {
  /** The names the trigger always or sometimes gives (optional ones included). */
  names: readonly string[];
  /**
   * True when a run may have further names not known when the automation is saved: a webhook's
   * body fields, a completed task's custom field values.
   */
  open: boolean;
}

/**
 * Where a trigger's runs come from: `event` (a service event of the same type, with `scope`),
 * `run-event` (another automation's run), `schedule` (the engine's ticks), `inbound` (a call to
 * the automation's inbound URL: webhook, form), `poll` (the host polls a piece's polling trigger,
 * `engine/src/pieces`, and starts a run per new item), `piece-webhook` (a piece's webhook trigger:
 * the host registers the automation's piece hook URL with the piece's service through the
 * trigger's `onEnable`, and each call to that URL starts a run per item the trigger's `run` returns),
 * `call` (the host starts a run when its caller asks for one: an assistant's tool call at the MCP
 * endpoint, `mcp`).
 */
export type TriggerSource = 'event' | 'run-event' | 'schedule' | 'inbound' | 'poll' | 'piece-webhook' | 'call';

/** A trigger kind. */
export interface TriggerKindDeclaration<T extends string = string> extends KindDescription<T> {
  kind: 'trigger';
  source: TriggerSource;
  /**
   * Task-event triggers: the kind takes `includeOwnChanges` (default false), and an event caused
   * by the automation's own run (`TriggerEvent.causedBy`) starts no run without it.
   */
  ownChanges?: boolean;
  /** The variables of its runs; a function when they depend on the trigger (a form's fields). */
  variables: TriggerVariableNames | ((trigger: Record<string, unknown>) => TriggerVariableNames);
  /**
   * Event and run-event kinds: the run variables when `event` (already of this type) matches
   * `trigger`, undefined when it does not. Default: the event's payload.
   */
  match?(
    event: TriggerEvent,
    trigger: Record<string, unknown>,
    service: Service,
  ): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;
  /** Save checks the schema cannot express; paths start at `trigger`. */
  check?(trigger: Record<string, unknown>): DefinitionProblem[];
  /**
   * The variables of one run of this kind, shaped exactly as its real events give them (docs
   * "Automations", "Samples"; `test/automations/trigger-examples.test.ts` holds them to real
   * events): what the builder tests with before the automation has a run of its own. Ids in it
   * are placeholders (`example-…`) that the builder swaps for the automation's own project, task
   * and members. Absent where the variables depend on the trigger alone (a form's fields).
   */
  example?: Record<string, unknown>;
  /** Checked by a schema of its own, compiled on first use (see {@link ActionKindDeclaration.ownSchema}). */
  ownSchema?: boolean;
}

/** An action kind. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds kinds of any parameters
export interface ActionKindDeclaration<T extends string = string, P extends TObject = any> extends KindDescription<T, P> {
  kind: 'action';
  /** True when testing the step changes something outside the run. */
  sideEffects: boolean;
  /** Whether the common `timeoutMs` (one attempt's limit) applies: steps that do work. */
  timeout?: boolean;
  /** Properties holding step lists (`then`, `else`, `actions`, `branches`), for control-flow kinds. */
  nested?: readonly string[];
  /** Properties that are not templates (not checked as Liquid at save), beside `nested`. */
  literal?: readonly string[];
  /**
   * Work kinds: renders the action and does the work. Absent on control-flow kinds, which the
   * executor runs itself (`steps/control-steps.ts`).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind's executor takes its own parameters
  executor?: ActionKind<ActionOf<NoInfer<T>, NoInfer<P>>, any>;
  /** Save checks the schema cannot express; `path` is the action's path (`actions[2]`). */
  check?(action: Record<string, unknown>, path: (string | number)[]): DefinitionProblem[];
  /**
   * Checked by a schema of its own, compiled when a definition first uses the kind, instead of a
   * clause in the published definition schema: for the hundreds of kinds made from pieces, whose
   * clauses together would take ajv many seconds to compile. The catalogue still lists its
   * parameters; the published schema only knows its `type`.
   */
  ownSchema?: boolean;
}

/** Any kind. */
export type KindDeclaration = TriggerKindDeclaration | ActionKindDeclaration;

/** One kind as the catalogue lists it (`GET /api/v1/automations/kinds`). */
export interface KindInfo {
  type: string;
  title: string;
  summary: string;
  category: string;
  icon: string;
  sideEffects: boolean;
  parameters: Record<string, unknown>;
  output?: Record<string, unknown>;
  /** Triggers: the `trigger.*` names. */
  variables?: string[];
  /** Triggers: the variables of one run, shaped as real events give them ({@link TriggerKindDeclaration.example}). */
  example?: Record<string, unknown>;
  /** Actions holding step lists: the property names. */
  nested?: string[];
  /** Kinds made from a piece: which one. */
  piece?: KindPiece;
}

/**
 * The names a client of the catalogue reads, published by the engine (issue 36) instead of copied
 * into the client: the values of `x-editor` and `x-picker`, the icons the kinds name, and the run
 * statuses.
 */
export interface KindLists {
  /** Every `x-editor` value ({@link EDITORS}). */
  editors: Editor[];
  /** Every `x-picker` value ({@link PICKERS}). */
  pickers: Picker[];
  /** The icons the catalogue's kinds name, sorted, each once (lucide names, kebab-case). */
  icons: string[];
  /** Every run status, in lifecycle order (`RUN_STATUSES`). */
  runStatuses: RunStatus[];
  /** The statuses after which a run never changes (`FINAL_RUN_STATUSES`). */
  finalRunStatuses: RunStatus[];
}

/** The catalogue of kinds: `GET /api/v1/automations/kinds`. */
export interface KindCatalogue {
  triggers: KindInfo[];
  actions: KindInfo[];
  /** The fields every action has (`id`, `name`, `retry`, `disabled`, `onError`, `timeoutMs`). */
  commonActionParameters: Record<string, unknown>;
  lists: KindLists;
}

/** Declares a trigger kind (identity; keeps the literal `type`). */
export function defineTrigger<const T extends string>(kind: Omit<TriggerKindDeclaration<T>, 'kind'>): TriggerKindDeclaration<T> {
  return { kind: 'trigger', ...kind };
}

/** Declares an action kind (identity; keeps the literal `type`). */
export function defineAction<const T extends string, P extends TObject>(
  kind: Omit<ActionKindDeclaration<T, P>, 'kind'>,
): ActionKindDeclaration<T, P> {
  return { kind: 'action', ...kind };
}
