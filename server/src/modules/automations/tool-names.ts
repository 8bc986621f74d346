import type { AutomationDefinition, McpTrigger } from '@taskspace/engine';
import { ServiceError } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';

/**
 * The save check of an `mcp` trigger's `toolName` (docs/mcp.md "Automations as tools"): unique
 * among the workspace's automations with an `mcp` trigger, so one workspace never offers two
 * tools of one name.
 * @param selfId the automation being updated (its own name is no clash); undefined when creating.
 * @throws ServiceError 409 CONFLICT naming `trigger.toolName`, reason `duplicate`.
 */
export function* checkToolName(q: Sql, workspaceId: string, definition: AutomationDefinition, selfId?: string): Query<void> {
  if (definition.trigger.type !== 'mcp') return;
  const toolName = (definition.trigger as McpTrigger).toolName;
  if (toolName === undefined) return;
  const rows = yield* q.all<{ id: string; definition_json: string }>(
    "SELECT id, definition_json FROM automations WHERE workspace_id = ? AND trigger_type = 'mcp' AND id <> ?",
    [workspaceId, selfId ?? ''],
  );
  for (const row of rows) {
    const other = JSON.parse(row.definition_json) as AutomationDefinition;
    if ((other.trigger as McpTrigger).toolName !== toolName) continue;
    throw new ServiceError(
      409,
      'CONFLICT',
      `the tool name '${toolName}' is taken by the automation ${JSON.stringify(other.name ?? row.id)} in this workspace; choose another trigger.toolName`,
      { field: 'trigger.toolName', reason: 'duplicate' },
    );
  }
}
