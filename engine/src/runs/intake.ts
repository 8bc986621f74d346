/**
 * Where runs come from (README "Automations", docs "Triggers", "Trigger filters"): service events
 * matched against the enabled automations of their workspace, webhook and test starts, inbound
 * calls the host stores itself, replays, and the runs the other collaborators create (schedule
 * slots, sub-runs) through {@link RunIntake.newRun}. Every run is de-duplicated on a key
 * (`event:<id>`, `inbound:<requestId>`, `slot:<ms>`, `parent:<runId>:<step>`, or the caller's)
 * and subject to the loop guard.
 */
import type { Conditions } from '../definition';
import { evaluateConditions } from '../conditions';
import { EngineError } from '../errors';
import type { KindRegistry } from '../kinds/registry';
import type { AutomationRecord, RunRecord, Service, StepRecord } from '../ports';
import type { AutomationRegistry } from '../kinds/automations';
import type { Templates } from '../templates';
import type { TriggerEvent } from '../kinds/events';
import type { WebhookRequest } from '../kinds/inbound/webhook/request';
import { webhookVariables } from '../kinds/inbound/webhook/request';
import type { StartRunOptions } from '../engine-options';
import { noteLimit, queueRun, runNotFound, type RunContext } from './context';
import type { Leases } from './leases';

/** What {@link RunIntake} needs besides the context. */
export interface IntakeDeps {
  service: Service;
  templates: Templates;
  kinds: KindRegistry;
  registry: AutomationRegistry;
  leases: Leases;
  /** Id generator of runs. */
  newId: () => string;
  /** The loop-depth limit (`EngineOptions.maxDepth`). */
  maxDepth: number;
  /** The default dedupe window, in ms (`EngineOptions.dedupeWindowMs`). */
  dedupeWindowMs: number;
  /** Tells the engine a run settled as it was created (`skipped` past the depth limit). */
  settled(run: RunRecord): void;
}

/** Options of {@link RunIntake.newRun}. */
export interface NewRunOptions {
  /** Depth of what caused the run; the run's is one more. */
  depth: number;
  /** De-duplicates on this key: a run of the automation with the key created since `since` is returned instead. */
  dedupeKey?: string;
  /** Start of the dedupe window, ms since the epoch (default 0: for good). */
  since?: number;
  test?: boolean;
  /** The version executed (default the automation's current one). */
  version?: number;
  /** The run this one replays. */
  replayOf?: string;
  /** Journal entries stored with the run (a replay's kept steps), given the new run's id. */
  steps?: (runId: string) => StepRecord[];
}

/** Variables of a started run: a webhook body's (see `webhookVariables`), else an object's own fields. */
function startVariables(type: string, input: unknown): Record<string, unknown> {
  if (type === 'webhook') return webhookVariables(input);
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
}

/** One engine's run creation. */
export class RunIntake {
  constructor(
    private readonly ctx: RunContext,
    private readonly deps: IntakeDeps,
  ) {}

