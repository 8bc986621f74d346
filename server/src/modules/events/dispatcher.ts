import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PLANS } from '../webhooks/service';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { readCursor, WEBHOOK_CURSOR, writeCursor } from './cursors';

/**
 * The outbox dispatcher (README "Events and webhooks", "Guarantees"): reads `events` in `seq` order after
 * its persisted cursor and, in one transaction with the cursor advance, queues one
 * `webhook_deliveries` row per matching signed registration and legacy subscription.
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

/**
 * Handles up to `limit` events after the cursor (no write transaction when there are none).
 * @returns how many events were read and how many deliveries were queued.
 */
export function dispatchEvents(svc: Services, limit = 500): { events: number; deliveries: number } {
  const { db } = svc;
  // Look before taking the write lock: an idle poll must not open a write transaction.
  const pending = sql<[number], { seq: number }>(db, 'SELECT seq FROM events WHERE seq > ? LIMIT 1').get(readCursor(db, WEBHOOK_CURSOR));
  if (pending === undefined) return { events: 0, deliveries: 0 };
  return transaction(db, () => {
    const after = readCursor(db, WEBHOOK_CURSOR);
    const events = sql<[number, number], EventHead>(
      db,
      'SELECT seq, type, workspace_id, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
    ).all(after, limit);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const now = svc.clock.now();
    let deliveries = 0;
    const insert = sql(
      db,
      `INSERT INTO webhook_deliveries (id, webhook_id, subscription_id, event_seq, event_type, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    );
    for (const event of events) {
      if (!SIGNED.has(event.type)) continue;
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
      for (const hook of hooks) {
        insert.run(newId(), hook.id, null, event.seq, event.type, now, now);
        deliveries++;
      }
      const subscriptions = sql<[typeof match], { id: string }>(
        db,
        `SELECT s.id FROM webhook_subscriptions s
           JOIN users u ON u.id = s.user_id
           JOIN workspace_members m ON m.user_id = s.user_id AND m.workspace_id = @ws
          WHERE s.event_type = @type AND s.created_at <= @at
            AND u.verified = 1 AND u.plan IN (SELECT value FROM json_each(@plans))`,
      ).all(match);
      for (const subscription of subscriptions) {
        insert.run(newId(), null, subscription.id, event.seq, event.type, now, now);
        deliveries++;
      }
    }
    writeCursor(db, WEBHOOK_CURSOR, events[events.length - 1]!.seq);
    return { events: events.length, deliveries };
  });
}
