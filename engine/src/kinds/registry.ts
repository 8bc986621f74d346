/**
 * A set of trigger and action kinds and everything derived from it: the published schema, the
 * definition validator, the catalogue, the work actions the executor runs and the event matcher.
 * The engine builds one from `EngineOptions.kinds` (default {@link DEFAULT_KINDS}).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { ActionKind } from './executor';
import type { AutomationDefinition, Trigger } from '../definition/types';
import { checkDefinition, type DefinitionRules, type ValidationResult } from '../definition/validate';
import { FINAL_RUN_STATUSES, RUN_STATUSES, type Service } from '../ports';
import type { TriggerEvent } from './events';
import {
  EDITORS,
  PICKERS,
  type ActionKindDeclaration,
  type KindCatalogue,
  type KindDeclaration,
  type KindInfo,
  type TriggerKindDeclaration,
  type TriggerVariableNames,
} from './kind';
import { actionClause, buildAutomationSchema, COMMON_ACTION_PARAMETERS, triggerClause, triggerParameters } from './schema';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The kinds of one engine (see the module comment). */
export class KindRegistry implements DefinitionRules {
  private readonly triggerKinds = new Map<string, TriggerKindDeclaration>();
  private readonly actionKinds = new Map<string, ActionKindDeclaration>();
  /** The published JSON Schema (draft-07) of a definition, plain JSON (`GET /api/v1/automations/schema`). */
  readonly schema: ReturnType<typeof buildAutomationSchema>;
  /** {@link schemaCheck}, once compiled. */
  private compiled: ValidateFunction | undefined;
  /** The ajv instance of {@link schemaCheck} and {@link stepCheck}. */
  private ajv: Ajv | undefined;
  /** {@link stepCheck}'s compiled schemas, by kind type. */
  private readonly stepChecks = new Map<string, ValidateFunction>();
  /** {@link catalogue}, once made. */
  private listed: KindCatalogue | undefined;
  /** The kinds that do work, by type, for the executor. */
  readonly workActions: Readonly<Record<string, ActionKind<never, unknown>>>;

  /** @throws Error when two kinds share a type. */
  constructor(kinds: readonly KindDeclaration[]) {
    for (const kind of kinds) {
      const table: Map<string, KindDeclaration> = kind.kind === 'trigger' ? this.triggerKinds : this.actionKinds;
      if (table.has(kind.type)) throw new Error(`two ${kind.kind} kinds are named '${kind.type}'`);
      table.set(kind.type, kind);
    }
    this.schema = buildAutomationSchema([...this.triggerKinds.values()], [...this.actionKinds.values()]);
    const work: Record<string, ActionKind<never, unknown>> = {};
    for (const kind of this.actionKinds.values()) if (kind.executor) work[kind.type] = kind.executor;
    this.workActions = work;
  }

  /**
   * The schema compiled (ajv), on first use: compiling takes about a third of a second, which a
   * process that never validates a definition (or a test that starts many) should not pay at load.
   */
  get schemaCheck(): ValidateFunction {
    this.ajv ??= new Ajv({ allErrors: false, strict: false, verbose: true });
    this.compiled ??= this.ajv.compile(this.schema);
    return this.compiled;
  }

