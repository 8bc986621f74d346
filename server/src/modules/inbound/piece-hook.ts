import type { PieceTriggerInfo, PieceWebhookPayload } from '@taskspace/engine';
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
  /** The call was the service's handshake: answer it with this (no run started). */
  handshake?: HandshakeAnswer;
}

/** The answer of a trigger's `onHandshake`, as the hook URL sends it. */
export interface HandshakeAnswer {
  status: number;
  /** Text as it is; anything else as JSON; absent: an empty body. */
  body?: unknown;
  /** `content-type` and `x-*` headers of the piece's answer (others are not the piece's to set). */
  headers: Record<string, string>;
}

/** Whether `payload` is the handshake `handshake` declares. */
function isHandshake(handshake: NonNullable<PieceTriggerInfo['handshake']>, payload: PieceWebhookPayload): boolean {
  const name = handshake.paramName;
  if (handshake.strategy === 'HEADER_PRESENT') return payload.headers[name.toLowerCase()] !== undefined;
  if (handshake.strategy === 'QUERY_PRESENT') return payload.queryParams[name] !== undefined;
  const body = payload.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) && name in body;
}

/** The piece's `onHandshake` result as an answer: a status of 100–599 (else 200), its allowed headers. */
function handshakeAnswer(result: unknown): HandshakeAnswer {
  const r = (result && typeof result === 'object' ? result : {}) as { status?: unknown; body?: unknown; headers?: unknown };
  const status = Number.isInteger(r.status) && (r.status as number) >= 100 && (r.status as number) <= 599 ? (r.status as number) : 200;
  const headers: Record<string, string> = {};
  if (r.headers && typeof r.headers === 'object')
    for (const [name, value] of Object.entries(r.headers as Record<string, unknown>))
      if (/^(content-type|x-[\w-]+)$/i.test(name) && typeof value === 'string') headers[name.toLowerCase()] = value;
  return { status, ...(r.body !== undefined ? { body: r.body } : {}), headers };
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * One call to the URL a piece's webhook trigger was enabled with (docs/integrations.md
 * "Triggers"): the trigger's `run` gets the call as `context.payload` (`{body, headers,
 * queryParams, method, rawBody}`, Activepieces' TriggerPayload) and each item it returns starts
 * one run whose `trigger.*` variables are the item's fields. A call that is the service's
 * handshake (the trigger's `handshakeConfiguration`) is answered by its `onHandshake` instead,
 * with no run. Counted against the URL's throttle.
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
  const handshake = trigger.trigger.handshake && isHandshake(trigger.trigger.handshake, payload);
  let items: unknown[];
  try {
    const result = await rt.pieces.runner.call({
      piece: trigger.piece,
      op: handshake ? 'handshake' : 'hook',
      action: trigger.trigger.name,
      ...(trigger.connectionId ? { connectionId: trigger.connectionId } : {}),
      propsValue: trigger.propsValue,
      webhookUrl: rt.hooks.hookUrl(automation.id, call.token),
      payload,
      context: { workspaceId: automation.workspaceId, automationId: automation.id },
      timeoutMs: API_CALL_TIMEOUT_MS,
    });
    if (handshake) return { received: 0, runIds: [], handshake: handshakeAnswer(result) };
    items = result as unknown[];
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
