import type { MigrationList } from '../migrate';
import { m021MediaChunks } from './021_media_chunks';
import { m022RateCounters } from './022_rate_counters';
import { m023RunCancelRequests } from './023_run_cancel_requests';
import { m024RunLeases } from './024_run_leases';
import { m025DeliveryClaims } from './025_delivery_claims';
import { m026ProjectViews } from './026_project_views';
import { m027RunOperations } from './027_run_operations';
import { m028EventCauses } from './028_event_causes';
import { m029DeletedTasks } from './029_deleted_tasks';
import { m030LivePresence } from './030_live_presence';
import { m031DeliveryClaimedAt } from './031_delivery_claimed_at';
import { m032OAuthResources } from './032_oauth_resources';
import { m033Connections } from './033_connections';
import { m034PieceStore } from './034_piece_store';
import { m035Mail } from './035_mail';
import { m036PasswordResets } from './036_password_resets';
import { m037ConnectionOAuth } from './037_connection_oauth';
import { m038EmailChanges } from './038_email_changes';
import { m039OAuthClientDocuments } from './039_oauth_client_documents';
import { baseline } from './baseline';

/**
 * Every schema migration of both stores, in version order: first the frozen baseline pair
 * (./baseline: versions 1–20, SQLite's 001…020 and PostgreSQL's one baseline), then one
 * `PairedMigration` (../migrate.ts) per version, carrying its SQL for each store. `migrate`
 * (SQLite, ../migrate.ts) and `migratePostgres` (../postgres/migrate.ts) both apply this list,
 * each with its own store's SQL (`migrationsFor`).
 *
 * To change the schema, add one file `NNN_name.ts` with the next version, exporting a
 * `PairedMigration` whose `up.sqlite` and `up.postgres` bring both schemas to the same state
 * (PostgreSQL: `TEXT COLLATE "C"` for TEXT, BIGINT for INTEGER; see ./baseline/postgres.ts), and
 * add it at the end of this list. Never edit one that has shipped: databases record a migration
 * by its version and do not run it again. test/postgres/schema.test.ts compares the two
 * schemas; test/unit/migrations.test.ts checks the order of the list and that every entry after
 * the baseline has both stores' SQL.
 */
export const migrations: MigrationList = [
  baseline,
  m021MediaChunks,
  m022RateCounters,
  m023RunCancelRequests,
  m024RunLeases,
  m025DeliveryClaims,
  m026ProjectViews,
  m027RunOperations,
  m028EventCauses,
  m029DeletedTasks,
  m030LivePresence,
  m031DeliveryClaimedAt,
  m032OAuthResources,
  m033Connections,
  m034PieceStore,
  m035Mail,
  m036PasswordResets,
  m037ConnectionOAuth,
  m038EmailChanges,
  m039OAuthClientDocuments,
];
