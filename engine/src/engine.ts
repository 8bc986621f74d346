/**
 * The automation engine (README "Automations"): matches trigger events to automations, creates
 * runs, takes cancellations and approval decisions, and wakes parents of finished sub-runs. It
 * composes the {@link AutomationRegistry} (automations, their versions and the definition a run
 * executes), the {@link RunQueue} where runs wait and execute (FIFO, a concurrency limit), the
 * {@link Ticker} through which delays, retries, approval timeouts and schedule slots come due, and
 * the {@link Executor} that walks a run's actions; approvals are decided by `approvals.ts`.
 */
import type { SecretSource } from './secrets';
import { randomBytes } from 'node:crypto';
import { decideApproval, type ApprovalDeps } from './approvals';
import { sendRunEvent } from './events';
import { RUN_EVENT_TRIGGER_TYPES, SUB_RUN_TRIGGER, type AutomationDefinition, type Conditions, type ScheduleTrigger } from './definition';
import { evaluateConditions } from './conditions';
import { EngineError } from './engine-error';
import { AutomationRegistry, type NewAutomation } from './registry';
import { Executor } from './executor';
import { RunQueue } from './run-queue';
import { Ticker } from './ticker';
import { permanent } from './errors';
import type { SubRunInput, SubRunParams } from './actions/sub-run';
import {
  FINAL_STATUSES,
  systemClock,
  type AutomationRecord,
  type Clock,
  type Http,
  type Logger,
  type RunLease,
  type RunQuery,
  type RunRecord,
  type RunStore,
  type Service,
  type StepRecord,
  type VersionRecord,
} from './ports';
import { Templates, type TemplateOptions } from './templates';
import { CodeSandbox } from './code/sandbox';
import { dueSlot, matchEvent, nextSlot, scheduleVariables, webhookVariables, type TriggerEvent, type WebhookRequest } from './triggers';

export { EngineError } from './engine-error';
export type { NewAutomation } from './registry';

/** Default loop-depth limit: at most this many automation runs chained by the events they cause. */
export const DEFAULT_MAX_DEPTH = 5;
/** Default number of runs executing at once. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
/** Default idempotency window of `startRun` dedupe keys: 24 hours, in ms. */
export const DEFAULT_DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Tries again in a row of a run whose execution failed on a store error (see `Engine.runOne`). */
const MAX_FAILED_TRIES = 6;

/** Default {@link EngineOptions.leaseMs}: 30 s. */
export const DEFAULT_LEASE_MS = 30_000;
/**
 * Default {@link EngineOptions.workerId}: the same for every engine that is not given one, so that
 * an engine started again over a store (one process, restarted) takes its runs back at once.
 */
export const DEFAULT_WORKER_ID = 'engine';

/** Options of {@link createEngine}. */
export interface EngineOptions {
  store: RunStore;
  service: Service;
  http: Http;
  /** Default: the wall clock. */
  clock?: Clock;
  /** Runs executing at once; the rest wait in a FIFO queue (default {@link DEFAULT_MAX_CONCURRENT_RUNS}). */
  maxConcurrentRuns?: number;
  /**
   * Loop guard (default {@link DEFAULT_MAX_DEPTH}): a run's depth is its event's depth + 1
   * (an API change has depth 0); a run deeper than this is recorded as `skipped` with error
   * `DEPTH_LIMIT` and does nothing.
   */
  maxDepth?: number;
  /** Default window of dedupe keys passed to `startRun`, in ms (24 h). */
  dedupeWindowMs?: number;
  /**
   * Arm a timer that calls {@link Engine.tick} when the next delay, retry, approval timeout or
   * schedule slot is due (default true). Turn off with a controllable clock and call `tick()`.
   */
  autoTick?: boolean;
  /** Longest wait between automatic ticks, in ms (default 60000). */
  maxTickIntervalMs?: number;
  /** Id generator for automations and runs (default: 128 random bits, base64url). */
  newId?: () => string;
  /** Source of retry jitter, a number in [0, 1) (default `Math.random`; tests pass `() => 0` for full, exact delays). */
  random?: () => number;
  logger?: Logger;
  templates?: TemplateOptions;
  /** Called whenever a run settles (reaches a final status or starts waiting). */
  onRunSettled?: (run: RunRecord) => void;
  /** The workspace secrets templates read as `{{ secrets.NAME }}` and journals mask (none when absent). */
  secrets?: SecretSource;
  /**
   * False for an engine that records runs but leaves executing them to an executing engine on the
   * same store, in another process (the server's `TASKSPACE_ROLE=api`): runs it starts, replays or
   * lets continue after an approval stay `queued` in the store for that engine to find
   * ({@link Engine.discover}); {@link Engine.waitForRun} watches the store; {@link Engine.cancelRun}
   * records a cancel request there and waits for the executing engine to carry it out. Such an
   * engine is never started. Default true.
   */
  executes?: boolean;
  /**
   * Called by a non-executing engine each time it stored work for the executing one (a queued
   * run, a decision, a cancel request), so the host can wake that engine at once.
   */
  onWork?: () => void;
  /**
   * This engine's id in the leases of the runs it executes ({@link RunLease}; default
   * {@link DEFAULT_WORKER_ID}). Engines executing runs of one store at once (one per process) need
   * distinct ids: each executes only the runs it claimed, and takes another's run only when that
   * lease ran out. An engine started again under the same id takes back its runs at once.
   */
  workerId?: string;
  /**
   * How long a claim on a run holds, in ms (default {@link DEFAULT_LEASE_MS}): renewed every third
   * of it while the run is queued or executing here, so it runs out only when this process died or
   * stalled. It is the longest a run of a dead process waits before another engine takes it over,
   * and a process stalled for longer may find its run executed by another one meanwhile.
   */
  leaseMs?: number;
  /**
   * Whether this engine fires schedule slots at its ticks (default: always). When several engines
   * execute runs of one store, one fires them (the server: the leader).
   */
  firesSchedules?: () => boolean;
  /** Worker threads running `code` steps at once (default 2; see {@link CodeSandbox}). */
  codeWorkers?: number;
  /** The URL that sends a run the event it waits for, read by templates as `{{ run.resumeUrl }}`. */
  resumeUrl?: (runId: string) => string;
}

