/**
 * The automation registry (README "Automations"): validates definitions and keeps automations and
 * their versions in the store, enabling, disabling and deleting them; and reads the definition a
 * run executes (the version it started with), cached per version. What a change means for runs
 * and timers (cancel an automation's runs, re-arm the ticker) is the engine's, through
 * {@link RegistryHooks}.
 */
import type { AutomationDefinition } from '../definition';
import type { KindRegistry } from './registry';
import { EngineError } from '../errors';
import type { AutomationRecord, Clock, RunRecord, RunStore } from '../ports';
import type { Templates } from '../templates';

/** Input of {@link AutomationRegistry.create} (and `Engine.createAutomation`). */
export interface NewAutomation {
  /** Id to use (default: generated). Lets a host set up resources keyed by the id first. */
  id?: string;
  workspaceId: string;
  ownerId: string;
  /** Validated against the published schema. */
  definition: unknown;
  /** Default true. */
  enabled?: boolean;
  /** Host data stored with the automation, not versioned (e.g. its inbound URL). */
  meta?: Record<string, unknown>;
}

/** What the registry asks of the engine. */
export interface RegistryHooks {
  /** Something may come due sooner (a schedule was created, changed or enabled): re-arm the timer. */
  kick(): void;
  /** Cancels an automation's queued, waiting and executing runs (on disable and delete). */
  cancelRunsOf(automationId: string): Promise<void>;
}

/** Most definitions (automation versions) kept in memory before the cache starts afresh. */
const DEFINITION_CACHE_SIZE = 1000;

/** Automations and their versions over a {@link RunStore}. One instance per engine. */
export class AutomationRegistry {
  private readonly definitions = new Map<string, AutomationDefinition>();

  constructor(
    private readonly store: RunStore,
    private readonly clock: Clock,
    private readonly templates: Templates,
    private readonly newId: () => string,
    private readonly hooks: RegistryHooks,
    /** The engine's kinds, whose schema and checks validate definitions. */
    private readonly kinds: KindRegistry,
  ) {}

  /**
   * Validates a definition (schema, unique step ids, template syntax, cron, regexes) and returns
   * it normalized (step ids filled in).
   * @throws EngineError 400 VALIDATION_ERROR with `details {field, reason}` of the first problem
   *   (`field` is a path inside the definition such as `actions[1].url`, or `definition`).
   */
  validate(definition: unknown): AutomationDefinition {
    const result = this.kinds.validate(definition, (t) => this.templates.check(t));
    if (!result.ok) {
      const first = result.problems[0]!;
      throw new EngineError(400, 'VALIDATION_ERROR', first.message, { field: first.path, reason: first.reason });
    }
    return result.definition;
  }

  /**
   * Creates an automation at version 1 (enabled unless `enabled: false`); an enabled schedule
   * starts from its next slot.
   * @throws EngineError 400 when the definition is invalid.
   */
  async create(input: NewAutomation): Promise<AutomationRecord> {
    const definition = this.validate(input.definition);
    const now = this.clock.now();
    const record: AutomationRecord = {
      id: input.id ?? this.newId(),
      workspaceId: input.workspaceId,
      ownerId: input.ownerId,
      version: 1,
      enabled: input.enabled ?? true,
      definition,
      meta: input.meta ?? {},
      createdAt: now,
      updatedAt: now,
    };
    await this.store.insertAutomation(record);
    if (record.enabled && definition.trigger.type === 'schedule') await this.store.setScheduleSlot(record.id, now);
    this.hooks.kick();
    return record;
  }

  /** The automation's current version. @throws EngineError 404 when there is none. */
  async require(id: string): Promise<AutomationRecord> {
    const found = await this.store.getAutomation(id);
    if (!found) throw new EngineError(404, 'NOT_FOUND', `automation '${id}' not found`);
    return found;
  }

  /**
   * Replaces the definition with a new version (version + 1), with new host data when `meta` is
   * given. Runs already started keep executing the version they started with.
   * @throws EngineError 404, 400.
   */
  async update(id: string, definition: unknown, meta?: Record<string, unknown>): Promise<AutomationRecord> {
    const current = await this.require(id);
    const next: AutomationRecord = {
      ...current,
      definition: this.validate(definition),
      version: current.version + 1,
      updatedAt: this.clock.now(),
      meta: meta ?? current.meta,
    };
    await this.store.updateAutomation(next);
    this.hooks.kick();
    return next;
  }

  /**
   * Enables or disables an automation. Disabling cancels its runs (see {@link RegistryHooks});
   * enabling a schedule starts from the next slot (slots while disabled never fire).
   * @throws EngineError 404.
   */
  async setEnabled(id: string, enabled: boolean): Promise<AutomationRecord> {
    const current = await this.require(id);
    if (current.enabled === enabled) return current;
    const next = { ...current, enabled, updatedAt: this.clock.now() };
    await this.store.updateAutomation(next);
    if (enabled && next.definition.trigger.type === 'schedule') await this.store.setScheduleSlot(id, next.updatedAt);
    if (!enabled) await this.hooks.cancelRunsOf(id);
    this.hooks.kick();
    return next;
  }

  /** Deletes an automation with its versions and runs, cancelling what is pending. @throws EngineError 404. */
  async delete(id: string): Promise<void> {
    await this.require(id);
    await this.hooks.cancelRunsOf(id);
    await this.store.deleteAutomation(id);
    // Versions never change (a new version is a new key, in every process); only a deleted
    // automation's definitions go, so that an id created again is not read from the cache.
    for (const key of this.definitions.keys()) if (key.startsWith(`${id}@`)) this.definitions.delete(key);
  }

  /** The definition a run executes (its automation at the run's version). @throws EngineError 404 when that version is gone. */
  async definitionOf(run: RunRecord): Promise<AutomationDefinition> {
    const key = `${run.automationId}@${run.version}`;
    let definition = this.definitions.get(key);
    if (!definition) {
      definition = await this.store.getDefinition(run.automationId, run.version);
      if (!definition) throw new EngineError(404, 'NOT_FOUND', `automation '${run.automationId}' version ${run.version} not found`);
      if (this.definitions.size > DEFINITION_CACHE_SIZE) this.definitions.clear();
      this.definitions.set(key, definition);
    }
    return definition;
  }
}
