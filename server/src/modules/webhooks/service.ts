import type { Actor } from '../../auth/tokens';
import { isoTime } from '../../platform/clock';
import type { Dialect, Query, Sql } from '../../platform/db/query';
import { badRequest, notFound, ServiceError } from '../../errors';
import { checkTargetUrl } from '../../platform/ssrf';
import { newId, newSecret } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow } from '../../platform/paging';

/**
 * Signed webhook registration (spec sections 4.6, 6.1, 8; README "Events and webhooks").
 * Registrations belong to an account, not to a workspace. Their public id is the target URL.
 */

/**
 * The events a webhook may subscribe to: those of spec section 6.1, and our extensions
 * `automation.failed` (a run failed; docs "Failure alerts") and `approval.requested` (a run waits
 * for an approval, with a decision link).
 */
export const WEBHOOK_EVENT_TYPES = [
  'task.due',
  'task.assigned',
  'comment.created',
  'project.created',
  'project.assigned',
  'project.joined',
  'automation.failed',
  'approval.requested',
] as const;

/** One of {@link WEBHOOK_EVENT_TYPES}. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Largest number of event × workspace combinations per account across its webhooks (spec section 8). */
export const MAX_WEBHOOK_COMBINATIONS = 100;

/** Longest target URL in characters, counted on the URL-encoded (normalised) form (spec section 8). */
export const MAX_TARGET_URL_LENGTH = 2048;

/** Plans that may create webhooks, subscriptions and inbound webhook triggers (spec section 8). */
export const WEBHOOK_PLANS: readonly string[] = ['pro', 'business', 'enterprise'];

/** A registration as the API shows it (never with its secret). */
export interface Webhook {
  /** The target URL (the registration's id, URL-encoded in paths). */
  id: string;
  url: string;
  events: WebhookEventType[];
  /** Workspaces it is limited to; empty = every workspace of the account. */
  spaceIds: string[];
  /** ISO 8601 time of the first registration of this URL. */
  createdAt: string;
}

/** One finished attempt of a delivery. */
export interface DeliveryAttempt {
  /** 1-based attempt number. */
  number: number;
  /** ISO 8601 start time. */
  at: string;
  durationMs: number;
  /** The receiver's HTTP status, or null when no response came. */
  statusCode: number | null;
  /** Why the attempt failed without a response (network error, timeout, refused address), or null. */
  error: string | null;
}

/** One delivery of one event to one webhook (the delivery log). */
export interface WebhookDelivery {
  /** Delivery id, also sent as `X-Service-Delivery`. */
  id: string;
  /** The event id (the body's `id`). */
  eventId: string;
  event: string;
  /** pending (waiting for its next attempt), sending, succeeded or failed (given up). */
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attemptCount: number;
  createdAt: string;
  /** ISO time of the next attempt while pending, else null. */
  nextRetryAt: string | null;
  completedAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  attempts: DeliveryAttempt[];
}

/**
 * Refuses accounts that may not create webhooks: 402 PAYMENT_REQUIRED unless the plan is Pro or
 * above and the account is verified (spec section 7.4). Used by registrations, legacy
 * subscriptions and inbound webhook triggers.
 * @throws ServiceError 402
 */
export function requireWebhookPlan(actor: Actor): void {
  if (!WEBHOOK_PLANS.includes(actor.plan)) {
    throw new ServiceError(402, 'PAYMENT_REQUIRED', `webhooks need the Pro plan or above; this account is on '${actor.plan}'`, {
      field: 'plan',
      reason: 'plan_required',
    });
  }
  if (!actor.verified) {
    throw new ServiceError(402, 'PAYMENT_REQUIRED', 'webhooks need a verified account', { field: 'account', reason: 'unverified' });
  }
}

/**
 * Validates and normalises a target URL: at most 2048 characters, https (http only under the
 * development switch), no credentials, and not an IP literal the SSRF guard refuses.
 * @returns the normalised URL (WHATWG `href`), which is the registration's id.
 * @throws ServiceError 400 with details `{field, reason}`.
 */
