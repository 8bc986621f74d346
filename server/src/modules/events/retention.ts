import { transaction } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import type { Services } from '../../services';

/**
 * Retention of the delivery log (README "Events and webhooks" "Delivery log"): finished
 * deliveries (succeeded or failed, with their attempts) older than
 * `TASKSPACE_WEBHOOKS_LOG_RETENTION_DAYS` are deleted, in batches so no transaction holds the
 * database long. Pending deliveries are never deleted.
 */

/** Rows deleted per transaction. */
const BATCH = 1000;

/** Deletes one batch of expired deliveries; returns how many went (0 when retention is off). */
export function pruneExpired(svc: Services): number {
  const days = svc.config.webhooks.logRetentionDays;
  if (days === 0) return 0;
  const before = svc.clock.now() - days * 86400000;
  return transaction(svc.db, () =>
    sql(
      svc.db,
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE completed_at IS NOT NULL AND completed_at < ? LIMIT ?)`,
    ).run(before, BATCH).changes,
  );
}
