/**
 * The interfaces the host implements (README "Automations", "Standalone use"): where runs are
 * stored ({@link RunStore}), how actions reach the service ({@link Service}) and the network
 * ({@link Http}), and what time it is ({@link Clock}). The engine never imports the server.
 */
import type { AutomationDefinition } from './definition';
import type { ErrorInfo } from './errors';
import type { AgentMcpServer } from './mcp-client';

/** The source of time (ms since the Unix epoch). Inject a controllable one in tests. */
export interface Clock {
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A stored automation (its current version). */
export interface AutomationRecord {
  id: string;
  workspaceId: string;
  /** The user the automation acts as (its creator). */
  ownerId: string;
  /** Current version, from 1; every update adds one. Runs keep the version they started with. */
  version: number;
  enabled: boolean;
  definition: AutomationDefinition;
  /** Host data, e.g. the inbound webhook id of a webhook trigger. Not versioned. */
  meta: Record<string, unknown>;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/**
 * Run statuses: `queued` (waiting for a slot), `running`, `waiting` (delay, approval or retry
 * backoff; `wakeAt` says until when), and the final `completed`, `failed`, `rejected` (an
 * approval said no and ended the run), `cancelled` (disabled, deleted or cancelled while not
 * finished) and `skipped` (not started: the loop-depth limit).
 */
export const RUN_STATUSES = ['queued', 'running', 'waiting', 'completed', 'failed', 'rejected', 'cancelled', 'skipped'] as const;
/** One of {@link RUN_STATUSES}. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses after which a run never changes again, as a list (e.g. for SQL `IN`). */
export const FINAL_RUN_STATUSES = ['completed', 'failed', 'rejected', 'cancelled', 'skipped'] as const satisfies readonly RunStatus[];
/** {@link FINAL_RUN_STATUSES} as a set. */
export const FINAL_STATUSES: ReadonlySet<RunStatus> = new Set<RunStatus>(FINAL_RUN_STATUSES);

/** What a waiting run waits for. */
export interface WaitInfo {
  /** `automation`: an `automation.run` step waits for the run it started; `event`: a `wait.event` step waits for its event. */
  kind: 'delay' | 'approval' | 'retry' | 'automation' | 'event';
  stepId: string;
}

/** One kept version of an automation's definition. */
export interface VersionRecord {
  version: number;
  /** When this version was saved (ms since the epoch). */
  createdAt: number;
}

/** One run of an automation. Times are ms since the epoch. */
export interface RunRecord {
  id: string;
  automationId: string;
  /** The automation version this run executes (fixed at creation). */
  version: number;
  workspaceId: string;
  ownerId: string;
  status: RunStatus;
  /** The trigger kind and its variables (`trigger` in templates). */
  trigger: {
    type: string;
    variables: Record<string, unknown>;
    eventId?: string;
    /** A run started by a waiting `automation.run` step: that run and step (its journal key), woken when this run ends. */
    parent?: { runId: string; stepId: string };
    /** For an inbound call (webhook or form): its request headers, lowercase names, credential values `[redacted]` (not template variables). */
    headers?: Record<string, string>;
  };
  /** Loop depth: the triggering event's depth + 1. Changes made by the run carry it. */
  depth: number;
  /** Started through the test-run endpoint with a sample payload. */
  test: boolean;
  /** De-duplication key (event id, inbound idempotency key, schedule slot). */
  dedupeKey?: string;
  /** The run this one replays (same trigger; see `Engine.replayRun`). */
  replayOf?: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** When a waiting run is due (delay end, retry time, approval timeout); absent = no timer. */
  wakeAt?: number;
  waitingOn?: WaitInfo;
  error?: ErrorInfo;
}

/**
 * Step statuses: `running` (an attempt started; if the process dies now the attempt is
 * repeated on resume), `retrying` (a transient failure; next attempt at `nextAttemptAt`),
 * `waiting` (delay or approval), `succeeded`, `failed`.
 */
export const STEP_STATUSES = ['running', 'retrying', 'waiting', 'succeeded', 'failed'] as const;
/** One of {@link STEP_STATUSES}. */
export type StepStatus = (typeof STEP_STATUSES)[number];

/** One journalled step of a run. */
export interface StepRecord {
  runId: string;
  /** The action's id in the definition. */
  stepId: string;
  /** The action's type. */
  type: string;
  status: StepStatus;
  /** Rendered parameters of the last attempt (sensitive headers redacted). */
  input?: unknown;
  output?: unknown;
  error?: ErrorInfo;
  attempts: number;
  startedAt: number;
  finishedAt?: number;
  /** finishedAt − startedAt, including retry waits, delays and approval waits. */
  durationMs?: number;
  nextAttemptAt?: number;
}

/** Filter of {@link RunStore.listRuns}. Newest first. */
export interface RunQuery {
  workspaceId?: string;
  automationId?: string;
  status?: RunStatus;
  limit: number;
  /** Return runs created before this run (cursor paging). */
  beforeRunId?: string;
  /** Only runs created at or after this time (ms since the epoch). */
  createdFrom?: number;
  /** Only runs created before this time (ms since the epoch). */
  createdBefore?: number;
}

/**
 * A claim of one executing engine on runs (`RunStore.claimUnfinishedRuns` and the like): while it
 * holds, no other engine on the store executes them. Times are wall-clock ms since the epoch (not
 * the engine's {@link Clock}: leases are about processes being alive).
 */
export interface RunLease {
  /** The claiming engine's id (`EngineOptions.workerId`): one per process. */
  owner: string;
  /** Now: leases that ended before this time are free. */
  now: number;
  /** Until when the claim holds unless it is renewed. */
  until: number;
}

/**
 * Durable storage of automations, runs and the step journal. Implementations: the in-memory
 * `MemoryStore` of this package and the server's store (SQLite or PostgreSQL). Several engines may
 * execute runs of one store at once (one per process): each claims the runs it executes with a
 * {@link RunLease}. Each method is atomic on its own.
 */
export interface RunStore {
  /** Inserts a new automation with its version-1 definition. */
  insertAutomation(automation: AutomationRecord): Promise<void>;
  /** Replaces the automation row; when `version` grew, also keeps the new version's definition. */
  updateAutomation(automation: AutomationRecord): Promise<void>;
  getAutomation(id: string): Promise<AutomationRecord | undefined>;
  /** The definition of one version (runs execute the version they started with). */
  getDefinition(automationId: string, version: number): Promise<AutomationDefinition | undefined>;
  /** Every kept version of an automation, newest first. */
  listVersions(automationId: string): Promise<VersionRecord[]>;
  listAutomations(workspaceId: string): Promise<AutomationRecord[]>;
  /** Enabled automations whose trigger has `triggerType`, optionally in one workspace. */
  listEnabledAutomations(triggerType: string, workspaceId?: string): Promise<AutomationRecord[]>;
  /** Deletes the automation, its versions, runs, steps and schedule state. */
  deleteAutomation(id: string): Promise<void>;

