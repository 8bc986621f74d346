import type { PairedMigration } from '../migrate';

/**
 * Operations on automation runs (docs "Automations"):
 * - `automations.run_retention_days` / `run_retention_failed_days`: the definition's
 *   `retention` override (null: the server's `TASKSPACE_RUN_RETENTION_DAYS` /
 *   `TASKSPACE_RUN_RETENTION_FAILED_DAYS`), kept in columns so the leader's run retention reads
 *   them in SQL; the index on `finished_at` is what that retention walks;
 * - `automation_versions.author_id` / `message`: who saved each version, and the optional
 *   message given with the save (null for versions saved before this migration);
 * - `automation_runs.request_hash`: SHA-256 of the body of an inbound call with an
 *   `Idempotency-Key`, so a repeated key with another body is refused (422) instead of silently
 *   answered with the first call's run.
 */
export const m027RunOperations: PairedMigration = {
  version: 27,
  name: 'run_operations',
  up: {
    sqlite: `
ALTER TABLE automations ADD COLUMN run_retention_days INTEGER;
ALTER TABLE automations ADD COLUMN run_retention_failed_days INTEGER;
ALTER TABLE automation_versions ADD COLUMN author_id TEXT;
ALTER TABLE automation_versions ADD COLUMN message TEXT;
ALTER TABLE automation_runs ADD COLUMN request_hash TEXT;
CREATE INDEX automation_runs_finished ON automation_runs(finished_at) WHERE finished_at IS NOT NULL;`,
    postgres: `
ALTER TABLE automations ADD COLUMN run_retention_days BIGINT;
ALTER TABLE automations ADD COLUMN run_retention_failed_days BIGINT;
ALTER TABLE automation_versions ADD COLUMN author_id TEXT COLLATE "C";
ALTER TABLE automation_versions ADD COLUMN message TEXT COLLATE "C";
ALTER TABLE automation_runs ADD COLUMN request_hash TEXT COLLATE "C";
CREATE INDEX automation_runs_finished ON automation_runs (finished_at) WHERE finished_at IS NOT NULL;`,
  },
};