/** How often a non-executing engine looks at a run it waits for, in ms. */
export const RUN_POLL_MS = 50;

/** How long a non-executing engine's `cancelRun` waits for the executing engine to cancel, in ms. */
export const CANCEL_WAIT_MS = 10_000;

/** How long waiters of a run that another engine claimed watch the store for it to settle, in ms. */
const HAND_OVER_WATCH_MS = 60_000;

/** A run has settled: a final status, or waiting. */
function settledStatus(run: RunRecord): boolean {
  return FINAL_STATUSES.has(run.status) || run.status === 'waiting';
}

/** A run with its journal. */
export interface RunWithSteps {
  run: RunRecord;
  steps: StepRecord[];
}

/** Options of {@link Engine.startRun}. */
export interface StartRunOptions {
  /** A test run: allowed while disabled, flagged `test`. */
  test?: boolean;
  /** Idempotency key: a second start with the same key within `dedupeWindowMs` returns the first run. */
  dedupeKey?: string;
  dedupeWindowMs?: number;
  /** Depth of whatever caused this start (default 0). */
  depth?: number;
  /** Trigger type recorded on the run (default: the automation's trigger type). */
  triggerType?: string;
  /** Id of what started the run (e.g. the inbound request), recorded as `trigger.eventId`. */
  sourceId?: string;
}

/** Trigger variables of a started run: a webhook body's (see `webhookVariables`), else an object's own fields. */
function startVariables(type: string, input: unknown): Record<string, unknown> {
  if (type === 'webhook') return webhookVariables(input);
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
}

function defaultId(): string {
  return randomBytes(16).toString('base64url');
}

const silent: Logger = { warn: () => undefined, error: () => undefined };

/** The engine. Create with {@link createEngine}. */
export class Engine {
  readonly templates: Templates;
  private readonly store: RunStore;
  private readonly service: Service;
  private readonly clock: Clock;
  private readonly executor: Executor;
  /** Where `code` steps run; its worker threads start on first use and end with {@link Engine.stop}. */
  private readonly sandbox: CodeSandbox;
  private readonly maxConcurrent: number;
  private readonly maxDepth: number;
  private readonly dedupeWindowMs: number;
  private readonly newId: () => string;
  private readonly logger: Logger;
  private readonly onRunSettled: ((run: RunRecord) => void) | undefined;

  /** Automations and their versions. */
  private readonly registry: AutomationRegistry;
  /** What approval decisions read and resume runs with. */
  private readonly approvals: ApprovalDeps;
  /** Queued and executing runs. */
  private readonly runs: RunQueue;
  /** Delays, retries, approval timeouts and schedule slots coming due. */
  private readonly ticker: Ticker;
  private readonly fresh = new Map<string, RunRecord>();
  private readonly cancelRequested = new Set<string>();
  private readonly waiters = new Map<string, ((run: RunRecord) => void)[]>();
  /** Parent runs a child's end should wake but that were executing then: woken once their execution ends. */
  private readonly wakeAgain = new Set<string>();
  private stopping = false;
  /** See {@link EngineOptions.workerId}, {@link EngineOptions.leaseMs}. */
  private readonly workerId: string;
  private readonly leaseMs: number;
  private readonly firesSchedules: () => boolean;
  /** Renews the leases of the runs queued and executing here. */
  private leaseTimer: NodeJS.Timeout | undefined;
  /** A claim filled the queue: claim again when there is room. */
  private backlog = false;
  /** The `concurrency` of the automations whose runs this engine created or executed (see {@link RunQueue}). */
  private readonly limits = new Map<string, number>();
  /** Runs whose execution failed on a store error, by the number of tries again so far (see {@link Engine.runOne}). */
  private readonly failedTries = new Map<string, number>();
  /** See {@link EngineOptions.executes}. */
  private readonly executes: boolean;
  private readonly onWork: (() => void) | undefined;

