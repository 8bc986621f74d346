import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 023 (../../migrations/023_run_cancel_requests.ts): cancel requests of automation runs. */
export const m023RunCancelRequests: Migration = {
  version: 23,
  name: 'run_cancel_requests',
  up: `
ALTER TABLE automation_runs ADD COLUMN cancel_requested BIGINT NOT NULL DEFAULT 0;
CREATE INDEX automation_runs_cancel_requested ON automation_runs (seq) WHERE cancel_requested = 1 AND status IN ('queued', 'running', 'waiting');`,
};