  /**
   * The compiled schema of one step (or, with `trigger`, the trigger) of a kind with `ownSchema`,
   * on first use; its nested steps (`onError.then`) and conditions refer to the definition schema's.
   */
  stepCheck(type: string, trigger = false): ValidateFunction {
    const key = `${trigger ? 'trigger' : 'action'}:${type}`;
    let check = this.stepChecks.get(key);
    if (!check) {
      const triggerKind = trigger ? this.trigger(type) : undefined;
      const actionKind = trigger ? undefined : this.action(type);
      if (!triggerKind && !actionKind) throw new Error(`no ${trigger ? 'trigger' : 'action'} kind '${type}'`);
      const clause = triggerKind ? triggerClause(triggerKind).then : actionClause(actionKind!).then;
      const root = String(this.schema.$id);
      const schema = JSON.parse(JSON.stringify(clause).replace(/"#\/definitions\//g, `"${root}#/definitions/`)) as object;
      void this.schemaCheck; // compiles the definition schema the step's schema refers to
      check = this.ajv!.compile(schema);
      this.stepChecks.set(key, check);
    }
    return check;
  }

  /** The trigger kind of `type`, if any. */
  trigger(type: string): TriggerKindDeclaration | undefined {
    return this.triggerKinds.get(type);
  }

  /** The action kind of `type`, if any. */
  action(type: string): ActionKindDeclaration | undefined {
    return this.actionKinds.get(type);
  }

  /** Every trigger kind, in declaration order. */
  triggers(): TriggerKindDeclaration[] {
    return [...this.triggerKinds.values()];
  }

  /** Every action kind, in declaration order. */
  actions(): ActionKindDeclaration[] {
    return [...this.actionKinds.values()];
  }

  /** The trigger types whose runs come from `source`. */
  triggerTypes(source: TriggerKindDeclaration['source']): string[] {
    return this.triggers()
      .filter((k) => k.source === source)
      .map((k) => k.type);
  }

  /**
   * Validates a definition: the schema, then each kind's own checks (see `validateDefinition`).
   * Never throws on bad input.
   */
  validate(input: unknown, checkTemplate?: (template: string) => string | undefined): ValidationResult {
    return checkDefinition(this, input, checkTemplate);
  }

  /** The `trigger.*` names a run of an automation with `trigger` has. */
  triggerVariables(trigger: Trigger | Record<string, unknown>): TriggerVariableNames {
    const kind = this.trigger(String(trigger.type));
    if (!kind) return { names: [], open: true };
    return typeof kind.variables === 'function' ? kind.variables(trigger as Record<string, unknown>) : kind.variables;
  }

  /** The variables of every trigger kind whose variables do not depend on its options (all but `form`). */
  variableTable(): Record<string, TriggerVariableNames> {
    const table: Record<string, TriggerVariableNames> = {};
    for (const kind of this.triggers()) if (typeof kind.variables !== 'function') table[kind.type] = kind.variables;
    return table;
  }

  /**
   * The run variables when `trigger` matches `event`, or undefined when it does not (other type,
   * outside the trigger's project/folder scope, or refused by the kind). Folder scope asks the
   * service for the project's folder chain, so a folder also covers its subfolders. Filters and
   * own changes are the engine's (they need the automation).
   */
  async matchEvent(trigger: Trigger, event: TriggerEvent, service: Service): Promise<Record<string, unknown> | undefined> {
    if (trigger.type !== event.type) return undefined;
    const kind = this.trigger(trigger.type);
    if (!kind || (kind.source !== 'event' && kind.source !== 'run-event')) return undefined;
    const options = trigger as unknown as Record<string, unknown>;
    const scope = options.scope as { projectId?: string; folderId?: string } | undefined;
    if (scope !== undefined) {
      const projectId = typeof event.payload.projectId === 'string' ? event.payload.projectId : undefined;
      if (scope.projectId !== undefined && scope.projectId !== projectId) return undefined;
      if (scope.folderId !== undefined) {
        if (!projectId) return undefined;
        const folders = await service.projectFolders(event.workspaceId, projectId);
        if (!folders.includes(scope.folderId)) return undefined;
      }
    }
    return kind.match ? kind.match(event, options, service) : { ...event.payload };
  }

  /** Whether `definition`'s trigger skips events caused by the automation's own runs (task events without `includeOwnChanges`). */
  skipsOwnChanges(definition: AutomationDefinition): boolean {
    const kind = this.trigger(definition.trigger.type);
    return kind?.ownChanges === true && (definition.trigger as { includeOwnChanges?: boolean }).includeOwnChanges !== true;
  }

  /**
   * The catalogue of kinds (`GET /api/v1/automations/kinds`), plain JSON, made once (the kinds do
   * not change): callers must not change it.
   */
  catalogue(): KindCatalogue {
    this.listed ??= this.listCatalogue();
    return this.listed;
  }

  private listCatalogue(): KindCatalogue {
    const info = (kind: KindDeclaration, parameters: unknown): KindInfo => {
      const out: KindInfo = {
        type: kind.type,
        title: kind.title,
        summary: kind.summary,
        category: kind.category,
        icon: kind.icon,
        sideEffects: kind.kind === 'action' ? kind.sideEffects : false,
        parameters: plain({ ...(parameters as object), ...kind.constraints }) as Record<string, unknown>,
      };
      if (kind.output) out.output = plain(kind.output) as Record<string, unknown>;
      if (kind.kind === 'trigger') out.variables = typeof kind.variables === 'function' ? [] : [...kind.variables.names];
      if (kind.kind === 'trigger' && kind.example) out.example = plain(kind.example) as Record<string, unknown>;
      if (kind.kind === 'action' && kind.nested) out.nested = [...kind.nested];
      if (kind.piece) out.piece = plain(kind.piece);
      return out;
    };
    return {
      triggers: this.triggers().map((k) => info(k, triggerParameters(k))),
      actions: this.actions().map((k) => info(k, k.parameters)),
      commonActionParameters: plain(COMMON_ACTION_PARAMETERS) as Record<string, unknown>,
      lists: {
        editors: [...EDITORS],
        pickers: [...PICKERS],
        icons: [...new Set([...this.triggerKinds.values(), ...this.actionKinds.values()].map((k) => k.icon))].sort(),
        runStatuses: [...RUN_STATUSES],
        finalRunStatuses: [...FINAL_RUN_STATUSES],
      },
    };
  }
}