export function validateTargetUrl(svc: Services, raw: string, field = 'targetUrl'): string {
  if (raw.length > MAX_TARGET_URL_LENGTH)
    throw badRequest(field, 'too_long', `${field} must be at most ${MAX_TARGET_URL_LENGTH} characters`);
  const checked = checkTargetUrl(raw, svc.addressPolicy);
  if (!(checked instanceof URL)) throw badRequest(field, checked.reason, checked.message);
  if (checked.href.length > MAX_TARGET_URL_LENGTH) {
    throw badRequest(field, 'too_long', `${field} must be at most ${MAX_TARGET_URL_LENGTH} characters once URL-encoded`);
  }
  return checked.href;
}

/**
 * Validates an event name list: at least one, each from spec section 6.1, no repeats.
 * @throws ServiceError 400
 */
export function validateEventTypes(events: readonly string[], field = 'events'): WebhookEventType[] {
  if (events.length === 0) throw badRequest(field, 'too_few', `${field} must name at least one event`);
  const seen = new Set<string>();
  events.forEach((event, i) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event)) {
      throw badRequest(`${field}[${i}]`, 'invalid_value', `${field}[${i}] must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    }
    if (seen.has(event)) throw badRequest(`${field}[${i}]`, 'duplicate_value', `${field}[${i}] repeats '${event}'`);
    seen.add(event);
  });
  return events as WebhookEventType[];
}

/** The URL form used as id: `new URL(id).href` when it parses, else the string as given. */
function normaliseId(id: string): string {
  try {
    return new URL(id).href;
  } catch {
    return id;
  }
}

interface WebhookRow {
  id: string;
  url: string;
  events_json: string;
  space_ids_json: string;
  created_at: number;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.url,
    url: row.url,
    events: JSON.parse(row.events_json) as WebhookEventType[],
    spaceIds: JSON.parse(row.space_ids_json) as string[],
    createdAt: isoTime(row.created_at),
  };
}

function* findRow(q: Sql, userId: string, id: string): Query<WebhookRow | undefined> {
  return yield* q.get<WebhookRow>('SELECT id, url, events_json, space_ids_json, created_at FROM webhooks WHERE user_id = ? AND url = ?', [
    userId,
    normaliseId(id),
  ]);
}

function* workspaceCount(q: Sql, userId: string): Query<number> {
  return (yield* q.get<{ n: number }>('SELECT count(*) AS n FROM workspace_members WHERE user_id = ?', [userId]))!.n;
}

/**
 * Event × workspace combinations used by an account's webhooks, except the one at `exceptUrl`.
 * A webhook for all workspaces counts each workspace the account belongs to now. The events and
 * workspaces of a registration are counted in its matching rows (`webhook_events`,
 * `webhook_spaces`), written with its `events_json` and `space_ids_json` and always equal to them.
 */
export function* countCombinations(svc: Services, userId: string, exceptUrl?: string, q: Sql = svc.store.sql): Query<number> {
  const workspaces = yield* workspaceCount(q, userId);
  const row = yield* q.get<{ n: number | string | null }>(
    `SELECT sum((SELECT count(*) FROM webhook_events e WHERE e.webhook_id = w.id)
              * CASE WHEN w.all_spaces = 1 THEN ? ELSE (SELECT count(*) FROM webhook_spaces s WHERE s.webhook_id = w.id) END) AS n
       FROM webhooks w WHERE w.user_id = ? AND w.url <> ?`,
    [workspaces, userId, exceptUrl ?? ''],
  );
  // PostgreSQL sums BIGINTs as NUMERIC, which comes back as a string.
  return Number(row?.n ?? 0);
}

/** Input of {@link registerWebhook} (the `POST /api/v2/webhooks` body). */
export interface WebhookInput {
  targetUrl: string;
  events: string[];
  /** Workspace ids; absent or empty = every workspace of the account. */
  spaceIds?: string[];
}

/**
 * Registers a signed webhook, or replaces the events and scope of the caller's registration of
 * the same URL, with a new secret (spec section 4.6). Any member of a workspace may scope a
 * webhook to it (README "Events and webhooks", "Signed webhooks").
 * @returns the registration and its secret; the secret is never shown again.
 * @throws ServiceError 402 by plan; 400 for an invalid URL, events or spaceIds (`not_found` for
 *         a workspace the caller is not a member of) or past 100 combinations (`too_many_combinations`).
 */
export function* registerWebhook(
  svc: Services,
  actor: Actor,
  input: WebhookInput,
  q: Sql = svc.store.sql,
): Query<{ webhook: Webhook; secret: string }> {
  requireWebhookPlan(actor);
  const url = validateTargetUrl(svc, input.targetUrl);
  const events = validateEventTypes(input.events);
  const spaceIds = input.spaceIds ?? [];
  const seen = new Set<string>();
  for (const [i, spaceId] of spaceIds.entries()) {
    if (seen.has(spaceId)) throw badRequest(`spaceIds[${i}]`, 'duplicate_value', `spaceIds[${i}] repeats '${spaceId}'`);
    seen.add(spaceId);
    const member = yield* q.get('SELECT 1 AS one FROM workspace_members WHERE workspace_id = ? AND user_id = ?', [spaceId, actor.userId]);
    if (!member) throw badRequest(`spaceIds[${i}]`, 'not_found', `spaceIds[${i}]: workspace '${spaceId}' not found among your workspaces`);
  }

  const secret = 'whsec_' + newSecret(32);
  const now = svc.clock.now();
  const webhook = yield* q.transaction(function* (tx) {
    const mine = spaceIds.length === 0 ? yield* workspaceCount(tx, actor.userId) : spaceIds.length;
    const total = (yield* countCombinations(svc, actor.userId, url, tx)) + events.length * mine;
    if (total > MAX_WEBHOOK_COMBINATIONS) {
      throw badRequest(
        'events',
        'too_many_combinations',
        `this registration would bring the account to ${total} event-workspace combinations; the limit is ${MAX_WEBHOOK_COMBINATIONS}`,
      );
    }
    const existing = yield* findRow(tx, actor.userId, url);
    const id = existing?.id ?? newId();
    const sealed = svc.secretBox.seal(secret);
    if (existing) {
      yield* tx.run(
        'UPDATE webhooks SET events_json = ?, space_ids_json = ?, all_spaces = ?, secret_sealed = ?, updated_at = ? WHERE id = ?',
        [JSON.stringify(events), JSON.stringify(spaceIds), spaceIds.length === 0 ? 1 : 0, sealed, now, id],
      );
      yield* tx.run('DELETE FROM webhook_events WHERE webhook_id = ?', [id]);
      yield* tx.run('DELETE FROM webhook_spaces WHERE webhook_id = ?', [id]);
    } else {
      yield* tx.run(
        `INSERT INTO webhooks (id, user_id, url, events_json, space_ids_json, all_spaces, secret_sealed, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, actor.userId, url, JSON.stringify(events), JSON.stringify(spaceIds), spaceIds.length === 0 ? 1 : 0, sealed, now, now],
      );
    }
    for (const event of events) yield* tx.run('INSERT INTO webhook_events (event_type, webhook_id) VALUES (?, ?)', [event, id]);
    for (const spaceId of spaceIds) yield* tx.run('INSERT INTO webhook_spaces (webhook_id, workspace_id) VALUES (?, ?)', [id, spaceId]);
    return (yield* findRow(tx, actor.userId, url))!;
  });
  return { webhook: toWebhook(webhook), secret };
}

