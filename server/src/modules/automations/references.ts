import { walkActions, type Action, type AutomationDefinition, type EventTrigger } from '@taskspace/engine';
import { badRequest } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';
import { checkTargetUrl } from '../../platform/ssrf';
import type { Services } from '../../services';
import { unknownSecrets } from '../secrets/service';

/** `['actions', 0, 'then', 1, 'url']` as `actions[0].then[1].url`, the field paths of validation errors. */
function fieldPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function isTemplate(value: string): boolean {
  return value.includes('{{') || value.includes('{%');
}

/**
 * The checks of a definition against the workspace it is saved in (docs "Automations",
 * "Validation"), after the engine's own validation: approvers are members of the workspace, a
 * trigger scope names a project or folder of the workspace, and an HTTP Request URL written out
 * in full is one the SSRF guard can reach (https, no credentials, no blocked IP literal; host
 * names are still checked when the step runs), every `{{ secrets.NAME }}` names a secret of
 * the workspace, and an `automation.run` step written out in full names an automation of the workspace.
 * The workspace's rows are read through `q`.
 * @throws ServiceError 400 VALIDATION_ERROR naming the field, reason `not_a_member`, `not_found`,
 *   `insecure_scheme`, `credentials_not_allowed`, `blocked_address` or `unknown_secret`.
 */
export function* checkReferences(q: Sql, svc: Services, workspaceId: string, definition: AutomationDefinition): Query<void> {
  const missing = yield* unknownSecrets(q, workspaceId, definition);
  if (missing.length > 0) {
    throw badRequest('actions', 'unknown_secret', `the workspace has no secret ${missing.join(', ')}; set it under Settings → Secrets (PUT /api/v1/workspaces/{workspaceId}/secrets/{name}) first`);
  }
  const scope = (definition.trigger as EventTrigger).scope;
  if (scope?.projectId !== undefined && !(yield* q.get('SELECT 1 AS found FROM projects WHERE id = ? AND workspace_id = ?', [scope.projectId, workspaceId]))) {
    throw badRequest('trigger.scope.projectId', 'not_found', `trigger.scope.projectId: project '${scope.projectId}' is not in this workspace`);
  }
  if (scope?.folderId !== undefined && !(yield* q.get('SELECT 1 AS found FROM folders WHERE id = ? AND workspace_id = ?', [scope.folderId, workspaceId]))) {
    throw badRequest('trigger.scope.folderId', 'not_found', `trigger.scope.folderId: folder '${scope.folderId}' is not in this workspace`);
  }
  // The walk takes a synchronous visitor: collect the actions, then check them in the walk's order.
  const visited: { action: Action; path: (string | number)[] }[] = [];
  walkActions(definition.actions, (action, path) => {
    visited.push({ action, path });
  });
  for (const { action, path } of visited) {
    if (action.type === 'approval') {
      const approvers = action.approvers ?? [];
      for (let i = 0; i < approvers.length; i++) {
        const handle = approvers[i]!.replace(/^@/, '');
        const member = yield* q.get(
          'SELECT 1 AS found FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND lower(u.handle) = lower(?)',
          [workspaceId, handle],
        );
        if (member === undefined) {
          const field = fieldPath([...path, 'approvers', i]);
          throw badRequest(field, 'not_a_member', `${field}: @${handle} is not a member of this workspace`);
        }
      }
    }
    if (action.type === 'automation.run' && !isTemplate(action.automationId)) {
      if (!(yield* q.get('SELECT 1 AS found FROM automations WHERE id = ? AND workspace_id = ?', [action.automationId, workspaceId]))) {
        const field = fieldPath([...path, 'automationId']);
        throw badRequest(field, 'not_found', `${field}: automation '${action.automationId}' is not in this workspace`);
      }
    }
    if (action.type === 'http.request' && !isTemplate(action.url)) {
      const checked = checkTargetUrl(action.url, svc.addressPolicy);
      if (!(checked instanceof URL)) {
        const field = fieldPath([...path, 'url']);
        throw badRequest(field, checked.reason, `${field}: ${checked.message.replace(/^targetUrl/, 'the URL').replace('webhooks may not reach', 'automations may not reach')}`);
      }
    }
  }
}