  /** The last schedule slot (ms) that fired for an automation. */
  getScheduleSlot(automationId: string): Promise<number | undefined>;
  setScheduleSlot(automationId: string, slot: number): Promise<void>;

  /**
   * Inserts a run, unless `dedupe` is given and a run of the same automation with the same
   * key was created at or after `dedupe.since` (ms): then returns that run and `created: false`.
   * `steps` (journal entries of the new run, e.g. a replay's recorded outputs) are saved with it,
   * and a new run is claimed for `lease` when given. Check and inserts are one atomic operation.
   */
  createRun(
    run: RunRecord,
    dedupe?: { since: number },
    steps?: StepRecord[],
    lease?: RunLease,
  ): Promise<{ run: RunRecord; created: boolean }>;
  getRun(id: string): Promise<RunRecord | undefined>;
  listRuns(query: RunQuery): Promise<RunRecord[]>;
  /** Updates fields of a run (`undefined` values clear optional fields). */
  updateRun(id: string, patch: Partial<RunRecord>): Promise<void>;
  /**
   * {@link saveSteps} of `steps` (journal entries of run `id`) and {@link updateRun} of `patch`
   * as one atomic write (one commit): the executor ends or suspends a run with the journal entries
   * it has not written yet. Rejects, writing nothing, when `steps` is not empty and the run is
   * not stored.
   */
  updateRunWithSteps(id: string, patch: Partial<RunRecord>, steps: readonly StepRecord[]): Promise<void>;
  /**
   * Claims up to `limit` runs in status `queued` or `running` (new, or interrupted by a stop or a
   * crash), oldest first, that are free: no lease, or a lease that ended before `lease.now`. Runs
   * being claimed at the same moment are passed over, not waited for (PostgreSQL: `FOR UPDATE SKIP
   * LOCKED`), so engines claiming at once get different runs. Resolves to their ids.
   */
  claimUnfinishedRuns(lease: RunLease, limit: number): Promise<string[]>;
  /** {@link claimUnfinishedRuns} for runs in status `waiting` with `wakeAt <= dueBy`, soonest first. */
  claimDueRuns(dueBy: number, lease: RunLease, limit: number): Promise<string[]>;
  /** Claims one run, whatever its status, when it is free (see {@link claimUnfinishedRuns}) or `lease.owner` holds it already; false when another engine holds it. */
  claimRun(runId: string, lease: RunLease): Promise<boolean>;
  /** {@link claimRun} that resolves to the run as stored once claimed (one operation); `undefined` when another engine holds it or there is no such run. */
  claimAndGetRun(runId: string, lease: RunLease): Promise<RunRecord | undefined>;
  /** Extends the leases `lease.owner` holds on these runs to `lease.until`; resolves to the ids still held. */
  renewLeases(runIds: readonly string[], lease: RunLease): Promise<string[]>;
  /** Gives up the lease `owner` holds on the run (it waits, or this engine stops), so that any engine may take it. */
  releaseRun(runId: string, owner: string): Promise<void>;
  /** Gives up every lease `owner` holds on runs not final: an engine started again under the same id, before it claims. */
  releaseRuns(owner: string): Promise<void>;
  /** The smallest `wakeAt` greater than `after` among waiting runs (timer planning). */
  nextWakeAt(after: number): Promise<number | undefined>;
  /** Runs of an automation in status queued or waiting. */
  listPendingRuns(automationId: string): Promise<RunRecord[]>;
  /** Records that a run should be cancelled by whichever engine executes it (see `EngineOptions.executes`). */
  requestCancel(runId: string): Promise<void>;
  /** Ids of runs not yet final (queued, running or waiting) whose cancellation was requested, oldest first. */
  listCancelRequests(): Promise<string[]>;

