import type { PairedMigration } from '../migrate';

/**
 * Cancel requests of automation runs (engine `RunStore.requestCancel`): a process that does not
 * execute runs (`TASKSPACE_ROLE=api`) records one; the process that executes the run carries it
 * out. The partial index holds only the requests of runs not yet finished.
 */
export const m023RunCancelRequests: PairedMigration = {
  version: 23,
  name: 'run_cancel_requests',
  up: {
    sqlite: `
ALTER TABLE automation_runs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
CREATE INDEX automation_runs_cancel_requested ON automation_runs(seq) WHERE cancel_requested = 1 AND status IN ('queued', 'running', 'waiting');`,
    postgres: `
ALTER TABLE automation_runs ADD COLUMN cancel_requested BIGINT NOT NULL DEFAULT 0;
CREATE INDEX automation_runs_cancel_requested ON automation_runs (seq) WHERE cancel_requested = 1 AND status IN ('queued', 'running', 'waiting');`,
  },
};
