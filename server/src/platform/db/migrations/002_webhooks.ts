import type { Migration } from '../migrate';

/**
 * Events and webhooks (README "Events and webhooks"): signed registrations and legacy subscriptions,
 * the durable delivery queue with its attempt log, outbox cursors, the due-date watermark,
 * inbound webhooks with their request queue, and explicit project membership.
 */
export const m002Webhooks: Migration = {
  version: 2,
  name: 'webhooks',
  up: `
-- Progress of each outbox reader ('webhooks' = the delivery dispatcher): the last event seq handled.
CREATE TABLE outbox_cursors (
  name          TEXT PRIMARY KEY,
  seq           INTEGER NOT NULL
);

-- Signed webhook registrations (spec 4.6). Public id = url, unique per account.
-- secret_sealed holds the HMAC secret encrypted with AES-256-GCM (platform/secret-box.ts).
CREATE TABLE webhooks (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url           TEXT NOT NULL,
  events_json   TEXT NOT NULL,
  space_ids_json TEXT NOT NULL,
  all_spaces    INTEGER NOT NULL,
  secret_sealed TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (user_id, url)
);

-- Matching indexes of a registration: one row per event type, one per listed workspace.
CREATE TABLE webhook_events (
  event_type    TEXT NOT NULL,
  webhook_id    TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  PRIMARY KEY (event_type, webhook_id)
);
CREATE INDEX webhook_events_webhook ON webhook_events(webhook_id);
CREATE TABLE webhook_spaces (
  webhook_id    TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  workspace_id  TEXT NOT NULL,
  PRIMARY KEY (webhook_id, workspace_id)
);

-- Legacy unsigned subscriptions (subscribeWebhook): one event each, account-wide.
CREATE TABLE webhook_subscriptions (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url           TEXT NOT NULL,
  event_type    TEXT NOT NULL,
  created_at    INTEGER NOT NULL
);
CREATE INDEX webhook_subscriptions_event ON webhook_subscriptions(event_type);
CREATE INDEX webhook_subscriptions_user ON webhook_subscriptions(user_id);

-- The delivery queue: one row per (event, target). status: pending | sending | succeeded | failed.
-- 'sending' rows left behind by a killed process go back to 'pending' when the worker starts.
CREATE TABLE webhook_deliveries (
  id              TEXT PRIMARY KEY,
  webhook_id      TEXT REFERENCES webhooks(id) ON DELETE CASCADE,
  subscription_id TEXT REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  event_seq       INTEGER NOT NULL,
  event_type      TEXT NOT NULL,
  status          TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error      TEXT,
  created_at      INTEGER NOT NULL,
  completed_at    INTEGER,
  CHECK ((webhook_id IS NULL) <> (subscription_id IS NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_sending ON webhook_deliveries(status) WHERE status = 'sending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries(subscription_id);
CREATE INDEX webhook_deliveries_completed ON webhook_deliveries(completed_at) WHERE completed_at IS NOT NULL;

-- One row per finished attempt (the delivery log).
CREATE TABLE webhook_attempts (
  delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt       INTEGER NOT NULL,
  started_at    INTEGER NOT NULL,
  duration_ms   INTEGER NOT NULL,
  status_code   INTEGER,
  error         TEXT,
  PRIMARY KEY (delivery_id, attempt)
);

-- The due-date scheduler (modules/events/due-scheduler.ts): the time up to which it has scanned, and
-- every (task, due time) already handled, so each due time fires once, across restarts.
CREATE TABLE due_scheduler_state (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  scanned_until INTEGER NOT NULL
);
CREATE TABLE task_due_fired (
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  due_at        INTEGER NOT NULL,
  fired_at      INTEGER NOT NULL,
  event_id      TEXT,
  PRIMARY KEY (task_id, due_at)
);
CREATE INDEX task_due_fired_due ON task_due_fired(due_at);

-- Inbound webhook URLs (spec 4.7). token_hash: SHA-256 hex of the bearer token, when one is required.
CREATE TABLE inbound_webhooks (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  automation_id TEXT,
  token_hash    TEXT,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL
);
CREATE INDEX inbound_webhooks_workspace ON inbound_webhooks(workspace_id, created_at);
CREATE INDEX inbound_webhooks_automation ON inbound_webhooks(automation_id) WHERE automation_id IS NOT NULL;

-- Accepted inbound requests, waiting for the automation engine. status: pending | claimed | done | failed.
CREATE TABLE inbound_requests (
  id              TEXT PRIMARY KEY,
  webhook_id      TEXT NOT NULL REFERENCES inbound_webhooks(id) ON DELETE CASCADE,
  workspace_id    TEXT NOT NULL,
  automation_id   TEXT,
  body_json       TEXT NOT NULL,
  headers_json    TEXT NOT NULL,
  idempotency_key TEXT,
  status          TEXT NOT NULL,
  claimed_until   INTEGER,
  run_id          TEXT,
  error           TEXT,
  received_at     INTEGER NOT NULL,
  completed_at    INTEGER
);
CREATE INDEX inbound_requests_pending ON inbound_requests(received_at) WHERE status IN ('pending', 'claimed');
CREATE INDEX inbound_requests_webhook ON inbound_requests(webhook_id, received_at);
CREATE INDEX inbound_requests_completed ON inbound_requests(completed_at) WHERE completed_at IS NOT NULL;

-- Explicit project membership (PUT /api/v1/projects/{projectId}/members).
CREATE TABLE project_members (
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  added_by      TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members(user_id);
`,
};
