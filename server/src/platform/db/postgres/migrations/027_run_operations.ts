import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 027 (../../migrations/027_run_operations.ts): run retention overrides, version authors and messages, inbound request hashes. */
export const m027RunOperations: Migration = {
  version: 27,
  name: 'run_operations',
  up: `
ALTER TABLE automations ADD COLUMN run_retention_days BIGINT;
ALTER TABLE automations ADD COLUMN run_retention_failed_days BIGINT;
ALTER TABLE automation_versions ADD COLUMN author_id TEXT COLLATE "C";
ALTER TABLE automation_versions ADD COLUMN message TEXT COLLATE "C";
ALTER TABLE automation_runs ADD COLUMN request_hash TEXT COLLATE "C";
CREATE INDEX automation_runs_finished ON automation_runs (finished_at) WHERE finished_at IS NOT NULL;`,
};
