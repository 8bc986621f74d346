import { createHash } from 'node:crypto';
import {
  redactHeaders,
  redactUrl,
  usesAction,
  type AutomationRecord,
  type FormTrigger,
  type WebhookRequest,
  type WebhookTrigger,
} from '@taskspace/engine';
import { formValues, type FieldProblem } from './forms/fields';
import type { Query, Sql } from '../../platform/db/query';
import { badRequest, notFound, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { inboundLinkOf } from '../engine-host/inbound-link';
import type { AutomationRuntime } from '../engine-host/runtime';
import { automationOfInboundUrl, insertRun } from '../engine-host/run-store';
import { bindRequestHash, requestHashOf } from './inbound-idempotency';
import { inboundBody, rawBodyText } from './inbound-body';
import { signatureHeader, verifyInboundSignature } from './inbound-verify';
import { bearerMatchesAny, resolveInboundUrl, type ResolvedInboundUrl } from './inbound-previous';
import { deliveryIdOf } from './inbound-delivery';

/**
 * Inbound calls, `POST /webhooks/<id>` and form posts to `/forms/<id>` (spec sections 4.7, 5.3,
 * 6.3; docs "Webhooks", "Inbound webhooks"): one way into the engine. {@link receiveInboundCall}
 * checks the call and records the run it starts in one transaction, then hands the run to the
 * engine; nothing else queues inbound work. The URL itself is part of its automation
 * (`inbound-link.ts`).
 */

export { inboundBody } from './inbound-body';

/** Longest accepted `Idempotency-Key` header, in characters. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** One call to an inbound webhook URL, as the route hands it over. */
export interface InboundCall {
  webhookId: string;
  /** The `Authorization` header, if any. */
  authorization: string | undefined;
  /** The raw body bytes. */
  body: Buffer;
  /** All request headers (credential ones are stored redacted, see `redactHeaders`). */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The URL called: `webhook` (`/webhooks/<id>`, any automation with an inbound URL) or `form`
   * (`/forms/<id>`, form-triggered automations only; others are 404 there). Default `webhook`.
   */
  entry?: 'webhook' | 'form';
  /** A body already parsed by the caller (the hosted form page), instead of `body`'s bytes. */
  parsed?: unknown;
  /** The HTTP method, upper case (default `POST`); a webhook trigger's `methods` allow it or 405. */
  method?: string;
  /** The query string (`?a=1&a=2` as `{a: ['1', '2']}`), for `trigger.query`. */
  query?: Record<string, string | string[]>;
}

/** 405 METHOD_NOT_ALLOWED for a method the webhook trigger does not accept; `allowed` feeds the Allow header. */
export class MethodNotAllowedError extends ServiceError {
  constructor(readonly allowed: readonly string[]) {
    super(405, 'METHOD_NOT_ALLOWED', `this webhook accepts ${allowed.join(', ')}; set the trigger's methods to accept others`, {
      field: 'method',
      reason: 'not_allowed',
    });
  }
}

/** The query parameters with credential-named values redacted (the shared rule, as `redactUrl`). */
function redactQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  const url = new URL('http://x/');
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(redactUrl(url.toString())).searchParams) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** What the intake accepted: the request id, and how the call should be answered. */
export interface AcceptedInbound {
  requestId: string;
  /** The run the call started (or, for a repeated Idempotency-Key, the first call's run); absent when `filtered`. */
  runId?: string;
  /** The trigger's `filter` refused the call: no run was recorded (the caller gets 200 `{ok, requestId, filtered: true}`). */
  filtered?: boolean;
  /** The automation has a `respond` step: wait for its response (see `awaitInboundResponse`). */
  respond: boolean;
  /** The form of a form-triggered automation (its thank-you message or redirect). */
  form?: FormTrigger;
}

/** 400 for a form submission with refused fields; `problems` lists each (also in `details`). */
export class FormRejectedError extends ServiceError {
  constructor(readonly problems: FieldProblem[]) {
    super(400, 'VALIDATION_ERROR', problems.map((p) => p.message).join('; '), {
      field: problems[0]!.field,
      reason: problems[0]!.reason,
      problems,
    });
  }
}

/**
 * The request id of an inbound call: stable for a dedupe key (an `Idempotency-Key`, or
 * `delivery\n<id>` for a sender's delivery id; per automation), so a repeated call gets the first
 * call's id and run; otherwise new.
 */
function requestIdOf(automationId: string, dedupeKey: string | undefined): string {
  if (dedupeKey === undefined) return newId();
  return createHash('sha256').update(`${automationId}\n${dedupeKey}`).digest('base64url').slice(0, 22);
}