  /**
   * Creates and stores a run of `automation` (`queued`, or `skipped` with error `DEPTH_LIMIT`
   * past the loop guard), claimed by this engine as it is stored when it executes runs, and queues
   * it. Resolves to the run as stored: the existing one when `dedupeKey` matched.
   */
  async newRun(automation: AutomationRecord, trigger: RunRecord['trigger'], opts: NewRunOptions): Promise<RunRecord> {
    const { ctx, deps } = this;
    const now = ctx.clock.now();
    const depth = opts.depth + 1;
    const run: RunRecord = {
      id: deps.newId(),
      automationId: automation.id,
      version: opts.version ?? automation.version,
      workspaceId: automation.workspaceId,
      ownerId: automation.ownerId,
      status: 'queued',
      trigger,
      depth,
      test: opts.test ?? false,
      createdAt: now,
    };
    if (opts.dedupeKey !== undefined) run.dedupeKey = opts.dedupeKey;
    if (opts.replayOf !== undefined) run.replayOf = opts.replayOf;
    if (depth > deps.maxDepth) {
      run.status = 'skipped';
      run.finishedAt = now;
      run.error = {
        code: 'DEPTH_LIMIT',
        message: `not started: the event was caused by a chain of ${opts.depth} automation runs (limit ${deps.maxDepth})`,
        transient: false,
      };
    }
    const steps = run.status === 'queued' && opts.steps ? opts.steps(run.id) : [];
    // Claimed by this engine as it is stored, so it executes here (a waiter here sees it settle).
    const lease = ctx.executes && run.status === 'queued' ? deps.leases.lease() : undefined;
    const { run: stored, created } = await ctx.store.createRun(
      run,
      opts.dedupeKey !== undefined ? { since: opts.since ?? 0 } : undefined,
      steps,
      lease,
    );
    if (created && stored.status === 'queued') {
      // A run created with journal entries (a replay) must read them: only an empty journal is "fresh".
      // Only when not queued already: discovery (another process's runs) may have found it first.
      if (steps.length === 0 && ctx.executes && !ctx.runs.has(stored.id)) ctx.fresh.set(stored.id, stored);
      noteLimit(ctx, automation.id, automation.definition);
      queueRun(ctx, stored.id, automation.id);
    } else if (created) deps.settled(stored);
    return stored;
  }

  /**
   * The runs of a batch of service events, in order (see `Engine.submitAll`): the enabled
   * automations of each (event type, workspace) pair are read once per batch.
   */
  async submitAll(events: readonly TriggerEvent[]): Promise<RunRecord[]> {
    const candidates = new Map<string, Promise<AutomationRecord[]>>();
    const runs: RunRecord[] = [];
    for (const event of events) {
      const key = `${event.type}\n${event.workspaceId}`;
      let automations = candidates.get(key);
      if (automations === undefined) {
        automations = this.ctx.store.listEnabledAutomations(event.type, event.workspaceId);
        candidates.set(key, automations);
      }
      runs.push(...(await this.runsFor(event, await automations)));
    }
    return runs;
  }

  /**
   * Whether an event's trigger variables pass the trigger's `filter` (docs "Trigger filters"), read
   * with `trigger` and `automation` in scope; true without a filter. A filter that fails to evaluate
   * (a template error) refuses the event and is logged; it never throws.
   */
  passesFilter(automation: AutomationRecord, variables: Record<string, unknown>, eventId: string): boolean {
    const filter = (automation.definition.trigger as { filter?: Conditions }).filter;
    if (filter === undefined) return true;
    const { id, workspaceId, version } = automation;
    const scope = { trigger: variables, steps: {}, run: {}, automation: { id, name: automation.definition.name, version, workspaceId } };
    try {
      return evaluateConditions(this.deps.templates, filter, scope).result;
    } catch (error) {
      this.ctx.logger.warn({ err: error, automationId: automation.id, eventId }, 'trigger filter failed');
      return false;
    }
  }

  /** The runs `event` starts among `automations` (the enabled automations of its type and workspace). */
  private async runsFor(event: TriggerEvent, automations: AutomationRecord[]): Promise<RunRecord[]> {
    const { kinds } = this.deps;
    const runs: RunRecord[] = [];
    for (const automation of automations) {
      if (event.at !== undefined && automation.createdAt > event.at) continue;
      // Run events (failures, approval requests) never start the automation whose run raised them.
      if (kinds.trigger(event.type)?.source === 'run-event' && event.payload.automationId === automation.id) continue;
      // Task triggers skip changes made by the automation's own runs unless `includeOwnChanges`.
      if (event.causedBy?.automationId === automation.id && kinds.skipsOwnChanges(automation.definition)) continue;
      let variables: Record<string, unknown> | undefined;
      try {
        variables = await kinds.matchEvent(automation.definition.trigger, event, this.deps.service);
      } catch (error) {
        this.ctx.logger.warn({ err: error, automationId: automation.id, eventId: event.id }, 'trigger matching failed');
        continue;
      }
      if (!variables || !this.passesFilter(automation, variables, event.id)) continue;
      runs.push(
        await this.newRun(
          automation,
          { type: event.type, variables, eventId: event.id },
          { depth: event.depth ?? 0, dedupeKey: `event:${event.id}` },
        ),
      );
    }
    return runs;
  }

