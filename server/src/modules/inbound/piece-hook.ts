import type { PieceWebhookPayload } from '@taskspace/engine';
import { notFound } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { API_CALL_TIMEOUT_MS, upstream } from '../connections/connection-test';
import type { AutomationRuntime } from '../engine-host/runtime';
import { pieceTriggerOf, tokenMatches } from '../pieces/hooks';
import { inboundBody, rawBodyText } from './inbound-body';
import { InboundThrottledError } from './inbound';

/** The throttle bucket of an automation's piece hook URL. */
export const pieceHookBucket = (automationId: string): string => `piece-hook:${automationId}`;

/** One call to a piece hook URL, `/webhooks/pieces/<automationId>/<token>`, as the route hands it over. */
export interface PieceHookCall {
  automationId: string;
  token: string;
  /** The raw body bytes. */
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** Upper case. */
  method: string;
  query: Record<string, string | string[]>;
}

/** What a piece hook call did: how many items the trigger returned, and the run each started. */
export interface PieceHookResult {
  received: number;
  runIds: string[];
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * One call to the URL a piece's webhook trigger was enabled with (docs/integrations.md
 * "Triggers"): the trigger's `run` gets the call as `context.payload` (`{body, headers,
 * queryParams, method, rawBody}`, Activepieces' TriggerPayload) and each item it returns starts
 * one run whose `trigger.*` variables are the item's fields. Counted against the URL's throttle.
 * @throws ServiceError 404 for an unknown automation or token, a disabled automation, or one whose
 *   trigger changed since the URL was made; 429 RATE_LIMITED; 400/415 for a body that is not JSON,
 *   a form or text; 502 UPSTREAM_ERROR when the piece fails.
 */
export async function receivePieceHook(svc: Services, rt: AutomationRuntime, call: PieceHookCall): Promise<PieceHookResult> {
  const record = await rt.hooks.enabled(call.automationId);
  const automation = tokenMatches(record, call.token) ? await rt.engine.getAutomation(call.automationId) : undefined;
  const trigger = automation && pieceTriggerOf(rt.pieces, automation.definition.trigger);
  if (!record || !automation || !automation.enabled || record.trigger !== JSON.stringify(automation.definition.trigger) || !trigger)
    throw notFound('webhook', call.automationId);
  const waitMs = rt.throttle.take(pieceHookBucket(automation.id));
  if (waitMs > 0) throw new InboundThrottledError(waitMs);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    const v = joined(value);
    if (v !== undefined) headers[name] = v;
  }
  const queryParams: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.query)) queryParams[name] = Array.isArray(value) ? (value[0] ?? '') : value;
  const payload: PieceWebhookPayload = {
    body: inboundBody(call.body, call.headers['content-type'], svc.config.jsonMaxDepth),
    headers,
    queryParams,
    method: call.method,
  };
  const raw = rawBodyText(call.body);
  if (raw !== undefined) payload.rawBody = raw;
  let items: unknown[];
  try {
    items = (await rt.pieces.runner.call({
      piece: trigger.piece,
      op: 'hook',
      action: trigger.trigger.name,
      ...(trigger.connectionId ? { connectionId: trigger.connectionId } : {}),
      propsValue: trigger.propsValue,
      webhookUrl: rt.hooks.hookUrl(automation.id, call.token),
      payload,
      context: { workspaceId: automation.workspaceId, automationId: automation.id },
      timeoutMs: API_CALL_TIMEOUT_MS,
    })) as unknown[];
  } catch (error) {
    upstream(error);
  }
  const requestId = newId();
  const runIds: string[] = [];
  for (const item of items) {
    const variables = item && typeof item === 'object' && !Array.isArray(item) ? item : { item };
    runIds.push((await rt.engine.startRun(automation.id, variables, { sourceId: requestId })).id);
  }
  return { received: items.length, runIds };
}