/**
 * Accepts one inbound call (spec section 4.7) and records the run it starts, in one transaction:
 * an acknowledged call always has its run, and a repeated `Idempotency-Key` or sender delivery id
 * (`inbound-delivery.ts`; within the engine's dedupe window, 24 h) maps to the first call's
 * request id and run. A former URL id or token of a rotation is accepted while its overlap lasts
 * (`inbound-previous.ts`). Every call to a URL counts against its throttle before its token and
 * signature are checked (a forged one too), and the caller's credentials are checked before the
 * transaction opens, so a refused call costs a few reads and at most one HMAC, never a transaction.
 * Refusals, in this order: 404 unknown id (or a former one past its overlap, or a `form` entry to
 * an automation without a form trigger); 429 RATE_LIMITED past the per-URL throttle
 * ({@link InboundThrottledError}); 405 for a method the
 * webhook trigger does not accept ({@link MethodNotAllowedError}); 401 INVALID_TOKEN when
 * a token is required and missing or wrong (or a former one past its overlap); 401 INVALID_SIGNATURE when the trigger's `verify`
 * refuses the signature (`inbound-verify.ts`); 409 AUTOMATION_DISABLED when the automation is
 * disabled; 400 when the body is not JSON (or a form, text or XML; 415 for a binary body), when a form trigger's fields refuse it ({@link FormRejectedError})
 * or the Idempotency-Key is too long; 422 IDEMPOTENCY_KEY_REUSED when a repeated Idempotency-Key
 * or delivery id comes with another body. Nothing is recorded for a refused call.
 * @returns (resolves to) the request id, the run and how to answer the call; the run is handed to the engine.
 */
export async function receiveInboundCall(svc: Services, rt: AutomationRuntime, call: InboundCall): Promise<AcceptedInbound> {
  // The credentials are checked outside any transaction, after the throttle: a forged call opens
  // none, and a caller guessing tokens or forging signatures is throttled like any other.
  const checked = await svc.store.run(checkCall(svc.store.sql, svc, call, undefined, (key) => rt.throttle.take(key)));
  // One transaction from the first read to the run's insert: what the checks saw is what the run gets
  // (they run again inside it, the signature only if the trigger's `verify` changed meanwhile).
  // Calls to one URL with one dedupe key take turns (a lock on PostgreSQL, the single writer
  // on SQLite), so the de-duplication check sees every run committed before it without
  // serializable conflicts. Calls without a key get a fresh request id and never collide: they
  // take no lock, so one URL's calls commit side by side instead of one durable commit at a time.
  const { accepted, created, automationId } = await svc.store.run(
    svc.store.sql.transaction((tx) => acceptCall(tx, svc, rt, call, checked.verified), { isolation: 'read committed' }),
  );
  if (created && accepted.runId !== undefined) rt.engine.enqueue(accepted.runId, automationId);
  svc.signals?.notify('runs');
  return accepted;
}

/** What {@link checkCall} found: the URL, its automation and trigger, and the `verify` it checked. */
interface CheckedCall {
  current: ResolvedInboundUrl;
  found: AutomationRecord;
  form: FormTrigger | undefined;
  webhook: WebhookTrigger | undefined;
  method: string;
  /** The trigger's `verify` as JSON when the signature was checked, else undefined. */
  verified: string | undefined;
}

/**
 * The checks of an inbound call, through `q`, in the documented order (404, 429 with `take`, 405,
 * 401 token, 401 signature, 409). `take` takes one call from the URL's throttle (ms to wait, 0 when
 * allowed); only URLs that exist have a bucket. The signature is not checked again when
 * `verified` is the JSON of the same `verify` already checked for this call.
 */
