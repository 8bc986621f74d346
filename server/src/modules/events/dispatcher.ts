import { sql } from '../../platform/db/statements';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PLANS } from '../webhooks/service';
import { newOrderedId } from '../../platform/ids';
import type { Services } from '../../services';
import type { OutboxCursor } from './cursors';

/**
 * The outbox dispatcher (README "Events and webhooks", "Guarantees"): reads `events` in `seq` order after
 * its cursor ({@link OutboxCursor}, name `webhooks`) and, in one transaction with the cursor
 * advance, queues one `webhook_deliveries` row per matching signed registration and legacy subscription.
 *
 * A registration matches an event when: it lists the event type; its owner is, at dispatch
 * time, a member of the event's workspace, on a Pro+ plan and verified (a downgraded account's
 * registrations stay, dormant, and resume after an upgrade); its scope is all workspaces or
 * lists the event's workspace; and it existed when the event was raised.
 */

const SIGNED = new Set<string>(WEBHOOK_EVENT_TYPES);
const PLANS_JSON = JSON.stringify(WEBHOOK_PLANS);

interface EventHead {
  seq: number;
  type: string;
  workspace_id: string;
  created_at: number;
}

/** A delivery to queue: for a signed registration or for a legacy subscription. */
interface Match {
  event: EventHead;
  webhookId: string | null;
  subscriptionId: string | null;
}

/**
 * Handles up to `limit` events after `cursor`: matches each against the registrations, then
 * queues the deliveries and advances the cursor in one transaction. A batch that matches nothing
 * opens no write transaction: the cursor advances in memory ({@link OutboxCursor.advance}).
 * @returns how many events were read and how many deliveries were queued.
 */
export function dispatchEvents(svc: Services, cursor: OutboxCursor, limit = 500): { events: number; deliveries: number } {
  const { db } = svc;
  const events = sql<[number, number], EventHead>(
    db,
    'SELECT seq, type, workspace_id, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
  ).all(cursor.get(), limit);
  if (events.length === 0) return { events: 0, deliveries: 0 };
  const matches = events.flatMap((event) => matchEvent(svc, event));
  const last = events[events.length - 1]!.seq;
  if (matches.length === 0) {
    cursor.advance(last);
    return { events: events.length, deliveries: 0 };
  }
  const now = svc.clock.now();
  cursor.commitWith(last, () => {
    const insert = sql(
      db,
      `INSERT INTO webhook_deliveries (id, webhook_id, subscription_id, event_seq, event_type, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    );
    for (const { event, webhookId, subscriptionId } of matches) insert.run(newOrderedId(), webhookId, subscriptionId, event.seq, event.type, now, now);
  });
  return { events: events.length, deliveries: matches.length };
}

/** The signed registrations and legacy subscriptions `event` goes to (none for an unsigned type). */
function matchEvent(svc: Services, event: EventHead): Match[] {
  if (!SIGNED.has(event.type)) return [];
  const { db } = svc;
  const match = { type: event.type, ws: event.workspace_id, at: event.created_at, plans: PLANS_JSON };
  const hooks = sql<[typeof match], { id: string }>(
    db,
    `SELECT w.id FROM webhook_events we
       JOIN webhooks w ON w.id = we.webhook_id
       JOIN users u ON u.id = w.user_id
       JOIN workspace_members m ON m.user_id = w.user_id AND m.workspace_id = @ws
      WHERE we.event_type = @type
        AND u.verified = 1 AND u.plan IN (SELECT value FROM json_each(@plans))
        AND w.created_at <= @at
        AND (w.all_spaces = 1 OR EXISTS (SELECT 1 FROM webhook_spaces s WHERE s.webhook_id = w.id AND s.workspace_id = @ws))`,
  ).all(match);
  const subscriptions = sql<[typeof match], { id: string }>(
    db,
    `SELECT s.id FROM webhook_subscriptions s
       JOIN users u ON u.id = s.user_id
       JOIN workspace_members m ON m.user_id = s.user_id AND m.workspace_id = @ws
      WHERE s.event_type = @type AND s.created_at <= @at
        AND u.verified = 1 AND u.plan IN (SELECT value FROM json_each(@plans))`,
  ).all(match);
  return [
    ...hooks.map((hook) => ({ event, webhookId: hook.id, subscriptionId: null })),
    ...subscriptions.map((subscription) => ({ event, webhookId: null, subscriptionId: subscription.id })),
  ];
}