/** The caller's registrations, oldest first. */
export function* listWebhooks(svc: Services, actor: Actor, q: Sql = svc.store.sql): Query<Webhook[]> {
  const rows = yield* q.all<WebhookRow>(
    'SELECT id, url, events_json, space_ids_json, created_at FROM webhooks WHERE user_id = ? ORDER BY created_at, url',
    [actor.userId],
  );
  return rows.map(toWebhook);
}

/**
 * One of the caller's registrations by id (its target URL; any spelling that normalises to it).
 * @throws ServiceError 404 when the caller has no registration with that id.
 */
export function* getWebhook(svc: Services, actor: Actor, id: string, q: Sql = svc.store.sql): Query<Webhook> {
  const row = yield* findRow(q, actor.userId, id);
  if (!row) throw notFound('webhook', id);
  return toWebhook(row);
}

/**
 * Deletes one of the caller's registrations with its queued deliveries and log. Always allowed,
 * whatever the plan (spec section 4.6 rule 3).
 * @throws ServiceError 404 when the caller has no registration with that id.
 */
export function* deleteWebhook(svc: Services, actor: Actor, id: string, q: Sql = svc.store.sql): Query<void> {
  const deleted = yield* q.transaction((tx) =>
    tx.run('DELETE FROM webhooks WHERE user_id = ? AND url = ?', [actor.userId, normaliseId(id)]),
  );
  if (deleted.changes === 0) throw notFound('webhook', id);
}

