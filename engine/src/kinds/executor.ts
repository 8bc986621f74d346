import type { Action } from '../definition/types';
import type { CodeJob, CodeReply } from '../code/protocol';
import type { Clock, Http, RunRecord, Service, ServiceContext } from '../ports';
import type { McpClient } from '../mcp-client';
import type { Scope, Templates } from '../templates';

/** What an action sees while it runs. */
export interface ActionContext {
  run: RunRecord;
  scope: Scope;
  /** The engine's templates, for what a kind renders when it runs (an agent's own MCP servers). */
  templates: Templates;
  service: Service;
  http: Http;
  /** The host's MCP client, when it has one (`EngineOptions.mcp`). */
  mcp?: McpClient;
  clock: Clock;
  /** Aborted when the attempt must stop: a cancel, the run's deadline or the step's time limit. */
  signal?: AbortSignal;
  /** Where `code` steps run (the engine's `CodeSandbox`): `workspaceId` picks the fair share, `signal` stops the job. */
  sandbox: { run(job: CodeJob, options?: { workspaceId?: string; signal?: AbortSignal }): Promise<CodeReply> };
  /**
   * A copy of a value with the run's secrets, and values derived from them, replaced by their
   * placeholders: for what an action hands over to be stored (an agent's conversation).
   */
  mask<T>(value: T): T;
  /** The service context of this step (owner, depth, idempotency key). */
  serviceContext: ServiceContext;
}

/**
 * One action kind that does work (task, HTTP, agent). The executor journals `prepare`'s result
 * (through `journalInput`) before calling `execute`, and `execute`'s result as the output.
 */
export interface ActionKind<A = Action, P = unknown> {
  /**
   * Renders the action's templates into parameters.
   * @throws ActionError (permanent) on a template error or an unusable rendered value.
   */
  prepare(action: A, scope: Scope, templates: Templates): P;
  /** What the journal records as the step's input (default: the parameters). */
  journalInput?(params: P): unknown;
  /** Does the work; resolves to the step's output. Throws to fail (see `classifyError`). */
  execute(ctx: ActionContext, params: P, action: A): Promise<unknown>;
}
