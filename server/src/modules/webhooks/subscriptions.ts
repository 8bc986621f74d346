import type { Actor } from '../../auth/tokens';
import type { Query, Sql } from '../../platform/db/query';
import { badRequest, notFound } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { requireWebhookPlan, validateTargetUrl, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './service';

/**
 * Legacy unsigned subscriptions, `POST /api/v2/subscribeWebhook` and `/unsubscribeWebhook`
 * (deprecated; spec sections 4.6, 6.1 rule 5, 9.3). Each covers one event from section 6.1 for
 * every workspace of the account; deliveries carry no signature. Same plan rule and URL rules
 * as signed registrations. They do not count towards the 100-combination limit.
 */

/** Input of {@link subscribeWebhook}. */
export interface SubscriptionInput {
  targetUrl: string;
  /** One event name from spec section 6.1. */
  triggerType: string;
}

/**
 * Creates a legacy subscription. Subscribing the same URL to the same event again returns the
 * existing `hookId` (no duplicate deliveries).
 * @throws ServiceError 402 by plan; 400 for an invalid URL or trigger type.
 */
export function* subscribeWebhook(
  svc: Services,
  actor: Actor,
  input: SubscriptionInput,
  q: Sql = svc.store.sql,
): Query<{ hookId: string }> {
  requireWebhookPlan(actor);
  const url = validateTargetUrl(svc, input.targetUrl);
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(input.triggerType)) {
    throw badRequest('triggerType', 'invalid_value', `triggerType must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  const triggerType = input.triggerType as WebhookEventType;
  const now = svc.clock.now();
  return yield* q.transaction(function* (tx) {
    const existing = yield* tx.get<{ id: string }>(
      'SELECT id FROM webhook_subscriptions WHERE user_id = ? AND url = ? AND event_type = ?',
      [actor.userId, url, triggerType],
    );
    if (existing) return { hookId: existing.id };
    const hookId = newId();
    yield* tx.run('INSERT INTO webhook_subscriptions (id, user_id, url, event_type, created_at) VALUES (?, ?, ?, ?, ?)', [
      hookId,
      actor.userId,
      url,
      triggerType,
      now,
    ]);
    return { hookId };
  });
}

/** A legacy subscription as listed to its owner. */
export interface Subscription {
  hookId: string;
  targetUrl: string;
  triggerType: WebhookEventType;
  /** ISO 8601. */
  createdAt: string;
}

/** The caller's legacy subscriptions, oldest first (so they can be seen, and moved to signed webhooks). Any plan. */
export function* listSubscriptions(svc: Services, actor: Actor, q: Sql = svc.store.sql): Query<Subscription[]> {
  const rows = yield* q.all<{ id: string; url: string; event_type: WebhookEventType; created_at: number }>(
    'SELECT id, url, event_type, created_at FROM webhook_subscriptions WHERE user_id = ? ORDER BY created_at, id',
    [actor.userId],
  );
  return rows.map((r) => ({ hookId: r.id, targetUrl: r.url, triggerType: r.event_type, createdAt: new Date(r.created_at).toISOString() }));
}

/**
 * Removes one of the caller's legacy subscriptions and its queued deliveries. Always allowed,
 * whatever the plan.
 * @throws ServiceError 404 when the caller has no subscription with that id.
 */
export function* unsubscribeWebhook(svc: Services, actor: Actor, hookId: string, q: Sql = svc.store.sql): Query<void> {
  const deleted = yield* q.transaction((tx) =>
    tx.run('DELETE FROM webhook_subscriptions WHERE id = ? AND user_id = ?', [hookId, actor.userId]),
  );
  if (deleted.changes === 0) throw notFound('subscription', hookId);
}
