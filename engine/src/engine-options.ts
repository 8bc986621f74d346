/**
 * The engine's options, defaults and the shapes of its public run methods (README "Automations").
 * Kept apart from the {@link Engine} façade (`engine.ts`), which re-exports everything here.
 */
import type { KindDeclaration } from './kinds/kind';
import type { SecretSource } from './secrets';
import type { TemplateOptions } from './templates';
import type { Clock, Http, Logger, RunRecord, RunStore, Service, StepRecord } from './ports';
import type { McpClient } from './mcp-client';

/** Default loop-depth limit: at most this many automation runs chained by the events they cause. */
export const DEFAULT_MAX_DEPTH = 5;
/** Default number of runs executing at once. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 16;
/** Default idempotency window of `startRun` dedupe keys: 24 hours, in ms. */
export const DEFAULT_DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Default {@link EngineOptions.leaseMs}: 30 s. */
export const DEFAULT_LEASE_MS = 30_000;
/** Shortest {@link EngineOptions.leaseMs} honoured, in ms: a shorter one is raised to this. */
export const MIN_LEASE_MS = 300;
/**
 * Default {@link EngineOptions.workerId}: the same for every engine that is not given one, so that
 * an engine started again over a store (one process, restarted) takes its runs back at once.
 */
export const DEFAULT_WORKER_ID = 'engine';
/** Default {@link EngineOptions.maxTickIntervalMs}: 60 s. */
export const DEFAULT_MAX_TICK_INTERVAL_MS = 60_000;

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Where automations, runs and their journals are kept (README "Automations", "Durability"). */
  store: RunStore;
  /** The workspace service that task steps act on and event triggers read. */
  service: Service;
  /** Outbound HTTP of `http.request` steps. */
  http: Http;
  /** The MCP client of `agent.command` steps naming `mcpServers` (absent: such steps fail with `NOT_SUPPORTED`). */
  mcp?: McpClient;
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
  /** Longest wait between automatic ticks, in ms (default {@link DEFAULT_MAX_TICK_INTERVAL_MS}). */
  maxTickIntervalMs?: number;
  /** Id generator for automations and runs (default: 128 random bits, base64url). */
  newId?: () => string;
  /** Source of retry jitter, a number in [0, 1) (default `Math.random`; tests pass `() => 0` for full, exact delays). */
  random?: () => number;
  /** Where warnings go (default: nowhere). */
  logger?: Logger;
  /** Options of the Liquid templates steps are rendered with. */
  templates?: TemplateOptions;
  /** Called whenever a run settles (reaches a final status or starts waiting); what it throws is logged. */
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
   * How long a claim on a run holds, in ms (default {@link DEFAULT_LEASE_MS}, at least
   * {@link MIN_LEASE_MS}): renewed every third of it while the run is queued or executing here, so
   * it runs out only when this process died or stalled. It is the longest a run of a dead process
   * waits before another engine takes it over, and a process stalled for longer may find its run
   * executed by another one meanwhile.
   */
  leaseMs?: number;
  /**
   * Whether this engine fires schedule slots at its ticks (default: always). When several engines
   * execute runs of one store, one fires them (the server: the leader).
   */
  firesSchedules?: () => boolean;
  /** Worker threads running `code` steps at once (default 2; see `CodeSandbox`). */
  codeWorkers?: number;
  /**
   * `code` steps of one workspace running at once (default all code workers but one, at least 1):
   * a workspace flooding the sandbox leaves a worker to the others (docs "Code").
   */
  codeWorkersPerWorkspace?: number;
  /** `code` steps of one workspace waiting for a worker at once (default 100); one more fails with the transient `CODE_BUSY`. */
  codeQueuePerWorkspace?: number;
  /** The URL that sends a run the event it waits for, read by templates as `{{ run.resumeUrl }}`. */
  resumeUrl?: (runId: string) => string;
  /**
   * The trigger and action kinds this engine knows (default `DEFAULT_KINDS`); e.g.
   * `[...DEFAULT_KINDS, myKind]` adds one to validation, the schema, the catalogue and execution.
   * @throws Error (from the constructor) when two kinds share a type.
   */
  kinds?: readonly KindDeclaration[];
}

/** A run with its journal (as {@link Engine.getRun} answers). */
export interface RunWithSteps {
  run: RunRecord;
  /** The run's journal, one record per step executed so far. */
  steps: StepRecord[];
}

/** Options of {@link Engine.startRun}. */
export interface StartRunOptions {
  /** A test run: allowed while disabled, flagged `test`. */
  test?: boolean;
  /** Idempotency key: a second start with the same key within `dedupeWindowMs` returns the first run. */
  dedupeKey?: string;
  /** Window of `dedupeKey`, in ms (default {@link EngineOptions.dedupeWindowMs}). */
  dedupeWindowMs?: number;
  /** Depth of whatever caused this start (default 0). */
  depth?: number;
  /** Trigger type recorded on the run (default: the automation's trigger type). */
  triggerType?: string;
  /** Id of what started the run (e.g. the inbound request), recorded as `trigger.eventId`. */
  sourceId?: string;
}
