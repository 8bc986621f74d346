import type { Migration } from '../../migrate';
import { m020Baseline } from './020_baseline';
import { m021MediaChunks } from './021_media_chunks';
import { m022RateCounters } from './022_rate_counters';
import { m023RunCancelRequests } from './023_run_cancel_requests';
import { m024RunLeases } from './024_run_leases';
import { m025DeliveryClaims } from './025_delivery_claims';
import { m026ProjectViews } from './026_project_views';
import { m027RunOperations } from './027_run_operations';

/**
 * Every PostgreSQL schema migration, in order, applied by `migratePostgres` (../migrate.ts).
 * The first is a baseline at version 20 that creates the schema SQLite reaches after its
 * migrations 001..020 (../../migrations).
 *
 * Schema changes come in pairs: each new version is one file here and one in
 * platform/db/migrations (SQLite), with the same version number and name, bringing both schemas
 * to the same state (test/postgres/schema.test.ts compares them). Add a file `NNN_name.ts`
 * exporting a {@link Migration} and list it here; never edit one that has shipped.
 */
export const postgresMigrations: Migration[] = [
  m020Baseline,
  m021MediaChunks,
  m022RateCounters,
  m023RunCancelRequests,
  m024RunLeases,
  m025DeliveryClaims,
  m026ProjectViews,
  m027RunOperations,
];