  /** The run's journal, in the order steps first started. */
  getSteps(runId: string): Promise<StepRecord[]>;
  /** Inserts or replaces the step (runId, stepId). */
  saveStep(step: StepRecord): Promise<void>;
  /**
   * {@link saveStep} of each of `steps` (distinct (runId, stepId)), as one atomic write (one
   * commit); entries new to the journal go after its others in the order given. Rejects, writing
   * nothing, when a step's run is not stored.
   */
  saveSteps(steps: readonly StepRecord[]): Promise<void>;
  /**
   * Atomically: when the step is `waiting` and the run `waiting`, marks the step `succeeded`
   * with `output` (finishedAt `now`) and the run `queued` without timer. Returns false otherwise
   * (already decided, cancelled...).
   */
  resolveWait(runId: string, stepId: string, output: unknown, now: number): Promise<boolean>;
}

/**
 * Given to every {@link Service} call: on whose behalf the host acts and how deep the loop is.
 */
export interface ServiceContext {
  workspaceId: string;
  /** The automation owner's user id; the host acts as this user with their role. */
  ownerId: string;
  automationId: string;
  runId: string;
  stepId: string;
  /** The run's depth: events raised by the change must carry it (loop guard). */
  depth: number;
  /**
   * `<runId>:<stepId>`. A host that records this key in the same transaction as the change
   * (and returns the recorded output when it sees the key again) makes the action exactly-once
   * across crashes.
   */
  idempotencyKey: string;
}

/** Reference to a task. */
export interface TaskRef {
  projectId: string;
  taskId: string;
}

/** One side of a task date as the task actions render it. */
export interface TaskDatePoint {
  date: string;
  time: string;
  timezone: string;
}

/** The rendered parameters of a `task.find` step (filters combined with AND). */
export interface FindTasksParams {
  projectId: string;
  /** Text contains, case-insensitive. */
  text?: string;
  completed?: boolean;
  /** A handle without `@`. */
  assignee?: string;
  /** A custom field by id or name and the value it must hold (compared as text). */
  field?: { fieldId: string; value: string | number | boolean };
  /** Tasks per page, 1..100. */
  limit: number;
  after?: string;
}

/**
 * The service operations task and agent actions use. The server implements them with the same
 * domain functions as the API (same validation, events and limits). Errors with a numeric
 * `statusCode` are classified by it (429/5xx transient, other 4xx permanent).
 * Every method resolves to the API-shaped result, which becomes the step's output.
 */
export interface Service {
  createTask(ctx: ServiceContext, p: { projectId: string; text: string; referenceTaskId?: string; placement?: string }): Promise<unknown>;
  updateTask(ctx: ServiceContext, p: TaskRef & { text: string }): Promise<unknown>;
  completeTask(ctx: ServiceContext, p: TaskRef): Promise<unknown>;
  uncompleteTask(ctx: ServiceContext, p: TaskRef): Promise<unknown>;
  deleteTask(ctx: ServiceContext, p: TaskRef): Promise<unknown>;
  assignTask(ctx: ServiceContext, p: TaskRef & { handles: string[] }): Promise<unknown>;
  /** `time`/`timezone` are '' when not given; a side not given is cleared. */
  setTaskDate(ctx: ServiceContext, p: TaskRef & { start?: TaskDatePoint; end?: TaskDatePoint }): Promise<unknown>;
  setTaskNote(ctx: ServiceContext, p: TaskRef & { type: string; value: string }): Promise<unknown>;
  setTaskField(ctx: ServiceContext, p: TaskRef & { fieldId: string; value: string | number | boolean }): Promise<unknown>;
  moveTask(ctx: ServiceContext, p: TaskRef & { targetTaskId: string; position: string }): Promise<unknown>;
  /**
   * The service actions beyond task writes (docs "Actions"); optional so that a host may leave
   * them out: a step of a kind its host lacks fails with the permanent `NOT_SUPPORTED`.
   * `createComment` resolves to the comment; `getTask` to the task with `assignees` and `fields`.
   */
  createComment?(ctx: ServiceContext, p: TaskRef & { text: string }): Promise<unknown>;
  getTask?(ctx: ServiceContext, p: TaskRef): Promise<unknown>;
  /** One page of a project's matching tasks, at most `limit` (1..100), after the task `after`: `{items, next?}`. */
  findTasks?(ctx: ServiceContext, p: FindTasksParams): Promise<unknown>;
  /** Creates a project in `folderId` (absent: the workspace's home folder); resolves to the project. */
  createProject?(ctx: ServiceContext, p: { folderId?: string; name: string; content: string }): Promise<unknown>;
  /**
   * Runs an agent command (by id or name) with `input`; records the conversation; resolves to the
   * answer. With `tools`, the model may call them (at most `tools.maxRounds` rounds of calls):
   * the host hands each call to `tools.call` and the result back to the model.
   */
  runAgentCommand(ctx: ServiceContext, p: { agentId: string; command: string; input: string; tools?: AgentToolSet }): Promise<unknown>;
  /**
   * The MCP servers of the agent's own settings (docs/mcp.md "MCP servers as agent tools"), offered
   * by an `agent.command` step after the step's own. Optional: without it, only the step's.
   */
  agentMcpServers?(ctx: ServiceContext, agentId: string): Promise<AgentMcpServer[]>;
  /**
   * `email.send`: queues a mail through the host's outgoing mail (exactly once per
   * `ctx.idempotencyKey`); resolves to what the step outputs. Optional: without it the step fails
   * with the permanent `NOT_SUPPORTED`.
   */
  sendEmail?(ctx: ServiceContext, p: EmailParams): Promise<unknown>;
  /**
   * The folder holding a project followed by its ancestor folders, for folder-scoped triggers.
   * Empty when the project is unknown.
   */
  projectFolders(workspaceId: string, projectId: string): Promise<string[]>;
}

/** A mail an `email.send` step asks the host to send (templates rendered, addresses checked loosely). */
export interface EmailParams {
  /** At least one address, plain or `Name <address>`. */
  to: string[];
  cc: string[];
  /** One line. */
  subject: string;
  text: string;
  html?: string;
  /** Media items of the run's workspace to attach. */
  attachments: { mediaId: string; filename?: string }[];
  /** A workspace's own SMTP server (`smtp://…`/`smtps://…`, usually from a secret); absent: the host's. */
  smtpUrl?: string;
}

/** A function the model may call (OpenAI tool calling): its name, what it does, its arguments as a JSON Schema object. */
export interface AgentToolDefinition {
  /** `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model asks for: the tool's name and its arguments (parsed JSON; a string when the model sent text that is not JSON). */
export interface AgentToolCall {
  name: string;
  arguments: unknown;
}

/** The tools of an agent command run (see {@link Service.runAgentCommand}). */
export interface AgentToolSet {
  definitions: AgentToolDefinition[];
  /** Rounds of tool calls allowed; after the last one the model is asked for its answer without tools. */
  maxRounds: number;
  /** Runs one call; resolves to its result (an error result for a refused call); rejects only when the step is aborted. */
  call(call: AgentToolCall): Promise<unknown>;
}

/** An outbound HTTP request (HTTP Request action). */
export interface HttpRequest {
  method: string;
  /** Absolute http(s) URL, query included. */
  url: string;
  headers: Record<string, string>;
  /** The body: text is sent as UTF-8, bytes as they are (a piece's file upload). */
  body?: string | Uint8Array;
  /** Also answer the body's exact bytes as {@link HttpResponse.bytes} (a piece's file download). */
  responseBytes?: boolean;
  /** Largest response body accepted, in bytes; absent: the host's default (1 MiB on the server). */
  maxResponseBytes?: number;
  /** Per-attempt timeout in ms. */
  timeoutMs: number;
  /** Aborts the request (a cancelled run, a run past its deadline). */
  signal?: AbortSignal;
  /** Redirects to follow (0 or absent: none; the 3xx answer is the response). */
  maxRedirects?: number;
  /**
   * A `multipart/form-data` body (instead of `body`): the host encodes it, reading each file
   * part's media from the workspace's media store as `onBehalfOf`'s owner.
   */
  multipart?: HttpMultipartPart[];
  /** Whose workspace media a {@link multipart} body may read (the run's workspace and automation owner). */
  onBehalfOf?: { workspaceId: string; ownerId: string };
}

/**
 * One part of a `multipart/form-data` request body (RFC 7578): a text field, or a file whose
 * bytes, content type and default file name come from the workspace's media item `mediaId`.
 */
export type HttpMultipartPart = { name: string; value: string } | { name: string; mediaId: string; filename?: string };

/** The response of an {@link HttpRequest}. Header names are lowercase. */
export interface HttpResponse {
  status: number;
  /** The URL that answered, when redirects were followed to another one. */
  url?: string;
  headers: Record<string, string>;
  /** The body as text (UTF-8; bytes that are not UTF-8 become U+FFFD). */
  body: string;
  /** The body's exact bytes, when the request asked with {@link HttpRequest.responseBytes}. */
  bytes?: Uint8Array;
}

/**
 * Outbound HTTP. Throws on network failures and timeouts (classified transient); answers any
 * HTTP status (the action decides). A host may refuse targets (SSRF guard) by throwing an
 * `ActionError` with `transient: false`.
 */
export interface Http {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** Where the engine reports problems it cannot attach to a run. */
export interface Logger {
  warn(data: Record<string, unknown>, message: string): void;
  error(data: Record<string, unknown>, message: string): void;
}
