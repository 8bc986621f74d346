import type { Migration } from '../migrate';
import { m001Initial } from './001_initial';
import { m002Webhooks } from './002_webhooks';
import { m003Automations } from './003_automations';
import { m004TaskParentIndex } from './004_task_parent_index';
import { m006AgentKnowledgeCleanup } from './006_agent_knowledge_cleanup';
import { m010Accounts } from './010_accounts';
import { m013ProjectVersion } from './013_project_version';
import { m014RunReplay } from './014_run_replay';
import { m015ApprovalLinks } from './015_approval_links';
import { m016OAuth } from './016_oauth';
import { m017WorkspaceSecrets } from './017_workspace_secrets';
import { m018InboundRuns } from './018_inbound_runs';
import { m019TaskChildrenIndex } from './019_task_children_index';
import { m020DeliveryEventIndex } from './020_delivery_event_index';
import { m021MediaChunks } from './021_media_chunks';
import { m022RateCounters } from './022_rate_counters';
import { m023RunCancelRequests } from './023_run_cancel_requests';
import { m024RunLeases } from './024_run_leases';
import { m025DeliveryClaims } from './025_delivery_claims';
import { m026ProjectViews } from './026_project_views';
import { m027RunOperations } from './027_run_operations';

/**
 * Every schema migration, in order. Add a file `NNN_name.ts` exporting a {@link Migration}
 * and list it here; never edit one that has shipped.
 *
 * Schema changes come in pairs: each new version is one file here and one in
 * platform/db/postgres/migrations (PostgreSQL, whose baseline is version 20), with the same version
 * number and name, bringing both schemas to the same state (test/postgres/schema.test.ts compares them).
 */
export const migrations: Migration[] = [
  m001Initial,
  m002Webhooks,
  m003Automations,
  m004TaskParentIndex,
  m006AgentKnowledgeCleanup,
  m010Accounts,
  m013ProjectVersion,
  m014RunReplay,
  m015ApprovalLinks,
  m016OAuth,
  m017WorkspaceSecrets,
  m018InboundRuns,
  m019TaskChildrenIndex,
  m020DeliveryEventIndex,
  m021MediaChunks,
  m022RateCounters,
  m023RunCancelRequests,
  m024RunLeases,
  m025DeliveryClaims,
  m026ProjectViews,
  m027RunOperations,
];
