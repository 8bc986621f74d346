/**
 * How an {@link Engine} is put together from its options: the registry, executor, run queue and
 * ticker, and the run collaborators of `runs/` over one shared {@link RunContext}, each given the
 * others it calls. Collaborators that call each other in a loop at run time (a cancelled run
 * settles, which cancels its children) are handed callbacks, so no module imports another in a
 * loop. Everything is made per engine; nothing is module-level.
 */
import { randomBytes } from 'node:crypto';
import type { ApprovalDeps } from './steps/approvals';
import { DEFAULT_KINDS } from './kinds';
import { KindRegistry } from './kinds/registry';
import { AutomationRegistry } from './kinds/automations';
import { Executor } from './steps/executor';
import { RunQueue } from './run-queue';
import { Ticker } from './ticker';
import { systemClock, type Logger, type RunRecord } from './ports';
import { Templates } from './templates';
import { CodeSandbox } from './code/sandbox';
import {
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_TICK_INTERVAL_MS,
  DEFAULT_WORKER_ID,
  MIN_LEASE_MS,
  type EngineOptions,
} from './engine-options';
import { queueRun, type RunContext } from './runs/context';
import { Leases } from './runs/leases';
import { RunWaiters } from './runs/waiters';
import { Cancellation } from './runs/cancellation';
import { RunIntake } from './runs/intake';
import { SubRuns } from './runs/sub-runs';
import { settleRun } from './runs/settle';
import { RunExecution } from './runs/execution';
import { dueWork } from './runs/schedules';

/** The parts of one engine, as {@link assembleEngine} makes them. */
export interface EngineParts {
  templates: Templates;
  kinds: KindRegistry;
  /** `EngineOptions.workerId` or its default. */
  workerId: string;
  /** Id generator of automations and runs. */
  newId: () => string;
  executor: Executor;
  /** Where `code` steps run; its worker threads start on first use and end with `Engine.stop`. */
  sandbox: CodeSandbox;
  /** Automations and their versions. */
  registry: AutomationRegistry;
  /** What approval decisions read and resume runs with. */
  approvals: ApprovalDeps;
  /** Delays, retries, approval timeouts and schedule slots coming due. */
  ticker: Ticker;
  /** What the run collaborators share (the run queue among it). */
  ctx: RunContext;
  leases: Leases;
  waiters: RunWaiters;
  cancellation: Cancellation;
  intake: RunIntake;
  subRuns: SubRuns;
  execution: RunExecution;
}

/** 128 random bits, base64url: the default id of automations and runs. */
function defaultId(): string {
  return randomBytes(16).toString('base64url');
}

/** The default logger: drops everything. */
function silentLogger(): Logger {
  return { warn: () => undefined, error: () => undefined };
}

/**
 * Makes the parts of an engine from its options, with defaults applied (see {@link EngineOptions}).
 * `discover` is the engine's `discover()`, called when room frees up after a claim that filled the
 * run queue.
 * @throws Error when two of `options.kinds` share a type.
 */