  /**
   * Starts a run of one automation (see `Engine.startRun`).
   * @throws EngineError 404 (unknown automation), 409 (disabled, unless `opts.test`).
   */
  async startRun(automationId: string, variables: unknown, opts: StartRunOptions): Promise<RunRecord> {
    const automation = await this.deps.registry.require(automationId);
    if (!automation.enabled && !opts.test) throw new EngineError(409, 'CONFLICT', `automation '${automationId}' is disabled`);
    const window = opts.dedupeWindowMs ?? this.deps.dedupeWindowMs;
    const runOpts: NewRunOptions = { depth: opts.depth ?? 0, test: opts.test ?? false };
    if (opts.dedupeKey !== undefined) {
      runOpts.dedupeKey = opts.dedupeKey;
      runOpts.since = this.ctx.clock.now() - window;
    }
    const type = opts.triggerType ?? automation.definition.trigger.type;
    const trigger: RunRecord['trigger'] = { type, variables: startVariables(type, variables) };
    if (opts.sourceId !== undefined) trigger.eventId = opts.sourceId;
    return this.newRun(automation, trigger, runOpts);
  }

  /**
   * The run an inbound call starts, prepared but not stored (see `Engine.prepareInboundRun`);
   * `{filtered: true}` when the trigger's filter refuses the call.
   * @throws EngineError 409 when the automation is disabled.
   */
  prepareInboundRun(
    automation: AutomationRecord,
    body: unknown,
    call: { requestId: string; headers?: Record<string, string>; request?: WebhookRequest },
  ): { filtered: false; run: RunRecord; dedupe: { since: number } } | { filtered: true } {
    if (!automation.enabled) throw new EngineError(409, 'CONFLICT', `automation '${automation.id}' is disabled`);
    const now = this.ctx.clock.now();
    const type = automation.definition.trigger.type;
    const variables = type === 'webhook' && call.request ? webhookVariables(body, call.request) : startVariables(type, body);
    if (!this.passesFilter(automation, variables, call.requestId)) return { filtered: true };
    const trigger: RunRecord['trigger'] = { type, variables, eventId: call.requestId };
    if (call.headers) trigger.headers = call.headers;
    const run: RunRecord = {
      id: this.deps.newId(),
      automationId: automation.id,
      version: automation.version,
      workspaceId: automation.workspaceId,
      ownerId: automation.ownerId,
      status: 'queued',
      trigger,
      depth: 1,
      test: false,
      dedupeKey: `inbound:${call.requestId}`,
      createdAt: now,
    };
    return { filtered: false, run, dedupe: { since: now - this.deps.dedupeWindowMs } };
  }

  /**
   * Replays a failed or cancelled run as a new run (see `Engine.replayRun`).
   * @throws EngineError 404 (unknown run or automation), 409 (the run did not fail and was not cancelled).
   */
  async replayRun(runId: string, opts: { from?: 'start' | 'failed-step'; version?: 'original' | 'current' }): Promise<RunRecord> {
    const { store } = this.ctx;
    const source = await store.getRun(runId);
    if (!source) throw runNotFound(runId);
    if (source.status !== 'failed' && source.status !== 'cancelled') {
      throw new EngineError(409, 'CONFLICT', `run '${runId}' is ${source.status}; only failed or cancelled runs are replayed`);
    }
    const automation = await this.deps.registry.require(source.automationId);
    const kept = opts.from === 'failed-step' ? (await store.getSteps(source.id)).filter((s) => s.status === 'succeeded') : [];
    const trigger: RunRecord['trigger'] = { ...source.trigger };
    // A replayed child run answers nobody: its parent step has already ended with the original.
    delete trigger.parent;
    return this.newRun(automation, trigger, {
      depth: source.depth - 1,
      test: source.test,
      version: opts.version === 'current' ? automation.version : source.version,
      replayOf: source.id,
      steps: (newRunId) => kept.map((s) => ({ ...s, runId: newRunId })),
    });
  }
}
