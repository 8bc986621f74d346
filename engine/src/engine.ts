/**
 * The automation engine (README "Automations"): matches trigger events to automations, creates
 * runs, takes cancellations and approval decisions, and wakes parents of finished sub-runs.
 * {@link Engine} is a façade: `engine-parts.ts` assembles its collaborators — the
 * `AutomationRegistry` (automations, their versions and the definition a run executes), the
 * `RunQueue` where runs wait and execute (FIFO, a concurrency limit), the `Ticker` through which
 * delays, retries, approval timeouts and schedule slots come due, the `Executor` that walks a
 * run's actions, and the run collaborators of `runs/` over one shared `RunContext`: `RunIntake`
 * (creating runs, dedupe, trigger filters), `Leases` (claims and their renewal), `Cancellation`
 * (also across processes), `RunWaiters`, `SubRuns`, `RunExecution` and the tick's `dueWork`.
 * Approvals are decided by `steps/approvals.ts`, events sent to runs by `events.ts`; options and
 * defaults are in `engine-options.ts`.
 */
import { decideApproval } from './steps/approvals';
import { sendRunEvent } from './events';
import type { AutomationDefinition } from './definition';
import type { NewAutomation } from './kinds/automations';
import { testStep, type StepTestInput, type StepTestResult } from './steps/step-test';
import type { AutomationRecord, RunQuery, RunRecord, VersionRecord } from './ports';
import type { TriggerEvent } from './kinds/events';
import type { WebhookRequest } from './kinds/inbound/webhook/request';
import type { Templates } from './templates';
import type { KindRegistry } from './kinds/registry';
import type { EngineOptions, RunWithSteps, StartRunOptions } from './engine-options';
import { assembleEngine, discoverRuns, startEngine, stopEngine, type EngineParts } from './engine-parts';
import { queueRun } from './runs/context';

export { EngineError } from './errors';
export type { NewAutomation } from './kinds/automations';
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_WORKER_ID,
  type EngineOptions,
  type RunWithSteps,
  type StartRunOptions,
} from './engine-options';
export { RUN_POLL_MS } from './runs/waiters';
export { CANCEL_WAIT_MS } from './runs/cancellation';

/** The engine. Create with {@link createEngine}. */
export class Engine {
  /** The Liquid templates steps are rendered with. */
  readonly templates: Templates;
  /** The kinds of this engine: its schema (`kinds.schema`), catalogue (`kinds.catalogue()`) and validator. */
  readonly kinds: KindRegistry;
  /** The collaborators this façade delegates to. */
  private readonly parts: EngineParts;

  /** @throws Error when two of `options.kinds` share a type. */
  constructor(options: EngineOptions) {
    this.parts = assembleEngine(options, () => this.discover());
    this.templates = this.parts.templates;
    this.kinds = this.parts.kinds;
  }

  /** Tests one step with pinned samples, recorded as a test run (`step-test.ts`). @throws EngineError 400, 404. */
  testStep(automation: AutomationRecord, input: StepTestInput): Promise<StepTestResult> {
    const { ctx, executor, kinds, newId, workerId } = this.parts;
    return testStep({ store: ctx.store, executor, kinds, clock: ctx.clock, newId, owner: workerId }, automation, input);
  }

  // ---------------------------------------------------------------- automations (the registry's)

  /** See {@link AutomationRegistry.validate}. @throws EngineError 400. */
  validate(definition: unknown): AutomationDefinition {
    return this.parts.registry.validate(definition);
  }

  /** Creates an automation at version 1 (see {@link AutomationRegistry.create}). @throws EngineError 400. */
  createAutomation(input: NewAutomation): Promise<AutomationRecord> {
    return this.parts.registry.create(input);
  }

  /** The automation's current version, or undefined. */
  getAutomation(id: string): Promise<AutomationRecord | undefined> {
    return this.parts.ctx.store.getAutomation(id);
  }

  /** A workspace's automations. */
  listAutomations(workspaceId: string): Promise<AutomationRecord[]> {
    return this.parts.ctx.store.listAutomations(workspaceId);
  }

  /** Every kept version of an automation, newest first (empty for an unknown one). */
  listVersions(automationId: string): Promise<VersionRecord[]> {
    return this.parts.ctx.store.listVersions(automationId);
  }

