import type { Migration } from '../migrate';

/**
 * One way into the engine (docs "Architecture", "Inbound calls"): an accepted inbound call records
 * its run in its own transaction, so the `inbound_requests` queue goes, and an inbound URL is a
 * part of its automation, stored once: `inbound_webhooks.automation_id` becomes a required, unique
 * foreign key with `ON DELETE CASCADE` (its workspace comes from the automation), and the copy of
 * the link in `automations.meta_json` (`webhookId`) is removed. URLs whose automation no longer
 * exists (left behind by a crash between the two writes this replaces) go.
 *
 * Requests still pending at the upgrade had been acknowledged without a run: each gets its queued
 * run here (de-duplicated like the intake does), so none is lost.
 */
export const m018InboundRuns: Migration = {
  version: 18,
  name: 'inbound_runs',
  up: `
INSERT INTO automation_runs (id, automation_id, version, workspace_id, owner_id, status, trigger_json, depth, test, dedupe_key, created_at)
SELECT 'upg' || r.id, a.id, a.version, a.workspace_id, a.owner_id, 'queued',
       json_object('type', a.trigger_type,
                   -- The engine's webhookVariables: {body, ...fields}, an object's own "body" field winning.
                   'variables', CASE WHEN a.trigger_type <> 'webhook' THEN json(r.body_json)
                                     WHEN json_type(r.body_json) <> 'object' THEN json_object('body', json(r.body_json))
                                     WHEN json_type(r.body_json, '$.body') IS NOT NULL THEN json(r.body_json)
                                     ELSE json_set(r.body_json, '$.body', json(r.body_json)) END,
                   'eventId', r.id,
                   'headers', json(r.headers_json)),
       1, 0, 'inbound:' || r.id, r.received_at
  FROM inbound_requests r JOIN automations a ON a.id = r.automation_id
 WHERE r.status IN ('pending', 'claimed') AND a.enabled = 1;

DROP TABLE inbound_requests;

CREATE TABLE inbound_webhooks_018 (
  id            TEXT PRIMARY KEY,
  automation_id TEXT NOT NULL UNIQUE REFERENCES automations(id) ON DELETE CASCADE,
  -- SHA-256 hex of the bearer token, when one is required.
  token_hash    TEXT,
  created_at    INTEGER NOT NULL
);
INSERT INTO inbound_webhooks_018 (id, automation_id, token_hash, created_at)
SELECT w.id, w.automation_id, w.token_hash, w.created_at
  FROM inbound_webhooks w JOIN automations a ON a.id = w.automation_id
 WHERE w.id = (SELECT min(o.id) FROM inbound_webhooks o WHERE o.automation_id = w.automation_id);
DROP TABLE inbound_webhooks;
ALTER TABLE inbound_webhooks_018 RENAME TO inbound_webhooks;

UPDATE automations SET meta_json = json_remove(meta_json, '$.webhookId') WHERE json_extract(meta_json, '$.webhookId') IS NOT NULL;
`,
};
