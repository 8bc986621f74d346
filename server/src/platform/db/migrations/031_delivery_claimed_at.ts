import type { PairedMigration } from '../migrate';

/**
 * When a webhook delivery in flight (`status = 'sending'`) was claimed, ms since the epoch. The
 * claim counts the attempt (`attempts` grows as the row is claimed, before anything is sent), so
 * an attempt whose sender ended before it recorded the outcome is logged in `webhook_attempts`,
 * from this time, when the row goes back to the queue; the next attempt carries the next number.
 */
export const m031DeliveryClaimedAt: PairedMigration = {
  version: 31,
  name: 'delivery_claimed_at',
  up: {
    sqlite: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_at INTEGER;`,
    postgres: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_at BIGINT;`,
  },
};
