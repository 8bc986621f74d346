import type { Action } from '../definition';
import type { Clock, Http, RunRecord, Service, ServiceContext } from '../ports';
import type { Scope, Templates } from '../templates';

/** What an action sees while it runs. */
export interface ActionContext {
  run: RunRecord;
  scope: Scope;
  service: Service;
  http: Http;
  clock: Clock;
  /** The service context of this step (owner, depth, idempotency key). */
  serviceContext: ServiceContext;
}

/**
 * One action kind that does work (task, HTTP, agent). The executor journals `prepare`'s result
 * (through `journalInput`) before calling `execute`, and `execute`'s result as the output.
 */
export interface ActionKind<A extends Action = Action, P = unknown> {
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
