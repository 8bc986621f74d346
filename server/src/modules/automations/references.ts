import { closestName, variableProblems, walkActions, type Action, type AutomationDefinition, type EventTrigger } from '@taskspace/engine';
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
 * Every template variable must name something its step can see when it runs (`variableProblems`:
 * trigger variables, earlier steps, `run`, `automation`, the workspace's secrets, `loop`, `error`),
 * and a project, task or agent id or an agent command written out in full (no `{{ }}`) must exist
 * in the workspace; steps switched off with `disabled` are not held to the last two.
 * The workspace's rows are read through `q`.
 * @throws ServiceError 400 VALIDATION_ERROR naming the field, reason `not_a_member`, `not_found`,
 *   `insecure_scheme`, `credentials_not_allowed`, `blocked_address`, `unknown_secret` or `unknown_variable`.
 */
export function* checkReferences(q: Sql, svc: Services, workspaceId: string, definition: AutomationDefinition): Query<void> {
  const secrets = yield* q.all<{ name: string }>('SELECT name FROM workspace_secrets WHERE workspace_id = ?', [workspaceId]);
  const [problem] = variableProblems(definition, { secrets: secrets.map((row) => row.name) });
  if (problem) throw badRequest(problem.path, problem.reason, problem.message);
  const missing = yield* unknownSecrets(q, workspaceId, definition);
  if (missing.length > 0) {
    throw badRequest(
      'actions',
      'unknown_secret',
      `the workspace has no secret ${missing.join(', ')}; set it under Settings → Secrets (PUT /api/v1/workspaces/{workspaceId}/secrets/{name}) first`,
    );
  }
  const scope = (definition.trigger as EventTrigger).scope;
  if (
    scope?.projectId !== undefined &&
    !(yield* q.get('SELECT 1 AS found FROM projects WHERE id = ? AND workspace_id = ?', [scope.projectId, workspaceId]))
  ) {
    throw badRequest(
      'trigger.scope.projectId',
      'not_found',
      `trigger.scope.projectId: project '${scope.projectId}' is not in this workspace`,
    );
  }
  if (
    scope?.folderId !== undefined &&
    !(yield* q.get('SELECT 1 AS found FROM folders WHERE id = ? AND workspace_id = ?', [scope.folderId, workspaceId]))
  ) {
    throw badRequest('trigger.scope.folderId', 'not_found', `trigger.scope.folderId: folder '${scope.folderId}' is not in this workspace`);
  }
  // The walk takes a synchronous visitor: collect the actions, then check them in the walk's order.
  const visited: { action: Action; path: (string | number)[] }[] = [];
  const off: string[] = [];
  walkActions(definition.actions, (action, path) => {
    const at = fieldPath(path);
    if (action.disabled || off.some((p) => at.startsWith(p + '.') || at.startsWith(p + '['))) off.push(at);
    visited.push({ action, path });
  });
  for (const { action, path } of visited) {
    if (!off.includes(fieldPath(path))) yield* checkLiteralIds(q, workspaceId, action, path);
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
        throw badRequest(
          field,
          checked.reason,
          `${field}: ${checked.message.replace(/^targetUrl/, 'the URL').replace('webhooks may not reach', 'automations may not reach')}`,
        );
      }
    }
  }
}

/** The task id fields of a task action. */
const TASK_ID_FIELDS = ['taskId', 'referenceTaskId', 'targetTaskId'] as const;

/**
 * The ids a step writes out in full (no `{{ }}`): a task action's or `comment.create`'s `projectId` names a project of
 * the workspace and its task ids tasks of that project (of the workspace when `projectId` is a
 * template); an `agent.command`'s `agentId` an agent of the workspace and `command` one of its
 * commands, by id or name (trimmed, case-insensitive, as when it runs); a `project.create`'s `folderId` a folder of the workspace.
 * @throws ServiceError 400 VALIDATION_ERROR reason `not_found`, naming the field.
 */
function* checkLiteralIds(q: Sql, workspaceId: string, action: Action, path: (string | number)[]): Query<void> {
  const refuse = (key: string, message: string) => {
    const field = fieldPath([...path, key]);
    return badRequest(field, 'not_found', `${field}: ${message}`);
  };
  if (action.type === 'project.create' && action.folderId !== undefined && !isTemplate(action.folderId)) {
    if (!(yield* q.get('SELECT 1 AS found FROM folders WHERE id = ? AND workspace_id = ?', [action.folderId, workspaceId]))) {
      throw refuse('folderId', `folder '${action.folderId}' is not in this workspace`);
    }
  }
  if ((action.type.startsWith('task.') || action.type === 'comment.create') && 'projectId' in action) {
    const projectId = isTemplate(action.projectId) ? undefined : action.projectId;
    if (
      projectId !== undefined &&
      !(yield* q.get('SELECT 1 AS found FROM projects WHERE id = ? AND workspace_id = ?', [projectId, workspaceId]))
    ) {
      throw refuse('projectId', `project '${projectId}' is not in this workspace`);
    }
    for (const key of TASK_ID_FIELDS) {
      const taskId = (action as unknown as Record<string, unknown>)[key];
      if (typeof taskId !== 'string' || isTemplate(taskId)) continue;
      const task = yield* q.get<{ projectId: string }>(
        'SELECT t.project_id AS "projectId" FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = ? AND p.workspace_id = ?',
        [taskId, workspaceId],
      );
      if (!task) throw refuse(key, `task '${taskId}' is not in this workspace`);
      if (projectId !== undefined && task.projectId !== projectId) throw refuse(key, `task '${taskId}' is not in project '${projectId}'`);
    }
  }
  if (action.type === 'agent.command' && !isTemplate(action.agentId)) {
    const agent = yield* q.get<{ data: string }>('SELECT data_json AS data FROM agents WHERE id = ? AND workspace_id = ?', [
      action.agentId,
      workspaceId,
    ]);
    if (!agent) throw refuse('agentId', `agent '${action.agentId}' is not in this workspace`);
    if (!isTemplate(action.command)) {
      const commands = (JSON.parse(agent.data) as { commands?: { id: string; name: string }[] }).commands ?? [];
      const key = action.command.trim().toLowerCase();
      if (!commands.some((c) => c.id === action.command || c.name.trim().toLowerCase() === key)) {
        const names = commands.map((c) => c.name);
        const close = closestName(action.command, names);
        const known =
          close !== undefined
            ? `; did you mean '${close}'?`
            : names.length > 0
              ? `; its commands: ${names.map((n) => `'${n}'`).join(', ')}`
              : '; it has no commands';
        throw refuse('command', `agent '${action.agentId}' has no command '${action.command}'${known}`);
      }
    }
  }
}
