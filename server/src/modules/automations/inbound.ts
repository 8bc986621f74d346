import { timingSafeEqual } from 'node:crypto';
import { redactHeaders, usesAction, type AutomationDefinition, type FormTrigger } from '@taskspace/engine';
import { formValues, type FieldProblem } from '../forms/fields';
import { requireWorkspace } from '../../auth/access';
import { hashToken, type Actor } from '../../auth/tokens';
import type { Clock } from '../../platform/clock';
import { isoTime } from '../../platform/clock';
import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { badRequest, notFound, ServiceError } from '../../errors';
import { newId, newSecret } from '../../platform/ids';
import { assertJsonDepth } from '../../http/json-depth';
import type { Services } from '../../services';
import { requireWebhookPlan } from '../webhooks/service';

/**
 * Inbound webhooks, `POST /webhooks/<id>` (spec sections 4.7, 5.3, 6.3; README "Events and webhooks"
 * "Inbound webhooks").
 *
 * Management (for the automation engine's trigger setup): {@link createInboundWebhook},
 * {@link setInboundWebhookToken}, {@link getInboundWebhook},
 * {@link deleteInboundWebhook}: Owner of the workspace; creating or enabling a token also needs
 * a Pro+ verified account (402).
 *
 * Intake: {@link receiveInboundRequest} checks the id (404), the bearer token (401), the per-URL
 * throttle (429) and the body (400, a JSON object), then stores the request durably in
 * `inbound_requests` as `pending`.
 *
 * Consumption (the engine's hand-off): {@link claimInboundRequests} leases pending requests,
 * {@link completeInboundRequest} records the run (call it in the transaction that creates the
 * run so a crash cannot start two runs for one request), {@link releaseInboundRequest} gives a
 * lease back. Leases that expire make the request claimable again. Listen to
 * `svc.signals.on('inbound', ...)` to be woken on arrival.
 */

/** Bytes of randomness in an inbound webhook id (192 bits; 32 base64url characters). */
export const INBOUND_ID_BYTES = 24;

/** Prefix of generated inbound webhook tokens. */
export const INBOUND_TOKEN_PREFIX = 'whk_';


/**
 * The body of an inbound call: form fields for `application/x-www-form-urlencoded` (a repeated
 * field becomes a list), otherwise any JSON value (object, array, string, number, boolean, null).
 * @throws ServiceError 400 INVALID_JSON (field `body`), or `too_deep` past `maxDepth` levels.
 */
export function inboundBody(raw: Buffer, contentType: string | string[] | undefined, maxDepth: number): unknown {
  const text = raw.toString('utf8');
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(text)) {
      const seen = fields[key];
      fields[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    return fields;
  }
  assertJsonDepth(text, maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError(400, 'INVALID_JSON', 'the body must be JSON (or a form, with Content-Type application/x-www-form-urlencoded)', {
      field: 'body',
      reason: 'invalid_json',
    });
  }
}

/** Longest accepted `Idempotency-Key` header, in characters. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** An inbound webhook as management functions return it (never with its token). */
export interface InboundWebhook {
  id: string;
  /** The absolute URL callers POST to. */
  url: string;
  workspaceId: string;
  automationId: string | null;
  /** True when callers must send `Authorization: Bearer <token>`. */
  requiresToken: boolean;
  createdAt: string;
}

interface InboundRow {
  id: string;
  workspace_id: string;
  automation_id: string | null;
  token_hash: string | null;
  created_at: number;
  /** The owning automation's `enabled` (1/0), or null when it has none (read by the intake only). */
  automation_enabled?: number | null;
  /** The owning automation's definition JSON (read by the intake only). */
  definition_json?: string | null;
}

function toInbound(svc: Services, row: InboundRow): InboundWebhook {
  return {
    id: row.id,
    url: svc.links.url('/webhooks/' + row.id),
    workspaceId: row.workspace_id,
    automationId: row.automation_id,
    requiresToken: row.token_hash !== null,
    createdAt: isoTime(row.created_at),
  };
}

function findRow(svc: Services, id: string): InboundRow | undefined {
  return sql<[string], InboundRow>(svc.db, 'SELECT id, workspace_id, automation_id, token_hash, created_at FROM inbound_webhooks WHERE id = ?').get(id);
}

/** A chosen token: 16–256 visible ASCII characters, no spaces. */
const TOKEN_PATTERN = /^[\x21-\x7e]{16,256}$/;

function tokenFor(input: { requireToken?: boolean; token?: string }): string | undefined {
  if (input.token !== undefined) {
    if (!TOKEN_PATTERN.test(input.token)) {
      throw badRequest('token', 'invalid_format', 'token must be 16 to 256 visible ASCII characters without spaces');
    }
    return input.token;
  }
  return input.requireToken ? INBOUND_TOKEN_PREFIX + newSecret(32) : undefined;
}

