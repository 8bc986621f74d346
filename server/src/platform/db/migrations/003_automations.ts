import type { Migration } from '../migrate';

/**
 * Automations (README "Automations"): definitions with their versions, runs with the step
 * journal, the effects ledger that makes task actions exactly-once, and schedule state.
 */
export const m003Automations: Migration = {
  version: 3,
  name: 'automations',
  up: `
CREATE TABLE automations (
  id              TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  owner_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  trigger_type    TEXT NOT NULL,
  version         INTEGER NOT NULL,
  enabled         INTEGER NOT NULL,
  definition_json TEXT NOT NULL,
  meta_json       TEXT NOT NULL DEFAULT '{}',
  -- The last schedule slot (ms) that fired, for schedule triggers.
  schedule_slot   INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX automations_trigger ON automations(trigger_type, workspace_id) WHERE enabled = 1;
CREATE INDEX automations_workspace ON automations(workspace_id, created_at);

-- Every version's definition: a run executes the version it started with.
CREATE TABLE automation_versions (
  automation_id   TEXT NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  version         INTEGER NOT NULL,
  definition_json TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (automation_id, version)
);

CREATE TABLE automation_runs (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  id              TEXT NOT NULL UNIQUE,
  automation_id   TEXT NOT NULL REFERENCES automations(id) ON DELETE CASCADE,
  version         INTEGER NOT NULL,
  workspace_id    TEXT NOT NULL,
  owner_id        TEXT NOT NULL,
  status          TEXT NOT NULL,
  trigger_json    TEXT NOT NULL,
  depth           INTEGER NOT NULL,
  test            INTEGER NOT NULL DEFAULT 0,
  dedupe_key      TEXT,
  created_at      INTEGER NOT NULL,
  started_at      INTEGER,
  finished_at     INTEGER,
  wake_at         INTEGER,
  waiting_json    TEXT,
  error_json      TEXT
);
CREATE INDEX automation_runs_automation ON automation_runs(automation_id, seq);
CREATE INDEX automation_runs_workspace ON automation_runs(workspace_id, seq);
CREATE INDEX automation_runs_dedupe ON automation_runs(automation_id, dedupe_key, created_at) WHERE dedupe_key IS NOT NULL;
CREATE INDEX automation_runs_wake ON automation_runs(wake_at) WHERE status = 'waiting';
CREATE INDEX automation_runs_unfinished ON automation_runs(seq) WHERE status IN ('queued', 'running');

-- The step journal: one row per step of a run, written before and after each attempt.
CREATE TABLE automation_steps (
  run_id          TEXT NOT NULL REFERENCES automation_runs(id) ON DELETE CASCADE,
  step_id         TEXT NOT NULL,
  ordinal         INTEGER NOT NULL,
  type            TEXT NOT NULL,
  status          TEXT NOT NULL,
  input_json      TEXT,
  output_json     TEXT,
  error_json      TEXT,
  attempts        INTEGER NOT NULL,
  started_at      INTEGER NOT NULL,
  finished_at     INTEGER,
  duration_ms     INTEGER,
  next_attempt_at INTEGER,
  PRIMARY KEY (run_id, step_id)
);

-- Results of task actions, written in the transaction of the change itself and keyed by
-- (run, step): a step repeated after a crash returns the recorded result instead of acting twice.
CREATE TABLE automation_effects (
  run_id          TEXT NOT NULL REFERENCES automation_runs(id) ON DELETE CASCADE,
  step_id         TEXT NOT NULL,
  output_json     TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (run_id, step_id)
);
`,
};
