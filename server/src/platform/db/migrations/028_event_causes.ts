import type { PairedMigration } from '../migrate';

/**
 * Event causes and inbound rotation (docs "Automations", issue 27):
 * - `events.caused_by_automation_id` / `caused_by_run_id`: the automation and run whose step made
 *   the change that raised the event (null for a change made through the API or by the server),
 *   so a task trigger can skip the events of its own automation (`includeOwnChanges`);
 * - `inbound_webhooks.previous_id` / `previous_id_expires_at`: after a URL rotation, the former
 *   URL id, accepted until then (ms epoch); `previous_token_hash` / `previous_token_expires_at`:
 *   after a token rotation, the SHA-256 hex of the former bearer token, accepted until then.
 */
export const m028EventCauses: PairedMigration = {
  version: 28,
  name: 'event_causes',
  up: {
    sqlite: `
ALTER TABLE events ADD COLUMN caused_by_automation_id TEXT;
ALTER TABLE events ADD COLUMN caused_by_run_id TEXT;
ALTER TABLE inbound_webhooks ADD COLUMN previous_id TEXT;
ALTER TABLE inbound_webhooks ADD COLUMN previous_id_expires_at INTEGER;
ALTER TABLE inbound_webhooks ADD COLUMN previous_token_hash TEXT;
ALTER TABLE inbound_webhooks ADD COLUMN previous_token_expires_at INTEGER;
CREATE UNIQUE INDEX inbound_webhooks_previous ON inbound_webhooks(previous_id) WHERE previous_id IS NOT NULL;`,
    postgres: `
ALTER TABLE events ADD COLUMN caused_by_automation_id TEXT COLLATE "C";
ALTER TABLE events ADD COLUMN caused_by_run_id TEXT COLLATE "C";
ALTER TABLE inbound_webhooks ADD COLUMN previous_id TEXT COLLATE "C";
ALTER TABLE inbound_webhooks ADD COLUMN previous_id_expires_at BIGINT;
ALTER TABLE inbound_webhooks ADD COLUMN previous_token_hash TEXT COLLATE "C";
ALTER TABLE inbound_webhooks ADD COLUMN previous_token_expires_at BIGINT;
CREATE UNIQUE INDEX inbound_webhooks_previous ON inbound_webhooks (previous_id) WHERE previous_id IS NOT NULL;`,
  },
};
