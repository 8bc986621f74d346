import type { Migration } from '../../migrate';

/** PostgreSQL's half of migration 024 (../../migrations/024_run_leases.ts): leases of automation runs. */
export const m024RunLeases: Migration = {
  version: 24,
  name: 'run_leases',
  up: `
ALTER TABLE automation_runs ADD COLUMN lease_owner TEXT COLLATE "C";
ALTER TABLE automation_runs ADD COLUMN lease_until BIGINT;`,
};
