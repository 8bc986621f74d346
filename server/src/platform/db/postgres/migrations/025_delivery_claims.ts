import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 025 (../../migrations/025_delivery_claims.ts): the sender of a delivery in flight. */
export const m025DeliveryClaims: Migration = {
  version: 25,
  name: 'delivery_claims',
  up: `ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT COLLATE "C";`,
};
