import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { OUTBOX_READERS, readCursor } from './cursors';

/**
 * Retention of the delivery log and the outbox (docs/webhooks.md "Delivery log"), both after
 * `TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS` (0 keeps everything), in batches so no transaction holds
 * the database long:
 * - finished deliveries (succeeded or failed, with their attempts) older than that are deleted;
 *   pending deliveries never are;
 * - outbox events older than that are deleted once every reader ({@link OUTBOX_READERS}) has
 *   persisted a cursor past them and no delivery refers to them any more (the delivery log shows
 *   an event's payload while its deliveries are kept). Without this the outbox, one row per
 *   change, was the largest table of a busy database.
 */

/** Rows deleted per transaction. */
const BATCH = 1000;

/**
 * Deletes one batch of expired deliveries and one of expired events, each in its own transaction.
 * @returns how many rows went (0 when retention is off).
 */
export function* pruneExpired(svc: Services, q: Sql = svc.store.sql): Query<number> {
  const days = svc.config.webhooks.logRetentionDays;
  if (days === 0) return 0;
  const before = svc.clock.now() - days * 86400000;
  const deliveries = yield* q.transaction(function* (tx) {
    const deleted = yield* tx.run(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE completed_at IS NOT NULL AND completed_at < ? LIMIT ?)`,
      [before, BATCH],
    );
    return deleted.changes;
  });
  return deliveries + (yield* pruneEvents(q, before));
}

/** Deletes up to {@link BATCH} outbox events made before `before` (ms) that every reader has handled and no delivery refers to. */
function* pruneEvents(q: Sql, before: number): Query<number> {
  return yield* q.transaction(function* (tx) {
    const cursors: number[] = [];
    for (const name of OUTBOX_READERS) cursors.push(yield* readCursor(tx, name));
    const handled = Math.min(...cursors);
    const deleted = yield* tx.run(
      `DELETE FROM events WHERE seq IN (
         SELECT e.seq FROM events e
          WHERE e.seq <= ? AND e.created_at < ?
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq)
          ORDER BY e.seq LIMIT ?)`,
      [handled, before, BATCH],
    );
    return deleted.changes;
  });
}
