import type { Migration } from '../migrate';

/**
 * An index on `webhook_deliveries(event_seq)`: the outbox retention (modules/events/retention.ts)
 * deletes an expired event only when no delivery refers to it, one lookup per event.
 */
export const m020DeliveryEventIndex: Migration = {
  version: 20,
  name: 'delivery_event_index',
  up: `CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_seq);`,
};