  /** The definition of one version of an automation, or undefined. */
  getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined> {
    return this.parts.ctx.store.getDefinition(automationId, version);
  }

  /**
   * Replaces the definition with a new version (see {@link AutomationRegistry.update}); the host
   * updates its data (`meta`, such as an inbound URL) in the same store write when the trigger changes.
   * @throws EngineError 404, 400.
   */
  updateAutomation(id: string, definition: unknown, meta?: Record<string, unknown>): Promise<AutomationRecord> {
    return this.parts.registry.update(id, definition, meta);
  }

  /**
   * Enables or disables an automation. Disabling cancels its queued and waiting runs (and stops
   * its executing runs at their next step). @throws EngineError 404.
   */
  setEnabled(id: string, enabled: boolean): Promise<AutomationRecord> {
    return this.parts.registry.setEnabled(id, enabled);
  }

  /** Deletes an automation with its versions and runs, cancelling what is pending. @throws EngineError 404. */
  deleteAutomation(id: string): Promise<void> {
    return this.parts.registry.delete(id);
  }

  // ---------------------------------------------------------------- runs (the collaborators of runs/)

  /**
   * Hands a service event to the engine: every enabled automation of the event's workspace
   * whose trigger matches gets a run (queued, or `skipped` past the depth limit). Submitting the
   * same event id twice creates no second run. An automation created after the event (`at`)
   * does not run for it. Resolves to the runs (new or existing).
   */
  async submit(event: TriggerEvent): Promise<RunRecord[]> {
    return this.parts.intake.submitAll([event]);
  }

  /**
   * {@link submit} for a batch of events, in order, as the service's outbox consumer reads them:
   * the enabled automations of each (event type, workspace) pair are read once per batch rather
   * than once per event. Resolves to every run of the batch (new or existing), in event order.
   */
  async submitAll(events: readonly TriggerEvent[]): Promise<RunRecord[]> {
    return this.parts.intake.submitAll(events);
  }

  /**
   * Starts a run of one automation: a webhook call (`variables` is the body, any JSON value; see
   * `webhookVariables`) or a test run with a sample payload (for other trigger kinds an object
   * whose fields become the variables).
   * @throws EngineError 404 (unknown automation), 409 (disabled, unless `test`).
   */
  async startRun(automationId: string, variables: unknown, opts: StartRunOptions = {}): Promise<RunRecord> {
    return this.parts.intake.startRun(automationId, variables, opts);
  }

  /**
   * The run an inbound call (webhook or form URL) starts, prepared but not stored: `queued`, depth 1,
   * `trigger.eventId` the call's request id, de-duplicated on that request id (dedupe key
   * `inbound:<requestId>`) within the dedupe window, so a host that derives the request id from an
   * `Idempotency-Key` gets one run per key. The host stores it in the transaction that accepts the
   * call (`RunStore.createRun` semantics with `dedupe`), so an acknowledged call always has its run,
   * then hands it over with {@link enqueue}. A webhook trigger's variables include `call.request`
   * (method, headers, query, raw body; see `webhookVariables`). When the trigger's `filter` refuses
   * the call's variables the answer is `{filtered: true}`: the host stores no run and answers the
   * call as accepted (docs "Trigger filters").
   * @throws EngineError 409 when the automation is disabled.
   */
  prepareInboundRun(
    automation: AutomationRecord,
    body: unknown,
    call: { requestId: string; headers?: Record<string, string>; request?: WebhookRequest },
  ): { filtered: false; run: RunRecord; dedupe: { since: number } } | { filtered: true } {
    return this.parts.intake.prepareInboundRun(automation, body, call);
  }

  /**
   * Queues a run the host stored as `queued` itself (see {@link prepareInboundRun}); a run already
   * queued or executing is left as it is, one in any other status is skipped when its turn comes.
   */
  enqueue(runId: string, automationId?: string): void {
    queueRun(this.parts.ctx, runId, automationId);
  }

