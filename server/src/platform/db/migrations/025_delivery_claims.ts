import type { PairedMigration } from '../migrate';

/**
 * The sender of a webhook delivery in flight (`status = 'sending'`): the worker id of the process
 * making the attempt (platform/db/postgres/presence.ts; the engine's default id on SQLite). Several processes send
 * deliveries on PostgreSQL; a row whose sender is gone goes back to `pending`, and an outcome is
 * written only by the process that claimed the row.
 */
export const m025DeliveryClaims: PairedMigration = {
  version: 25,
  name: 'delivery_claims',
  up: {
    sqlite: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;`,
    postgres: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT COLLATE "C";`,
  },
};
