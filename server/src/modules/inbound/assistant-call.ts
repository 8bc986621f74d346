import { usesAction, type AutomationRecord, type RunResponse } from '@taskspace/engine';
import { ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { fromEngineError } from '../../http/engine-errors';
import type { AutomationRuntime } from '../engine-host/runtime';
import { insertRun } from '../engine-host/run-store';
import { awaitInboundResponse } from './respond';

/**
 * An assistant's call of an automation's MCP tool (docs/mcp.md "Automations as tools"): the same
 * way into the engine as an inbound webhook call (`inbound.ts`): the engine prepares the run
 * (`prepareInboundRun`: the trigger's filter, the arguments as `trigger.*`), the run is stored
 * `queued` in one transaction and handed to the engine, and an automation with a `respond` step
 * is waited for as a webhook's call is (`awaitInboundResponse`, up to
 * `TASKSPACE_INBOUND_RESPOND_TIMEOUT_MS`). The caller has checked who may call (modules/mcp).
 */

/** What a tool call started: the run, and the `respond` step's response when there was one in time. */
export interface AssistantCallResult {
  requestId: string;
  /** Absent when the trigger's filter refused the call (no run). */
  runId?: string;
  filtered?: boolean;
  /** The automation has a `respond` step. */
  respond: boolean;
  /** The response of its first `respond` step, when the run reached it within the timeout. */
  response?: RunResponse;
}

/**
 * Starts a run of `automation` (an enabled `mcp`-triggered one) with `args` as its trigger
 * variables and, when it has a `respond` step, waits for that step's response (until
 * `abort` fires or the timeout passes).
 * @throws ServiceError 409 AUTOMATION_DISABLED when the automation is disabled.
 */
export async function callAutomationTool(
  svc: Services,
  rt: AutomationRuntime,
  automation: AutomationRecord,
  args: Record<string, unknown>,
  abort: AbortSignal,
): Promise<AssistantCallResult> {
  if (!automation.enabled) throw new ServiceError(409, 'AUTOMATION_DISABLED', 'the automation behind this tool is disabled');
  const requestId = newId();
  let prepared: ReturnType<AutomationRuntime['engine']['prepareInboundRun']>;
  try {
    prepared = rt.engine.prepareInboundRun(automation, args, { requestId });
  } catch (error) {
    throw fromEngineError(error);
  }
  if (prepared.filtered) return { requestId, filtered: true, respond: false };
  const { run } = prepared;
  const stored = await svc.store.run(svc.store.sql.transaction((tx) => insertRun(tx, run)));
  if (stored.created) rt.engine.enqueue(stored.run.id, automation.id);
  svc.signals?.notify('runs');
  const result: AssistantCallResult = { requestId, runId: stored.run.id, respond: usesAction(automation.definition.actions, 'respond') };
  if (!result.respond) return result;
  const response = await awaitInboundResponse(svc, stored.run.id, svc.config.webhooks.respondTimeoutMs, abort);
  if (response) result.response = response;
  return result;
}