/** Input of {@link createInboundWebhook}. */
export interface InboundWebhookInput {
  workspaceId: string;
  /** The automation whose webhook trigger owns the URL (stored as given). */
  automationId?: string;
  /** Require a bearer token; one is generated unless `token` is given. */
  requireToken?: boolean;
  /** A token of the caller's choosing (implies `requireToken`). */
  token?: string;
}

/**
 * Creates an inbound webhook URL with an unguessable id (192 random bits).
 * @returns the id, the absolute URL and, when a token is required, the token (shown only here;
 *          stored as its SHA-256 hash).
 * @throws ServiceError 404 (not a member), 403 (not Owner), 402 (plan below Pro or unverified),
 *         400 (malformed token).
 */
export function createInboundWebhook(svc: Services, actor: Actor, input: InboundWebhookInput): { id: string; url: string; token?: string } {
  requireWorkspace(svc.db, actor, input.workspaceId, 'Owner', 'creating an inbound webhook');
  requireWebhookPlan(actor);
  const token = tokenFor(input);
  const id = newSecret(INBOUND_ID_BYTES);
  transaction(svc.db, () =>
    sql(
      svc.db,
      'INSERT INTO inbound_webhooks (id, workspace_id, automation_id, token_hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, input.workspaceId, input.automationId ?? null, token === undefined ? null : hashToken(token), actor.userId, svc.clock.now()),
  );
  const url = svc.links.url('/webhooks/' + id);
  return token === undefined ? { id, url } : { id, url, token };
}

function requireInbound(svc: Services, actor: Actor, id: string, action: string): InboundRow {
  const row = findRow(svc, id);
  if (!row) throw notFound('inbound webhook', id);
  try {
    requireWorkspace(svc.db, actor, row.workspace_id, 'Owner', action);
  } catch (error) {
    if (error instanceof ServiceError && error.statusCode === 404) throw notFound('inbound webhook', id);
    throw error;
  }
  return row;
}

/**
 * Enables (new or chosen token) or disables the bearer-token requirement of an inbound webhook.
 * Enabling needs a Pro+ verified account.
 * @returns the new token when one is required (shown only here).
 * @throws ServiceError 404, 403, 402, 400 as for {@link createInboundWebhook}.
 */
export function setInboundWebhookToken(
  svc: Services,
  actor: Actor,
  id: string,
  input: { requireToken: boolean; token?: string },
): { token?: string } {
  requireInbound(svc, actor, id, 'changing an inbound webhook');
  if (!input.requireToken && input.token === undefined) {
    transaction(svc.db, () => sql(svc.db, 'UPDATE inbound_webhooks SET token_hash = NULL WHERE id = ?').run(id));
    return {};
  }
  requireWebhookPlan(actor);
  const token = tokenFor({ requireToken: true, token: input.token })!;
  transaction(svc.db, () => sql(svc.db, 'UPDATE inbound_webhooks SET token_hash = ? WHERE id = ?').run(hashToken(token), id));
  return { token };
}

/**
 * One inbound webhook (Owner of its workspace).
 * @throws ServiceError 404 when unknown or outside the caller's workspaces, 403 below Owner.
 */
export function getInboundWebhook(svc: Services, actor: Actor, id: string): InboundWebhook {
  return toInbound(svc, requireInbound(svc, actor, id, 'reading an inbound webhook'));
}

/**
 * Deletes an inbound webhook and its unconsumed requests; the URL answers 404 afterwards.
 * Always allowed to the Owner, whatever the plan.
 * @throws ServiceError 404 / 403.
 */
export function deleteInboundWebhook(svc: Services, actor: Actor, id: string): void {
  requireInbound(svc, actor, id, 'deleting an inbound webhook');
  transaction(svc.db, () => sql(svc.db, 'DELETE FROM inbound_webhooks WHERE id = ?').run(id));
}

/**
 * Per-URL throttle for inbound calls: a token bucket of `perMinute` requests that refills
 * continuously (`TASKSPACE_INBOUND_RATE_PER_MINUTE`). Kept in memory: a restart refills every bucket.
 */
export class InboundThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Takes one request for `key`; returns 0 when allowed, else the ms until one is allowed. */
  take(key: string): number {
    const now = this.clock.now();
    const rate = this.perMinute / 60000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    if (this.buckets.size > 10000) this.sweep(now, rate);
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / rate);
  }

  /**
   * The bucket of `key` as the X-RateLimit-* headers report it, without taking a request:
   * `limit` per minute, whole `remaining` calls, and `reset`, the time (whole seconds since the
   * epoch) at which the bucket is full again. An unseen key reports a full bucket.
   */
  state(key: string): { limit: number; remaining: number; reset: number } {
    const now = this.clock.now();
    const rate = this.perMinute / 60000;
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * rate) : this.perMinute;
    const fullAt = rate > 0 ? now + (this.perMinute - tokens) / rate : now;
    return { limit: this.perMinute, remaining: Math.floor(tokens), reset: Math.ceil(fullAt / 1000) };
  }

  private sweep(now: number, rate: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * rate >= this.perMinute) this.buckets.delete(key);
  }
}

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
}