  /**
   * For an executing engine that shares its store with other engines (other processes): claims
   * the stored runs that are queued or running and free (recorded by a non-executing engine, or
   * left by a process that died), as many as there is room for; carries out the cancel requests
   * of runs executing or claimed here, or free; and does what is due ({@link Engine.tick}). Call
   * it every poll interval and when told of new work; a no-op on a non-executing or stopped engine.
   */
  async discover(): Promise<void> {
    return discoverRuns(this.parts);
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
    return this.parts.intake.replayRun(runId, opts);
  }

  /** A run with its journal, or undefined. */
  async getRun(runId: string): Promise<RunWithSteps | undefined> {
    const run = await this.parts.ctx.store.getRun(runId);
    if (!run) return undefined;
    return { run, steps: await this.parts.ctx.store.getSteps(runId) };
  }

  /** Runs, newest first. */
  listRuns(query: RunQuery): Promise<RunRecord[]> {
    return this.parts.ctx.store.listRuns(query);
  }

  /**
   * Decides the approval a run waits on (see {@link decideApproval}): by one of the step's
   * `approvers` when it lists any (membership and role are the host's to check); the run continues.
   * @throws EngineError 404 (unknown run), 409 (not waiting for an approval), 403 (not an approver).
   */
  decide(runId: string, approve: boolean, by: { handle: string }, comment?: string): Promise<RunRecord> {
    return decideApproval(this.parts.approvals, runId, approve, by, comment);
  }

  /**
   * Sends an event to a run waiting on a `wait.event` step (see {@link sendRunEvent}); `event`
   * undefined: the one it waits for. The run continues with the payload as the step's output.
   * @throws EngineError 404, 409.
   */
  sendEvent(runId: string, event: string | undefined, payload: unknown, sentBy: string): Promise<RunRecord> {
    const { ctx } = this.parts;
    return sendRunEvent(
      { store: ctx.store, clock: ctx.clock, resume: (run) => queueRun(ctx, run.id, run.automationId) },
      runId,
      event,
      payload,
      sentBy,
    );
  }

  /**
   * Cancels a run that has not finished: queued and waiting runs at once, an executing run at its
   * next step boundary; the child runs it waits for go with it. Resolves to the run as stored
   * (unchanged when already final). See {@link Cancellation.cancelRun}.
   * @throws EngineError 404.
   */
  async cancelRun(runId: string): Promise<RunRecord> {
    return this.parts.cancellation.cancelRun(runId);
  }

  /**
   * Resolves when the run has settled (a final status, or waiting) — at once if it already has —
   * or after `timeoutMs` (ms, default 30000) with the run as then stored.
   * @throws EngineError 404 when the run does not exist.
   */
  async waitForRun(runId: string, timeoutMs = 30_000): Promise<RunRecord> {
    return this.parts.waiters.waitFor(runId, timeoutMs);
  }

  /** Resolves when no run is queued or executing. */
  idle(): Promise<void> {
    return this.parts.ctx.runs.idle();
  }

  /** Number of runs executing now and waiting in the queue. */
  load(): { active: number; queued: number } {
    return this.parts.ctx.runs.load();
  }

  // ---------------------------------------------------------------- time and lifecycle

  /**
   * Does what is due at `clock.now()`: queues waiting runs whose delay, retry or approval
   * timeout has come, and fires each enabled schedule whose slot has come (once per slot, also
   * across restarts: the store keeps the last fired slot). Then re-arms the timer (autoTick).
   */
  tick(): Promise<void> {
    return this.parts.ticker.tick();
  }

  /**
   * Starts the engine over its store: claims the runs left `queued` or `running` that no other
   * engine holds (interrupted by a stop or a crash, this engine's own included; each resumes at its
   * first unfinished step), as many as fit, then ticks; the rest are claimed as room frees up.
   */
  async start(): Promise<void> {
    return startEngine(this.parts);
  }

  /**
   * Stops timers and dequeuing and waits up to `graceMs` (ms, default 5000) for executing runs to
   * reach a step boundary. Runs left unfinished are resumed by the next `start()` over the store.
   */
  async stop(graceMs = 5000): Promise<void> {
    return stopEngine(this.parts, graceMs);
  }
}

/** Creates an engine. Call `start()` to resume stored runs and begin ticking. @throws Error when two of `options.kinds` share a type. */
export function createEngine(options: EngineOptions): Engine {
  return new Engine(options);
}
