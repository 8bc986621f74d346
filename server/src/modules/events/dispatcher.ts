import type { Query, Sql } from '../../platform/db/query';
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
/** `?` placeholders for {@link WEBHOOK_PLANS} (a constant list, so the statement texts are constant too). */
const PLAN_PLACEHOLDERS = WEBHOOK_PLANS.map(() => '?').join(', ');

/** Signed registrations an event goes to. Parameters: workspace, type, plans…, event time, workspace. */
const MATCHING_HOOKS = `SELECT w.id FROM webhook_events we
       JOIN webhooks w ON w.id = we.webhook_id
       JOIN users u ON u.id = w.user_id
       JOIN workspace_members m ON m.user_id = w.user_id AND m.workspace_id = ?
      WHERE we.event_type = ?
        AND u.verified = 1 AND u.plan IN (${PLAN_PLACEHOLDERS})
        AND w.created_at <= ?
        AND (w.all_spaces = 1 OR EXISTS (SELECT 1 FROM webhook_spaces s WHERE s.webhook_id = w.id AND s.workspace_id = ?))`;

/** Legacy subscriptions an event goes to. Parameters: workspace, type, event time, plans…. */
const MATCHING_SUBSCRIPTIONS = `SELECT s.id FROM webhook_subscriptions s
       JOIN users u ON u.id = s.user_id
       JOIN workspace_members m ON m.user_id = s.user_id AND m.workspace_id = ?
      WHERE s.event_type = ? AND s.created_at <= ?
        AND u.verified = 1 AND u.plan IN (${PLAN_PLACEHOLDERS})`;

/** Deliveries per multi-row INSERT (7 parameters each). */
const DELIVERY_BATCH_ROWS = 100;

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
 * @returns (resolves to) how many events were read and how many deliveries were queued.
 */
export async function dispatchEvents(svc: Services, cursor: OutboxCursor, limit = 500): Promise<{ events: number; deliveries: number }> {
  const { events, matches } = await svc.store.run(readBatch(svc.store.sql, await cursor.get(), limit));
  if (events.length === 0) return { events: 0, deliveries: 0 };
  const last = events[events.length - 1]!.seq;
  if (matches.length === 0) {
    await cursor.advance(last);
    return { events: events.length, deliveries: 0 };
  }
  const now = svc.clock.now();
  await cursor.commitWith(last, (tx) => queueDeliveries(tx, matches, now));
  return { events: events.length, deliveries: matches.length };
}

/** Up to `limit` events after `afterSeq`, oldest first, and the deliveries they call for. */
function* readBatch(q: Sql, afterSeq: number, limit: number): Query<{ events: EventHead[]; matches: Match[] }> {
  const events = yield* q.all<EventHead>('SELECT seq, type, workspace_id, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?', [
    afterSeq,
    limit,
  ]);
  const matches: Match[] = [];
  for (const event of events) matches.push(...(yield* matchEvent(q, event)));
  return { events, matches };
}

/** Inserts a pending delivery per match, with multi-row INSERTs of up to {@link DELIVERY_BATCH_ROWS} rows. */
function* queueDeliveries(tx: Sql, matches: readonly Match[], now: number): Query<void> {
  for (let start = 0; start < matches.length; start += DELIVERY_BATCH_ROWS) {
    const batch = matches.slice(start, start + DELIVERY_BATCH_ROWS);
    const values = batch.map(() => "(?, ?, ?, ?, ?, 'pending', 0, ?, ?)").join(', ');
    const args = batch.flatMap(({ event, webhookId, subscriptionId }) => [
      newOrderedId(),
      webhookId,
      subscriptionId,
      event.seq,
      event.type,
      now,
      now,
    ]);
    yield* tx.run(
      `INSERT INTO webhook_deliveries (id, webhook_id, subscription_id, event_seq, event_type, status, attempts, next_attempt_at, created_at)
       VALUES ${values}`,
      args,
    );
  }
}

/** The signed registrations and legacy subscriptions `event` goes to (none for an unsigned type). */
function* matchEvent(q: Sql, event: EventHead): Query<Match[]> {
  if (!SIGNED.has(event.type)) return [];
  const ws = event.workspace_id;
  const hooks = yield* q.all<{ id: string }>(MATCHING_HOOKS, [ws, event.type, ...WEBHOOK_PLANS, event.created_at, ws]);
  const subscriptions = yield* q.all<{ id: string }>(MATCHING_SUBSCRIPTIONS, [ws, event.type, event.created_at, ...WEBHOOK_PLANS]);
  return [
    ...hooks.map((hook) => ({ event, webhookId: hook.id, subscriptionId: null })),
    ...subscriptions.map((subscription) => ({ event, webhookId: null, subscriptionId: subscription.id })),
  ];
}