/** What the intake accepted: the request id, and how the call should be answered. */
export interface AcceptedInbound {
  requestId: string;
  /** The automation has a `respond` step: wait for its response (see `awaitInboundResponse`). */
  respond: boolean;
  /** The form of a form-triggered automation (its thank-you message or redirect). */
  form?: FormTrigger;
}

/** 400 for a form submission with refused fields; `problems` lists each (also in `details`). */
export class FormRejectedError extends ServiceError {
  constructor(readonly problems: FieldProblem[]) {
    super(400, 'VALIDATION_ERROR', problems.map((p) => p.message).join('; '), { field: problems[0]!.field, reason: problems[0]!.reason, problems });
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** True when `presented` (an `Authorization` header value) is `Bearer <the token whose hash is storedHash>`; compared in constant time. */
export function tokenMatches(presented: string | undefined, storedHash: string): boolean {
  const match = BEARER.exec(presented ?? '');
  if (!match) return false;
  const a = Buffer.from(hashToken(match[1]!), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Accepts one inbound call (spec section 4.7): 404 unknown id (or a `form` entry to an automation
 * without a form trigger); 401 INVALID_TOKEN when a token is
 * required and missing or wrong; 409 AUTOMATION_DISABLED when the owning automation is disabled;
 * 429 RATE_LIMITED past the per-URL throttle (with
 * `retryAfterMs` on the error); 400 when the body is not JSON (or a form), when a form trigger's
 * fields refuse it ({@link FormRejectedError}) or the Idempotency-Key is too long. The request is
 * stored as `pending` for the engine and `svc.signals` is notified.
 * @returns the stored request's id and how to answer the call.
 */
export function receiveInboundRequest(svc: Services, throttle: InboundThrottle, call: InboundCall): AcceptedInbound {
  // The owning automation's enabled flag comes from the engine's own table, its single source of truth.
  const hook = sql<[string], InboundRow>(
    svc.db,
    `SELECT w.id, w.workspace_id, w.automation_id, w.token_hash, w.created_at, a.enabled AS automation_enabled, a.definition_json
       FROM inbound_webhooks w LEFT JOIN automations a ON a.id = w.automation_id WHERE w.id = ?`,
  ).get(call.webhookId);
  // A URL whose automation is gone (e.g. a crash between creating the URL and the automation) is unknown.
  if (!hook || (hook.automation_id !== null && hook.automation_enabled === null)) throw notFound('webhook', call.webhookId);
  const definition = hook.definition_json ? (JSON.parse(hook.definition_json) as AutomationDefinition) : undefined;
  const form = definition?.trigger.type === 'form' ? definition.trigger : undefined;
  if (call.entry === 'form' && !form) throw notFound('form', call.webhookId);
  if (hook.token_hash !== null && !tokenMatches(call.authorization, hook.token_hash)) {
    throw new ServiceError(401, 'INVALID_TOKEN', call.authorization ? 'the webhook token is wrong' : 'this webhook requires a bearer token', {
      field: 'authorization',
      reason: call.authorization ? 'invalid_token' : 'missing_token',
    });
  }
  if (hook.automation_enabled === 0) {
    throw new ServiceError(409, 'AUTOMATION_DISABLED', 'the automation behind this webhook is disabled; enable it to accept calls');
  }
  const waitMs = throttle.take(hook.id);
  if (waitMs > 0) throw new InboundThrottledError(waitMs);

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
  // Recorded with the shared redaction rule: credential headers keep their name, never their value.
  const received: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    if (value !== undefined) received[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const headers = redactHeaders(received);
  const requestId = newId();
  transaction(svc.db, () =>
    sql(
      svc.db,
      `INSERT INTO inbound_requests (id, webhook_id, workspace_id, automation_id, body_json, headers_json, idempotency_key, status, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    ).run(requestId, hook.id, hook.workspace_id, hook.automation_id, JSON.stringify(body), JSON.stringify(headers), idempotencyKey ?? null, svc.clock.now()),
  );
  svc.signals?.notify('inbound');
  const accepted: AcceptedInbound = { requestId, respond: definition !== undefined && usesAction(definition.actions, 'respond') };
  if (form) accepted.form = form;
  return accepted;
}

/** 429 RATE_LIMITED from the inbound throttle; `retryAfterMs` feeds the Retry-After header. */
export class InboundThrottledError extends ServiceError {
  constructor(readonly retryAfterMs: number) {
    super(429, 'RATE_LIMITED', 'too many calls to this webhook; slow down');
  }
}

/** A stored inbound request, as the engine consumes it. */
export interface InboundRequest {
  id: string;
  webhookId: string;
  workspaceId: string;
  automationId: string | null;
  /** The body: any JSON value, or a form's fields (see `inboundBody` and the engine's `webhookVariables`). */
  body: unknown;
  /** Request headers (lowercase names); credential values read `[redacted]`. */
  headers: Record<string, string>;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey: string | null;
  /** Receipt time, ms epoch. */
  receivedAt: number;
}

interface RequestRow {
  id: string;
  webhook_id: string;
  workspace_id: string;
  automation_id: string | null;
  body_json: string;
  headers_json: string;
  idempotency_key: string | null;
  received_at: number;
}

/**
 * Leases up to `limit` requests that are pending (or whose lease expired), oldest first, for
 * `leaseMs`. A request not completed within its lease becomes claimable again (at-least-once).
 * System API: no access check.
 */
export function claimInboundRequests(svc: Services, opts: { limit?: number; leaseMs?: number } = {}): InboundRequest[] {
  const now = svc.clock.now();
  const limit = opts.limit ?? 50;
  const leaseMs = opts.leaseMs ?? 60000;
  return transaction(svc.db, () => {
    const rows = sql<[number, number], RequestRow>(
      svc.db,
      `SELECT id, webhook_id, workspace_id, automation_id, body_json, headers_json, idempotency_key, received_at
         FROM inbound_requests
        WHERE status IN ('pending', 'claimed') AND (status = 'pending' OR claimed_until <= ?)
        ORDER BY received_at, rowid LIMIT ?`,
    ).all(now, limit);
    for (const row of rows) sql(svc.db, "UPDATE inbound_requests SET status = 'claimed', claimed_until = ? WHERE id = ?").run(now + leaseMs, row.id);
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      workspaceId: r.workspace_id,
      automationId: r.automation_id,
      body: JSON.parse(r.body_json) as unknown,
      headers: JSON.parse(r.headers_json) as Record<string, string>,
      idempotencyKey: r.idempotency_key,
      receivedAt: r.received_at,
    }));
  });
}

/**
 * Records what became of a claimed request: `{runId}` when a run started, `{error}` when none
 * will (e.g. the automation is disabled). Joins the caller's transaction when called inside one.
 * @returns false when the request no longer exists or is already completed.
 */
export function completeInboundRequest(svc: Services, requestId: string, outcome: { runId: string } | { error: string }): boolean {
  const done = 'runId' in outcome;
  const changed = transaction(svc.db, () =>
    sql(
      svc.db,
      `UPDATE inbound_requests SET status = ?, run_id = ?, error = ?, completed_at = ?, claimed_until = NULL
        WHERE id = ? AND status IN ('pending', 'claimed')`,
    ).run(done ? 'done' : 'failed', done ? outcome.runId : null, done ? null : outcome.error, svc.clock.now(), requestId).changes === 1,
  );
  // A call waiting on its response looks again (the run may already have answered: a repeated key).
  if (changed) svc.signals?.notify('runs');
  return changed;
}

/** Gives a claimed request back (e.g. on shutdown) so it can be claimed again at once. */
export function releaseInboundRequest(svc: Services, requestId: string): void {
  transaction(svc.db, () =>
    sql(svc.db, "UPDATE inbound_requests SET status = 'pending', claimed_until = NULL WHERE id = ? AND status = 'claimed'").run(requestId),
  );
}

/**
 * The run an accepted inbound request started (`requestId` from the intake's reply), for
 * `GET /api/v1/automations/{id}/runs?requestId=`. A call that repeated an Idempotency-Key maps
 * to the run of the first call. Undefined while the request waits for the engine, when it started
 * no run, or when the id is not a request of that automation.
 */
export function runIdOfInboundRequest(svc: Services, automationId: string, requestId: string): string | undefined {
  const row = sql<[string, string], { run_id: string | null }>(
    svc.db,
    'SELECT run_id FROM inbound_requests WHERE id = ? AND automation_id = ?',
  ).get(requestId, automationId);
  return row?.run_id ?? undefined;
}