function* checkCall(q: Sql, svc: Services, call: InboundCall, verified?: string, take?: (key: string) => number): Query<CheckedCall> {
  // A former URL id (rotated, overlap not over) reaches the current URL.
  const current = yield* resolveInboundUrl(q, call.webhookId, svc.clock.now());
  if (!current) throw notFound('webhook', call.webhookId);
  const found = yield* automationOfInboundUrl(q, current.id);
  const link = found && inboundLinkOf(found);
  if (!found || !link) throw notFound('webhook', call.webhookId);
  const form = found.definition.trigger.type === 'form' ? found.definition.trigger : undefined;
  if (call.entry === 'form' && !form) throw notFound('form', call.webhookId);
  const waitMs = take?.(current.id) ?? 0;
  if (waitMs > 0) throw new InboundThrottledError(waitMs);
  const webhook = found.definition.trigger.type === 'webhook' ? (found.definition.trigger as WebhookTrigger) : undefined;
  const method = call.method ?? 'POST';
  const allowed = webhook?.methods ?? ['POST'];
  if (!allowed.includes(method as 'POST')) throw new MethodNotAllowedError(allowed);
  if (link.tokenHash !== null && !bearerMatchesAny(call.authorization, [link.tokenHash, current.previousTokenHash])) {
    throw new ServiceError(
      401,
      'INVALID_TOKEN',
      call.authorization ? 'the webhook token is wrong' : 'this webhook requires a bearer token',
      {
        field: 'authorization',
        reason: call.authorization ? 'invalid_token' : 'missing_token',
      },
    );
  }
  const verify = webhook?.verify ? JSON.stringify(webhook.verify) : undefined;
  if (webhook?.verify && verify !== verified)
    yield* verifyInboundSignature(q, svc, found.workspaceId, webhook.verify, call.body, call.headers);
  if (!found.enabled) {
    throw new ServiceError(409, 'AUTOMATION_DISABLED', 'the automation behind this webhook is disabled; enable it to accept calls');
  }
  return { current, found, form, webhook, method, verified: verify };
}

/**
 * The checks (again) and the run's insert of {@link receiveInboundCall}, through `q` (its
 * transaction); `verified` is the `verify` the checks before the transaction saw, as JSON.
 */
function* acceptCall(
  q: Sql,
  svc: Services,
  rt: AutomationRuntime,
  call: InboundCall,
  verified: string | undefined,
): Query<{ accepted: AcceptedInbound; created: boolean; automationId: string }> {
  const { current, found, form, webhook, method } = yield* checkCall(q, svc, call, verified);
  let body = call.parsed !== undefined ? call.parsed : inboundBody(call.body, call.headers['content-type'], svc.config.jsonMaxDepth);
  if (form) {
    const checked = formValues(form, body);
    if (!checked.ok) throw new FormRejectedError(checked.problems);
    body = checked.values;
  }
  const rawKey = call.headers['idempotency-key'];
  const idempotencyKey = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
    throw badRequest('Idempotency-Key', 'too_long', `the Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  // A signed sender's own delivery id wins over an Idempotency-Key: its retries and replays are one call.
  const delivery = deliveryIdOf(webhook?.verify, call.headers, body);
  const dedupeKey = delivery !== undefined ? `delivery\n${delivery}` : idempotencyKey;
  if (q.dialect === 'postgres' && dedupeKey !== undefined) {
    yield* q.get('SELECT pg_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [`inbound:${current.id}\n${dedupeKey}`]);
  }
  // Recorded with the shared redaction rule: credential headers keep their name, never their value;
  // so does the header the trigger reads its signature from, whatever its name.
  const received: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (value !== undefined) received[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const headers = redactHeaders(received, webhook?.verify ? [signatureHeader(webhook.verify)] : []);
  const requestId = requestIdOf(found.id, dedupeKey);
  const request: WebhookRequest = { method, headers, query: redactQuery(call.query ?? {}) };
  const rawBody = call.parsed === undefined ? rawBodyText(call.body) : undefined;
  if (rawBody !== undefined) request.rawBody = rawBody;
  const prepared = rt.engine.prepareInboundRun(found, body, { requestId, headers, request });
  if (prepared.filtered) {
    const refused: AcceptedInbound = { requestId, respond: false, filtered: true };
    if (form) refused.form = form;
    return { accepted: refused, created: false, automationId: found.id };
  }
  const { run, dedupe } = prepared;
  // Without a key the request id is new (time-ordered, never issued before): no stored run can
  // have its dedupe key, so there is nothing to look up.
  const stored = yield* insertRun(q, run, dedupeKey === undefined ? undefined : dedupe);
  if (dedupeKey !== undefined) yield* bindRequestHash(q, stored.run.id, stored.created, requestHashOf(body));
  const accepted: AcceptedInbound = { requestId, runId: stored.run.id, respond: usesAction(found.definition.actions, 'respond') };
  if (form) accepted.form = form;
  return { accepted, created: stored.created, automationId: found.id };
}

/** 429 RATE_LIMITED from the inbound throttle; `retryAfterMs` feeds the Retry-After header. */
export class InboundThrottledError extends ServiceError {
  constructor(readonly retryAfterMs: number) {
    super(429, 'RATE_LIMITED', 'too many calls to this webhook; slow down');
  }
}
