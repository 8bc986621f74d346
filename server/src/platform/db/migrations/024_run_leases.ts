import type { PairedMigration } from '../migrate';

/**
 * Leases of automation runs (engine `RunStore.claimRuns`): the executing engine that claimed a run
 * (`lease_owner`, an id per process) and until when the claim holds (`lease_until`, ms since the
 * epoch), renewed while the run is queued or executing there. Another engine takes a run only
 * when it has no lease or its lease ran out (its process died), so several processes share the
 * runs and each run is executed by one at a time. The claims read the existing partial indexes
 * of unfinished and waiting runs.
 */
export const m024RunLeases: PairedMigration = {
  version: 24,
  name: 'run_leases',
  up: {
    sqlite: `
ALTER TABLE automation_runs ADD COLUMN lease_owner TEXT;
ALTER TABLE automation_runs ADD COLUMN lease_until INTEGER;`,
    postgres: `
ALTER TABLE automation_runs ADD COLUMN lease_owner TEXT COLLATE "C";
ALTER TABLE automation_runs ADD COLUMN lease_until BIGINT;`,
  },
};