/** Filters of {@link listWebhookDeliveries}. */
export interface DeliveryQuery {
  /** Page size (1..500). */
  limit: number;
  /** 1-based page number. */
  page: number;
  status?: WebhookDelivery['status'];
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
  completed_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** The attempts of the deliveries whose ids are in the JSON array bound as the one parameter. */
const ATTEMPTS_OF: Record<Dialect, string> = {
  sqlite: `SELECT delivery_id, attempt, started_at, duration_ms, status_code, error FROM webhook_attempts
        WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
  postgres: `SELECT delivery_id, attempt, started_at, duration_ms, status_code, error FROM webhook_attempts
        WHERE delivery_id IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb))) ORDER BY delivery_id, attempt`,
};

/**
 * The delivery log of one of the caller's registrations, newest first, each with its attempts.
 * @throws ServiceError 404 when the caller has no registration with that id.
 */
export function* listWebhookDeliveries(
  svc: Services,
  actor: Actor,
  id: string,
  query: DeliveryQuery,
  q: Sql = svc.store.sql,
): Query<WebhookDelivery[]> {
  const hook = yield* findRow(q, actor.userId, id);
  if (!hook) throw notFound('webhook', id);
  const rows = yield* q.all<DeliveryRow>(
    `SELECT d.id, e.id AS event_id, d.event_type, d.status, d.attempts, d.created_at, d.next_attempt_at, d.completed_at,
            d.last_status_code, d.last_error
       FROM webhook_deliveries d LEFT JOIN events e ON e.seq = d.event_seq
      WHERE d.webhook_id = ? AND (CAST(? AS TEXT) IS NULL OR d.status = ?)
      ORDER BY d.created_at DESC, d.event_seq DESC LIMIT ? OFFSET ?`,
    [hook.id, query.status ?? null, query.status ?? null, ...pageWindow(query)],
  );
  const attempts = new Map<string, DeliveryAttempt[]>();
  if (rows.length > 0) {
    const found = yield* q.all<AttemptRow>(ATTEMPTS_OF[q.dialect], [JSON.stringify(rows.map((r) => r.id))]);
    for (const a of found) {
      const entry: DeliveryAttempt = {
        number: a.attempt,
        at: isoTime(a.started_at),
        durationMs: a.duration_ms,
        statusCode: a.status_code,
        error: a.error,
      };
      const list = attempts.get(a.delivery_id);
      if (list) list.push(entry);
      else attempts.set(a.delivery_id, [entry]);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    event: r.event_type,
    status: r.status,
    attemptCount: r.attempts,
    createdAt: isoTime(r.created_at),
    nextRetryAt: r.status === 'pending' && r.next_attempt_at !== null ? isoTime(r.next_attempt_at) : null,
    completedAt: r.completed_at === null ? null : isoTime(r.completed_at),
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    attempts: attempts.get(r.id) ?? [],
  }));
}