  constructor(options: EngineOptions) {
    this.executes = options.executes ?? true;
    this.workerId = options.workerId ?? DEFAULT_WORKER_ID;
    this.leaseMs = Math.max(300, options.leaseMs ?? DEFAULT_LEASE_MS);
    this.firesSchedules = options.firesSchedules ?? (() => true);
    this.onWork = options.onWork;
    this.store = options.store;
    this.service = options.service;
    this.clock = options.clock ?? systemClock;
    this.templates = new Templates(options.templates);
    this.maxConcurrent = Math.max(1, options.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.dedupeWindowMs = options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
    this.newId = options.newId ?? defaultId;
    this.logger = options.logger ?? silent;
    this.onRunSettled = options.onRunSettled;
    this.sandbox = new CodeSandbox({ workers: options.codeWorkers });
    this.executor = new Executor({
      store: this.store,
      service: this.service,
      http: options.http,
      clock: this.clock,
      random: options.random ?? Math.random,
      templates: this.templates,
      sandbox: this.sandbox,
      isCancelled: (id) => this.cancelRequested.has(id),
      isStopping: () => this.stopping,
      secrets: options.secrets,
      ...(options.resumeUrl ? { resumeUrl: options.resumeUrl } : {}),
      startChild: (parent, stepKey, params) => this.startChild(parent, stepKey, params),
    });
    this.registry = new AutomationRegistry(this.store, this.clock, this.templates, this.newId, {
      kick: () => this.ticker.kick(),
      cancelRunsOf: (automationId) => this.cancelRunsOf(automationId),
    });
    this.approvals = {
      store: this.store,
      clock: this.clock,
      definitionOf: (run) => this.registry.definitionOf(run),
      resume: (id) => this.queueRun(id),
    };
    this.runs = new RunQueue(this.maxConcurrent, {
      execute: (runId, entry) => this.runOne(runId, entry),
      finished: (runId) => this.finished(runId),
      limitOf: (automationId) => this.limits.get(automationId),
      logger: this.logger,
    });
    this.ticker = new Ticker({
      clock: this.clock,
      logger: this.logger,
      autoTick: options.autoTick ?? true,
      maxIntervalMs: options.maxTickIntervalMs ?? 60_000,
      work: (now) => this.due(now),
    });
  }

  // ---------------------------------------------------------------- automations (the registry's)

  /** See {@link AutomationRegistry.validate}. @throws EngineError 400. */
  validate(definition: unknown): AutomationDefinition {
    return this.registry.validate(definition);
  }

  /** Creates an automation at version 1 (see {@link AutomationRegistry.create}). @throws EngineError 400. */
  createAutomation(input: NewAutomation): Promise<AutomationRecord> {
    return this.registry.create(input);
  }

  /** The automation's current version, or undefined. */
  getAutomation(id: string): Promise<AutomationRecord | undefined> {
    return this.store.getAutomation(id);
  }

  /** A workspace's automations. */
  listAutomations(workspaceId: string): Promise<AutomationRecord[]> {
    return this.store.listAutomations(workspaceId);
  }

  /** Every kept version of an automation, newest first (empty for an unknown one). */
  listVersions(automationId: string): Promise<VersionRecord[]> {
    return this.store.listVersions(automationId);
  }

  /** The definition of one version of an automation, or undefined. */
  getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined> {
    return this.store.getDefinition(automationId, version);
  }

  /**
   * Replaces the definition with a new version (see {@link AutomationRegistry.update}); the host
   * updates its data (`meta`, such as an inbound URL) in the same store write when the trigger changes.
   * @throws EngineError 404, 400.
   */
  updateAutomation(id: string, definition: unknown, meta?: Record<string, unknown>): Promise<AutomationRecord> {
    return this.registry.update(id, definition, meta);
  }

  /**
   * Enables or disables an automation. Disabling cancels its queued and waiting runs (and stops
   * its executing runs at their next step). @throws EngineError 404.
   */
  setEnabled(id: string, enabled: boolean): Promise<AutomationRecord> {
    return this.registry.setEnabled(id, enabled);
  }

  /** Deletes an automation with its versions and runs, cancelling what is pending. @throws EngineError 404. */
  deleteAutomation(id: string): Promise<void> {
    return this.registry.delete(id);
  }

  /** Cancels a run executing here: it stops at once, its step in flight aborted (an HTTP call included). */
  private requestLocalCancel(runId: string): void {
    this.cancelRequested.add(runId);
    this.executor.abort(runId);
  }

  private async cancelRunsOf(automationId: string): Promise<void> {
    const local = new Set(this.runs.executingOf(automationId));
    for (const runId of local) this.requestLocalCancel(runId);
    for (const run of await this.store.listPendingRuns(automationId)) {
      if (this.executes && (await this.store.claimRun(run.id, this.lease()))) await this.cancelRun(run.id);
      else await this.store.requestCancel(run.id);
    }
    // Runs executing in other processes stop at their next step there.
    for (const run of await this.store.listRuns({ automationId, status: 'running', limit: 1000 })) {
      if (!local.has(run.id)) await this.store.requestCancel(run.id);
    }
    this.onWork?.();
  }

  /** A claim for this engine from now for {@link EngineOptions.leaseMs} (wall time). */
  private lease(): RunLease {
    const now = Date.now();
    return { owner: this.workerId, now, until: now + this.leaseMs };
  }

  /** Free places in the run queue: claims take no more runs than fit, leaving the rest to other engines. */
  private room(): number {
    const { active, queued } = this.runs.load();
    return Math.max(0, this.maxConcurrent - active - queued);
  }

  /** Queues the runs `claim` takes (as many as there is room for); remembers when more may be waiting. */
  private async claim(take: (lease: RunLease, limit: number) => Promise<string[]>): Promise<void> {
    const room = this.room();
    const ids = room > 0 ? await take(this.lease(), room) : [];
    if (ids.length === room) this.backlog = true;
    for (const id of ids) this.runs.add(id);
  }

  /** Renews the leases of the runs queued and executing here; every third of {@link EngineOptions.leaseMs}. */
  private startLeaseRenewal(): void {
    clearInterval(this.leaseTimer);
    this.leaseTimer = setInterval(
      () => {
        const ids = this.runs.ids();
        if (ids.length === 0) return;
        void this.store
          .renewLeases(ids, this.lease())
          .catch((error: unknown) => this.logger.warn({ err: error }, 'renewing run leases failed'));
      },
      Math.floor(this.leaseMs / 3),
    );
    this.leaseTimer.unref?.();
  }

  // ---------------------------------------------------------------- runs

  private async newRun(
    automation: AutomationRecord,
    trigger: RunRecord['trigger'],
    opts: {
      depth: number;
      dedupeKey?: string;
      since?: number;
      test?: boolean;
      version?: number;
      replayOf?: string;
      steps?: (runId: string) => StepRecord[];
    },
  ): Promise<RunRecord> {
    const now = this.clock.now();
    const depth = opts.depth + 1;
    const run: RunRecord = {
      id: this.newId(),
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
    if (depth > this.maxDepth) {
      run.status = 'skipped';
      run.finishedAt = now;
      run.error = {
        code: 'DEPTH_LIMIT',
        message: `not started: the event was caused by a chain of ${opts.depth} automation runs (limit ${this.maxDepth})`,
        transient: false,
      };
    }
    const steps = run.status === 'queued' && opts.steps ? opts.steps(run.id) : [];
    // Claimed by this engine as it is stored, so it executes here (a waiter here sees it settle).
    const lease = this.executes && run.status === 'queued' ? this.lease() : undefined;
    const { run: stored, created } = await this.store.createRun(
      run,
      opts.dedupeKey !== undefined ? { since: opts.since ?? 0 } : undefined,
      steps,
      lease,
    );
    if (created && stored.status === 'queued') {
      // A run created with journal entries (a replay) must read them: only an empty journal is "fresh".
      // Only when not queued already: discovery (another process's runs) may have found it first.
      if (steps.length === 0 && this.executes && !this.runs.has(stored.id)) this.fresh.set(stored.id, stored);
      this.noteLimit(automation.id, automation.definition);
      this.queueRun(stored.id, automation.id);
    } else if (created) this.settled(stored);
    return stored;
  }

  /**
   * Hands a service event to the engine: every enabled automation of the event's workspace
   * whose trigger matches gets a run (queued, or `skipped` past the depth limit). Submitting the
   * same event id twice creates no second run. An automation created after the event (`at`)
   * does not run for it. Resolves to the runs (new or existing).
   */
  async submit(event: TriggerEvent): Promise<RunRecord[]> {
    return this.submitAll([event]);
  }

  /**
   * {@link submit} for a batch of events, in order, as the service's outbox consumer reads them:
   * the enabled automations of each (event type, workspace) pair are read once per batch rather
   * than once per event. Resolves to every run of the batch (new or existing), in event order.
   */
  async submitAll(events: readonly TriggerEvent[]): Promise<RunRecord[]> {
    const candidates = new Map<string, Promise<AutomationRecord[]>>();
    const runs: RunRecord[] = [];
    for (const event of events) {
      const key = `${event.type}\n${event.workspaceId}`;
      let automations = candidates.get(key);
      if (automations === undefined) {
        automations = this.store.listEnabledAutomations(event.type, event.workspaceId);
        candidates.set(key, automations);
      }
      runs.push(...(await this.runsFor(event, await automations)));
    }
    return runs;
  }

  /**
   * Whether an event's trigger variables pass the trigger's `filter` (docs "Trigger filters"), read
   * with `trigger` and `automation` in scope; true without a filter. A filter that fails to evaluate
   * (a template error) refuses the event and is logged.
   */
  private passesFilter(automation: AutomationRecord, variables: Record<string, unknown>, eventId: string): boolean {
    const filter = (automation.definition.trigger as { filter?: Conditions }).filter;
    if (filter === undefined) return true;
    const { id, workspaceId, version } = automation;
    const scope = { trigger: variables, steps: {}, run: {}, automation: { id, name: automation.definition.name, version, workspaceId } };
    try {
      return evaluateConditions(this.templates, filter, scope).result;
    } catch (error) {
      this.logger.warn({ err: error, automationId: automation.id, eventId }, 'trigger filter failed');
      return false;
    }
  }

  /** The runs `event` starts among `automations` (the enabled automations of its type and workspace). */
  private async runsFor(event: TriggerEvent, automations: AutomationRecord[]): Promise<RunRecord[]> {
    const runs: RunRecord[] = [];
    for (const automation of automations) {
      if (event.at !== undefined && automation.createdAt > event.at) continue;
      // Run events (failures, approval requests) never start the automation whose run raised them.
      if ((RUN_EVENT_TRIGGER_TYPES as readonly string[]).includes(event.type) && event.payload.automationId === automation.id) continue;
      let variables: Record<string, unknown> | undefined;
      try {
        variables = await matchEvent(automation.definition.trigger, event, this.service);
      } catch (error) {
        this.logger.warn({ err: error, automationId: automation.id, eventId: event.id }, 'trigger matching failed');
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
   * Starts a run of one automation: a webhook call (`variables` is the body, any JSON value; see
   * `webhookVariables`) or a test run with a sample payload (for other trigger kinds an object
   * whose fields become the variables).
   * @throws EngineError 404 (unknown automation), 409 (disabled, unless `test`).
   */
  async startRun(automationId: string, variables: unknown, opts: StartRunOptions = {}): Promise<RunRecord> {
    const automation = await this.registry.require(automationId);
    if (!automation.enabled && !opts.test) throw new EngineError(409, 'CONFLICT', `automation '${automationId}' is disabled`);
    const window = opts.dedupeWindowMs ?? this.dedupeWindowMs;
    const runOpts: { depth: number; dedupeKey?: string; since?: number; test?: boolean } = {
      depth: opts.depth ?? 0,
      test: opts.test ?? false,
    };
    if (opts.dedupeKey !== undefined) {
      runOpts.dedupeKey = opts.dedupeKey;
      runOpts.since = this.clock.now() - window;
    }
    const type = opts.triggerType ?? automation.definition.trigger.type;
    const trigger: RunRecord['trigger'] = { type, variables: startVariables(type, variables) };
    if (opts.sourceId !== undefined) trigger.eventId = opts.sourceId;
    return this.newRun(automation, trigger, runOpts);
  }

  /**
   * The run an inbound call (webhook or form URL) starts, prepared but not stored: `queued`, depth 1,
   * `trigger.eventId` the call's request id, de-duplicated on that request id (dedupe key
   * `inbound:<requestId>`) within the dedupe window, so a host that derives the request id from an
   * `Idempotency-Key` gets one run per key. The host stores it in the transaction that accepts the
   * call (`RunStore.createRun` semantics with `dedupe`), so an acknowledged call always has its run,
   * then hands it over with {@link enqueue}. A webhook trigger's variables include `call.request`
   * (method, headers, query, raw body; see `webhookVariables`).
   * @throws EngineError 409 when the automation is disabled.
   */
  prepareInboundRun(
    automation: AutomationRecord,
    body: unknown,
    call: { requestId: string; headers?: Record<string, string>; request?: WebhookRequest },
  ): { run: RunRecord; dedupe: { since: number } } {
    if (!automation.enabled) throw new EngineError(409, 'CONFLICT', `automation '${automation.id}' is disabled`);
    const now = this.clock.now();
    const type = automation.definition.trigger.type;
    const variables = type === 'webhook' && call.request ? webhookVariables(body, call.request) : startVariables(type, body);
    const trigger: RunRecord['trigger'] = { type, variables, eventId: call.requestId };
    if (call.headers) trigger.headers = call.headers;
    const run: RunRecord = {
      id: this.newId(),
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
    return { run, dedupe: { since: now - this.dedupeWindowMs } };
  }

  /**
   * Queues a run the host stored as `queued` itself (see {@link prepareInboundRun}); a run already
   * queued or executing is left as it is, one in any other status is skipped when its turn comes.
   */
  enqueue(runId: string, automationId?: string): void {
    this.queueRun(runId, automationId);
  }

  /**
   * Queues a stored run for execution here, in its automation's turn when `automationId` is
   * known; a non-executing engine leaves it to the executing one.
   */
  private queueRun(runId: string, automationId?: string): void {
    if (this.executes) this.runs.add(runId, automationId);
    else this.onWork?.();
  }

  /** Remembers an automation's `concurrency` for the run queue. */
  private noteLimit(automationId: string, definition: AutomationDefinition): void {
    if (definition.concurrency === undefined) this.limits.delete(automationId);
    else this.limits.set(automationId, definition.concurrency);
  }

  /**
   * The child run of an `automation.run` step: a run of another automation of the parent's
   * workspace with the step's input as its trigger variables, one deeper than the parent (the loop
   * guard applies), a test run when the parent is one. De-duplicated on the parent step for good,
   * so a resumed parent finds the child it already started.
   * @throws ActionError NOT_FOUND (unknown or in another workspace), AUTOMATION_DISABLED (permanent).
   */
  private async startChild(parent: RunRecord, stepKey: string, params: SubRunParams): Promise<RunRecord> {
    const automation = await this.store.getAutomation(params.automationId);
    if (!automation || automation.workspaceId !== parent.workspaceId) {
      throw permanent('NOT_FOUND', `automation '${params.automationId}' not found in this workspace`, { field: 'automationId' });
    }
    if (!automation.enabled && !parent.test)
      throw permanent('AUTOMATION_DISABLED', `automation '${params.automationId}' is disabled`, { field: 'automationId' });
    const trigger: RunRecord['trigger'] = { type: SUB_RUN_TRIGGER, variables: params.input, eventId: parent.id };
    if (params.wait) trigger.parent = { runId: parent.id, stepId: stepKey };
    return this.newRun(automation, trigger, {
      depth: parent.depth,
      dedupeKey: `parent:${parent.id}:${stepKey}`,
      since: 0,
      test: parent.test,
    });
  }

  /**
   * Reads the run every {@link RUN_POLL_MS} until `done` holds or `timeoutMs` has passed
   * (a non-executing engine's wait); resolves to the run as last read.
   * @throws EngineError 404 when the run does not exist (or no longer does).
   */
  private async watchRun(runId: string, timeoutMs: number, done: (run: RunRecord) => boolean): Promise<RunRecord> {
    // Wall time, as the timers of waitForRun.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.store.getRun(runId);
      if (!run) throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
      if (done(run) || Date.now() >= deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, RUN_POLL_MS));
    }
  }

  /**
   * For an executing engine that shares its store with other engines (other processes): claims
   * the stored runs that are queued or running and free (recorded by a non-executing engine, or
   * left by a process that died), as many as there is room for; carries out the cancel requests
   * of runs executing or claimed here, or free; and does what is due ({@link Engine.tick}). Call
   * it every poll interval and when told of new work; a no-op on a non-executing or stopped engine.
   */
  async discover(): Promise<void> {
    if (!this.executes || this.stopping) return;
    await this.claim((lease, limit) => this.store.claimUnfinishedRuns(lease, limit));
    for (const runId of await this.store.listCancelRequests()) {
      if (this.cancelRequested.has(runId)) continue;
      if (this.runs.isExecuting(runId)) this.requestLocalCancel(runId);
      // A run another engine holds is that engine's to cancel.
      else if (await this.store.claimRun(runId, this.lease())) await this.cancelRun(runId);
    }
    await this.tick();
  }

  /** Wakes the parent waiting on `child` (a run that just ended), now or when its execution ends. */
  private async wakeParent(child: RunRecord): Promise<void> {
    const parentId = child.trigger.parent!.runId;
    if (this.runs.isExecuting(parentId)) {
      this.wakeAgain.add(parentId);
      return;
    }
    const parent = await this.store.getRun(parentId);
    if (parent?.status !== 'waiting' || parent.waitingOn?.kind !== 'automation') return;
    await this.store.updateRun(parentId, { wakeAt: this.clock.now() });
    this.runs.add(parentId);
  }

  /**
   * Cancels the child runs a cancelled run was waiting for (its `automation.run` steps with
   * `wait: true` still `waiting`), and theirs in turn: nobody would read their result.
   * Children started with `wait: false` go on.
   */
  private async cancelChildren(parentId: string): Promise<void> {
    for (const step of await this.store.getSteps(parentId)) {
      if (step.type !== 'automation.run' || step.status !== 'waiting') continue;
      const childId = (step.input as SubRunInput | undefined)?.runId;
      if (childId === undefined) continue;
      try {
        await this.cancelRun(childId);
      } catch (error) {
        // The child's automation was deleted with its runs.
        if (!(error instanceof EngineError && error.status === 404)) throw error;
      }
    }
  }

  /**
   * Replays a failed or cancelled run as a new run with the same trigger, linked by `replayOf`.
   * `from: 'start'` runs every step again; `from: 'failed-step'` keeps the steps that succeeded
   * (their recorded outputs are copied into the new run's journal with it, atomically, so they
   * are not run again) and runs from the first step that did not. `version: 'original'` (the
   * default) executes the version the run executed; `'current'` the automation's current one
   * (recorded steps are matched by step id).
   * @throws EngineError 404 (unknown run or automation), 409 (the run did not fail and was not cancelled).
   */
  async replayRun(runId: string, opts: { from?: 'start' | 'failed-step'; version?: 'original' | 'current' } = {}): Promise<RunRecord> {
    const source = await this.store.getRun(runId);
    if (!source) throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
    if (source.status !== 'failed' && source.status !== 'cancelled') {
      throw new EngineError(409, 'CONFLICT', `run '${runId}' is ${source.status}; only failed or cancelled runs are replayed`);
    }
    const automation = await this.registry.require(source.automationId);
    const kept = opts.from === 'failed-step' ? (await this.store.getSteps(source.id)).filter((s) => s.status === 'succeeded') : [];
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

  /** A run with its journal, or undefined. */
  async getRun(runId: string): Promise<RunWithSteps | undefined> {
    const run = await this.store.getRun(runId);
    if (!run) return undefined;
    return { run, steps: await this.store.getSteps(runId) };
  }

  /** Runs, newest first. */
  listRuns(query: RunQuery): Promise<RunRecord[]> {
    return this.store.listRuns(query);
  }

  /**
   * Decides the approval a run waits on (see {@link decideApproval}): by one of the step's
   * `approvers` when it lists any (membership and role are the host's to check); the run continues.
   * @throws EngineError 404 (unknown run), 409 (not waiting for an approval), 403 (not an approver).
   */
  decide(runId: string, approve: boolean, by: { handle: string }, comment?: string): Promise<RunRecord> {
    return decideApproval(this.approvals, runId, approve, by, comment);
  }

  /**
   * Sends an event to a run waiting on a `wait.event` step (see {@link sendRunEvent}); `event`
   * undefined: the one it waits for. The run continues with the payload as the step's output.
   * @throws EngineError 404, 409.
   */
  sendEvent(runId: string, event: string | undefined, payload: unknown, sentBy: string): Promise<RunRecord> {
    return sendRunEvent(
      { store: this.store, clock: this.clock, resume: (run) => this.queueRun(run.id, run.automationId) },
      runId,
      event,
      payload,
      sentBy,
    );
  }

  /**
   * Cancels a run that has not finished: queued and waiting runs at once, an executing run at its
   * next step boundary; the child runs it waits for go with it. Resolves to the run as stored
   * (unchanged when already final).
   * @throws EngineError 404.
   */
  async cancelRun(runId: string): Promise<RunRecord> {
    const run = await this.store.getRun(runId);
    if (!run) throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
    if (FINAL_STATUSES.has(run.status)) return run;
    if (!this.executes) {
      await this.store.requestCancel(runId);
      this.onWork?.();
      return this.watchRun(runId, CANCEL_WAIT_MS, (r) => FINAL_STATUSES.has(r.status));
    }
    if (this.runs.isExecuting(runId)) {
      this.requestLocalCancel(runId);
      return run;
    }
    if (!(await this.store.claimRun(runId, this.lease()))) {
      // Executing or claimed in another process: that engine cancels it.
      await this.store.requestCancel(runId);
      this.onWork?.();
      return this.watchRun(runId, CANCEL_WAIT_MS, (r) => FINAL_STATUSES.has(r.status));
    }
    const now = this.clock.now();
    await this.store.updateRun(runId, { status: 'cancelled', finishedAt: now, wakeAt: undefined });
    this.runs.remove(runId);
    this.fresh.delete(runId);
    const cancelled: RunRecord = { ...run, status: 'cancelled', finishedAt: now };
    delete cancelled.wakeAt;
    this.settled(cancelled);
    return cancelled;
  }

  /**
   * Resolves when the run has settled (a final status, or waiting) — at once if it already has.
   * @throws EngineError 404 when the run does not exist.
   */
  async waitForRun(runId: string, timeoutMs = 30_000): Promise<RunRecord> {
    if (!this.executes) return this.watchRun(runId, timeoutMs, settledStatus);
    const settledRun = new Promise<RunRecord>((resolve) => {
      const list = this.waiters.get(runId) ?? [];
      list.push(resolve);
      this.waiters.set(runId, list);
    });
    const run = await this.store.getRun(runId);
    if (!run) {
      this.waiters.delete(runId);
      throw new EngineError(404, 'NOT_FOUND', `run '${runId}' not found`);
    }
    if (!this.runs.has(runId)) {
      this.waiters.delete(runId);
      if (FINAL_STATUSES.has(run.status) || run.status === 'waiting') return run;
      // Not here: another process executes it, or will claim it.
      return this.watchRun(runId, timeoutMs, settledStatus);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<RunRecord>((resolve) => {
      timer = setTimeout(() => void this.store.getRun(runId).then((r) => resolve(r ?? run)), timeoutMs);
    });
    try {
      return await Promise.race([settledRun, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves when no run is queued or executing. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /** Number of runs executing now and waiting in the queue. */
  load(): { active: number; queued: number } {
    return this.runs.load();
  }

  private settled(run: RunRecord): void {
    if (run.trigger.parent && FINAL_STATUSES.has(run.status)) {
      void this.wakeParent(run).catch((error: unknown) => this.logger.warn({ err: error, runId: run.id }, 'waking the parent run failed'));
    }
    if (run.status === 'cancelled') {
      void this.cancelChildren(run.id).catch((error: unknown) =>
        this.logger.warn({ err: error, runId: run.id }, 'cancelling the child runs failed'),
      );
    }
    const list = this.waiters.get(run.id);
    if (list) {
      this.waiters.delete(run.id);
      for (const resolve of list) resolve(run);
    }
    if (this.onRunSettled) {
      try {
        this.onRunSettled(run);
      } catch (error) {
        this.logger.warn({ err: error }, 'onRunSettled failed');
      }
    }
  }

  /** After a run's execution: forget its cancel request, and wake it again if a child ended meanwhile. */
  private finished(runId: string): void {
    this.cancelRequested.delete(runId);
    if (this.backlog && !this.stopping && this.room() > 0) {
      this.backlog = false;
      void this.discover().catch((error: unknown) => this.logger.warn({ err: error }, 'claiming runs failed'));
    }
    if (this.wakeAgain.delete(runId)) {
      void this.store
        .updateRun(runId, { wakeAt: this.clock.now() })
        .then(() => this.runs.add(runId))
        .catch((error: unknown) => this.logger.warn({ err: error, runId }, 'waking the parent run failed'));
    }
  }

  /**
   * Executes one run of the queue ({@link Engine.executeOne}). When that fails (a store error
   * outside any step: the run's status, its journal, its lease), the run is released at once, so
   * that another engine may take it up, and queued here again after a wait that doubles (from 500
   * ms, at most {@link MAX_FAILED_TRIES} times in a row), instead of sitting claimed and idle until
   * its lease runs out. It resumes at its first unfinished step.
   */
  private async runOne(runId: string, entry: { automationId: string }): Promise<void> {
    try {
      await this.executeOne(runId, entry);
      this.failedTries.delete(runId);
    } catch (error) {
      if (this.stopping) throw error;
      const tries = (this.failedTries.get(runId) ?? 0) + 1;
      this.logger.warn({ err: error, runId, tries }, 'run execution failed on a store error; released to be tried again');
      await this.store
        .releaseRun(runId, this.workerId)
        .catch((release: unknown) => this.logger.warn({ err: release, runId }, 'releasing a run failed'));
      if (tries > MAX_FAILED_TRIES) {
        // Left to whichever engine claims it next (discovery, or the next start).
        this.failedTries.delete(runId);
        return;
      }
      this.failedTries.set(runId, tries);
      const timer = setTimeout(
        () => {
          if (!this.stopping) this.runs.add(runId);
        },
        500 * 2 ** (tries - 1),
      );
      timer.unref?.();
    }
  }

  /**
   * Executes one run, when this engine holds its lease (a run created here is claimed as it is
   * stored; any other is claimed now, and left alone when another engine holds it). A run left
   * unfinished (waiting, or interrupted by a stop) is released for any engine to take.
   */
  private async executeOne(runId: string, entry: { automationId: string }): Promise<void> {
    let run = this.fresh.get(runId);
    const fresh = run !== undefined;
    this.fresh.delete(runId);
    if (!fresh && !(await this.store.claimRun(runId, this.lease()))) {
      this.handOver(runId);
      return;
    }
    if (!run) run = await this.store.getRun(runId);
    if (!run) return;
    entry.automationId = run.automationId;
    const now = this.clock.now();
    if (FINAL_STATUSES.has(run.status)) return;
    if (run.status === 'waiting' && (run.wakeAt === undefined || run.wakeAt > now)) {
      await this.store.releaseRun(runId, this.workerId);
      return;
    }
    if (this.cancelRequested.has(runId)) {
      await this.store.updateRun(runId, { status: 'cancelled', finishedAt: now, wakeAt: undefined });
      this.settled({ ...run, status: 'cancelled', finishedAt: now });
      return;
    }
    const definition = await this.registry.definitionOf(run);
    this.noteLimit(run.automationId, definition);
    const result = await this.executor.execute(run, definition, fresh);
    if (result === 'interrupted') {
      await this.store.releaseRun(runId, this.workerId);
      return;
    }
    const after = await this.store.getRun(runId);
    if (!after) return;
    if (!FINAL_STATUSES.has(after.status)) await this.store.releaseRun(runId, this.workerId);
    this.settled(after);
    if (after.status === 'waiting' && after.wakeAt !== undefined) this.ticker.arm(after.wakeAt);
    if (after.waitingOn?.kind === 'automation' && (await this.childEnded(after))) this.wakeAgain.add(runId);
  }

  /**
   * Whether the child run a parent now waits on has ended already. Its end may have been seen in
   * another process while the parent was still executing here, before it waited; the parent is
   * then woken again here (the other process found it not waiting).
   */
  private async childEnded(parent: RunRecord): Promise<boolean> {
    const step = (await this.store.getSteps(parent.id)).find((s) => s.stepId === parent.waitingOn!.stepId);
    const childId = (step?.input as SubRunInput | undefined)?.runId;
    if (childId === undefined) return false;
    const child = await this.store.getRun(childId);
    return child !== undefined && FINAL_STATUSES.has(child.status);
  }

  /** A run queued here turned out claimed by another engine: whoever waits for it here watches the store instead. */
  private handOver(runId: string): void {
    const list = this.waiters.get(runId);
    if (!list) return;
    this.waiters.delete(runId);
    this.watchRun(runId, HAND_OVER_WATCH_MS, settledStatus).then(
      (run) => {
        for (const resolve of list) resolve(run);
      },
      (error: unknown) => this.logger.warn({ err: error, runId }, 'watching a run executed elsewhere failed'),
    );
  }

  // ---------------------------------------------------------------- time

  /**
   * Does what is due at `clock.now()`: queues waiting runs whose delay, retry or approval
   * timeout has come, and fires each enabled schedule whose slot has come (once per slot, also
   * across restarts: the store keeps the last fired slot). Then re-arms the timer (autoTick).
   */
  tick(): Promise<void> {
    return this.ticker.tick();
  }

  /** The work of a tick at `now`: due runs queued, due schedule slots fired. Resolves to when something is next due. */
  private async due(now: number): Promise<number | undefined> {
    if (this.executes) await this.claim((lease, limit) => this.store.claimDueRuns(now, lease, limit));
    let next = await this.store.nextWakeAt(now);
    if (!this.firesSchedules()) return next;
    for (const automation of await this.store.listEnabledAutomations('schedule')) {
      const trigger = automation.definition.trigger as ScheduleTrigger;
      try {
        const last = (await this.store.getScheduleSlot(automation.id)) ?? automation.updatedAt;
        const slot = dueSlot(trigger, last, now);
        if (slot !== undefined) {
          await this.newRun(
            automation,
            { type: 'schedule', variables: scheduleVariables(slot, now) },
            { depth: 0, dedupeKey: `slot:${slot}` },
          );
          await this.store.setScheduleSlot(automation.id, slot);
        }
        const upcoming = nextSlot(trigger, slot ?? last);
        if (upcoming !== undefined && (next === undefined || upcoming < next)) next = upcoming;
      } catch (error) {
        this.logger.warn({ err: error, automationId: automation.id }, 'schedule failed');
      }
    }
    return next;
  }

  /**
   * Starts the engine over its store: claims the runs left `queued` or `running` that no other
   * engine holds (interrupted by a stop or a crash, this engine's own included; each resumes at its
   * first unfinished step), as many as fit, then ticks; the rest are claimed as room frees up.
   */
  async start(): Promise<void> {
    this.stopping = false;
    this.ticker.start();
    this.runs.resume();
    this.startLeaseRenewal();
    // What this id held in an earlier life (a restart) is free again; nothing of it executes now.
    await this.store.releaseRuns(this.workerId);
    await this.claim((lease, limit) => this.store.claimUnfinishedRuns(lease, limit));
    await this.tick();
  }

  /**
   * Stops timers and dequeuing and waits up to `graceMs` (default 5000) for executing runs to
   * reach a step boundary. Runs left unfinished are resumed by the next `start()` over the store.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    clearInterval(this.leaseTimer);
    const pending: Promise<unknown>[] = this.runs.pause();
    const ticking = this.ticker.stop();
    if (ticking) pending.push(ticking.catch(() => undefined));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(pending), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    await this.sandbox.close();
  }
}

/** Creates an engine. Call `start()` to resume stored runs and begin ticking. */
export function createEngine(options: EngineOptions): Engine {
  return new Engine(options);
}
