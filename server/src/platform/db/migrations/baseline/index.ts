import type { MigrationBaseline } from '../../migrate';
import { m001Initial } from '../001_initial';
import { m002Webhooks } from '../002_webhooks';
import { m003Automations } from '../003_automations';
import { m004TaskParentIndex } from '../004_task_parent_index';
import { m006AgentKnowledgeCleanup } from '../006_agent_knowledge_cleanup';
import { m010Accounts } from '../010_accounts';
import { m013ProjectVersion } from '../013_project_version';
import { m014RunReplay } from '../014_run_replay';
import { m015ApprovalLinks } from '../015_approval_links';
import { m016OAuth } from '../016_oauth';
import { m017WorkspaceSecrets } from '../017_workspace_secrets';
import { m018InboundRuns } from '../018_inbound_runs';
import { m019TaskChildrenIndex } from '../019_task_children_index';
import { m020DeliveryEventIndex } from '../020_delivery_event_index';
import { m020Baseline } from './postgres';

/**
 * The frozen baseline pair: the schema at version 20 as each store reached it. SQLite applies
 * its migrations 001…020 (../001_initial.ts…, with gaps) one by one, PostgreSQL its one baseline
 * (./postgres.ts) at version 20; each is recorded under its own version and name, as installed
 * databases already have them. Never edit: every later change is a new entry of the list (../index.ts).
 */
export const baseline: MigrationBaseline = {
  version: 20,
  sqlite: [
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
  ],
  postgres: [m020Baseline],
};