export function assembleEngine(options: EngineOptions, discover: () => Promise<void>): EngineParts {
  const store = options.store;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger();
  const maxConcurrent = Math.max(1, options.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
  const workerId = options.workerId ?? DEFAULT_WORKER_ID;
  const newId = options.newId ?? defaultId;
  const templates = new Templates(options.templates);
  const kinds = new KindRegistry(options.kinds ?? DEFAULT_KINDS);
  const sandbox = new CodeSandbox({
    workers: options.codeWorkers,
    workersPerWorkspace: options.codeWorkersPerWorkspace,
    queuePerWorkspace: options.codeQueuePerWorkspace,
  });
  const lifecycle = { stopping: false };
  // The callbacks below read parts made further down: they are called only once all are made.
  const settled = (run: RunRecord): void => settleRun({ logger, subRuns, cancellation, waiters, onRunSettled: options.onRunSettled }, run);
  const executor = new Executor({
    store,
    service: options.service,
    http: options.http,
    ...(options.mcp ? { mcp: options.mcp } : {}),
    clock,
    random: options.random ?? Math.random,
    templates,
    sandbox,
    workActions: kinds.workActions,
    isCancelled: (id) => cancellation.isRequested(id),
    isStopping: () => lifecycle.stopping,
    secrets: options.secrets,
    ...(options.resumeUrl ? { resumeUrl: options.resumeUrl } : {}),
    startChild: (parent, stepKey, params) => subRuns.startChild(parent, stepKey, params),
  });
  const registry = new AutomationRegistry(
    store,
    clock,
    templates,
    newId,
    {
      kick: () => ticker.kick(),
      cancelRunsOf: (automationId) => cancellation.cancelRunsOf(automationId),
    },
    kinds,
  );
  const limits = new Map<string, number>();
  const runs = new RunQueue(maxConcurrent, {
    execute: (runId, entry) => execution.runOne(runId, entry),
    finished: (runId) => execution.finished(runId),
    limitOf: (automationId) => limits.get(automationId),
    logger,
  });
  const ctx: RunContext = {
    store,
    clock,
    logger,
    executes: options.executes ?? true,
    workerId,
    onWork: options.onWork,
    runs,
    fresh: new Map(),
    limits,
    lifecycle,
  };
  const approvals: ApprovalDeps = { store, clock, definitionOf: (run) => registry.definitionOf(run), resume: (id) => queueRun(ctx, id) };
  const leases = new Leases(ctx, { leaseMs: Math.max(MIN_LEASE_MS, options.leaseMs ?? DEFAULT_LEASE_MS), maxConcurrent });
  const waiters = new RunWaiters(ctx);
  const cancellation = new Cancellation(ctx, { leases, waiters, abort: (runId) => executor.abort(runId), settled });
  const intake = new RunIntake(ctx, {
    service: options.service,
    templates,
    kinds,
    registry,
    leases,
    newId,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    dedupeWindowMs: options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS,
    settled,
  });
  const subRuns = new SubRuns(ctx, intake);
  const due = { leases, intake, firesSchedules: options.firesSchedules ?? (() => true) };
  const ticker = new Ticker({
    clock,
    logger,
    autoTick: options.autoTick ?? true,
    maxIntervalMs: options.maxTickIntervalMs ?? DEFAULT_MAX_TICK_INTERVAL_MS,
    work: (now) => dueWork(ctx, due, now),
  });
  const execution = new RunExecution(ctx, { executor, registry, leases, cancellation, waiters, subRuns, ticker, settled, discover });
  return {
    templates,
    kinds,
    workerId,
    newId,
    executor,
    sandbox,
    registry,
    approvals,
    ticker,
    ctx,
    leases,
    waiters,
    cancellation,
    intake,
    subRuns,
    execution,
  };
}

/**
 * Claims the free stored runs that fit, carries out the cancel requests of runs executing or
 * claimed here, or free, and ticks (`Engine.discover`); a no-op on a non-executing or stopped
 * engine. Rejects on a store error.
 */
export async function discoverRuns(parts: EngineParts): Promise<void> {
  const { ctx } = parts;
  if (!ctx.executes || ctx.lifecycle.stopping) return;
  await parts.leases.claim((lease, limit) => ctx.store.claimUnfinishedRuns(lease, limit));
  await parts.cancellation.carryOutRequests();
  await parts.ticker.tick();
}

/**
 * Starts an engine over its store (`Engine.start`): ticker, queue and lease renewal on; what its
 * worker id held before (a restart) released; the free unfinished runs that fit claimed; a tick.
 * Rejects on a store error.
 */
export async function startEngine(parts: EngineParts): Promise<void> {
  const { ctx } = parts;
  ctx.lifecycle.stopping = false;
  parts.ticker.start();
  ctx.runs.resume();
  parts.leases.startRenewal();
  // What this id held in an earlier life (a restart) is free again; nothing of it executes now.
  await ctx.store.releaseRuns(parts.workerId);
  await parts.leases.claim((lease, limit) => ctx.store.claimUnfinishedRuns(lease, limit));
  await parts.ticker.tick();
}

/**
 * Stops an engine (`Engine.stop`): timers and dequeuing off, then waits up to `graceMs` (ms) for
 * executing runs to reach a step boundary and the tick in progress to end, and closes the sandbox.
 */
export async function stopEngine(parts: EngineParts, graceMs: number): Promise<void> {
  parts.ctx.lifecycle.stopping = true;
  parts.leases.stopRenewal();
  const pending: Promise<unknown>[] = parts.ctx.runs.pause();
  const ticking = parts.ticker.stop();
  if (ticking) pending.push(ticking.catch(() => undefined));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(pending), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  await parts.sandbox.close();
}
