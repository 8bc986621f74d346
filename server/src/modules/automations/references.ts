import {
  closestName,
  mediaReference,
  variableProblems,
  walkActions,
  type Action,
  type AutomationDefinition,
  type KindRegistry,
} from '@taskspace/engine';
import { badRequest } from '../../errors';
import type { Query, Sql } from '../../platform/db/query';
import { checkTargetUrl } from '../../platform/ssrf';
import type { Services } from '../../services';
import { unknownSecrets } from '../secrets/service';
import { isTemplate, parameterSchemas, pickedReferences, type PickedReference } from './reference-pickers';

/** `['actions', 0, 'then', 1, 'url']` as `actions[0].then[1].url`, the field paths of validation errors. */
function fieldPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * The checks of a definition against the workspace it is saved in (docs "Automations",
 * "Checked when saved"), after the engine's own validation. Every value written out in full (no
 * `{{ }}`) whose kind's parameter schema marks it with an `x-picker` must name something of the
 * workspace (`kinds`: the engine's registry; see `reference-pickers.ts`, so a new kind needs
 * nothing here): a project, folder, task (of the step's literal `projectId` when it has one),
 * agent, agent command (of the step's literal `agentId`), automation, field (by id or name, of
 * the step's or the trigger scope's literal project when there is one), secret, or member (a
 * handle, with or without `@`, any case). Besides: an HTTP Request URL (or an `agent.command`
 * step's MCP server URL) written out in full is one the SSRF guard can reach (https, no
 * credentials, no blocked IP literal; host names are still checked when the step runs), every `{{ secrets.NAME }}` names a secret of the
 * workspace, and every template variable names something its step can see when it runs
 * (`variableProblems`). Steps switched off with `disabled` (and the steps they hold) are not
 * held to the reference checks. The workspace's rows are read through `q`.
 * @throws ServiceError 400 VALIDATION_ERROR naming the field, reason `not_a_member`, `not_found`,
 *   `insecure_scheme`, `credentials_not_allowed`, `blocked_address`, `unknown_secret` or `unknown_variable`.
 */
export function* checkReferences(
  q: Sql,
  svc: Services,
  kinds: KindRegistry,
  workspaceId: string,
  definition: AutomationDefinition,
): Query<void> {
  const secrets = (yield* q.all<{ name: string }>('SELECT name FROM workspace_secrets WHERE workspace_id = ?', [workspaceId])).map(
    (row) => row.name,
  );
  const [problem] = variableProblems(definition, { secrets });
  if (problem) throw badRequest(problem.path, problem.reason, problem.message);
  const schemas = parameterSchemas(kinds.catalogue());
  const trigger = definition.trigger as unknown as Record<string, unknown>;
  const scopeProject = (trigger.scope as { projectId?: unknown } | undefined)?.projectId;
  const context: PickContext = {
    workspaceId,
    secrets,
    projectId: typeof scopeProject === 'string' && !isTemplate(scopeProject) ? scopeProject : undefined,
  };
  for (const picked of pickedReferences(schemas.triggers.get(definition.trigger.type) ?? {}, trigger, ['trigger'], trigger))
    yield* checkPicked(q, context, picked);
  const missing = yield* unknownSecrets(q, workspaceId, definition);
  if (missing.length > 0) {
    throw badRequest(
      'actions',
      'unknown_secret',
      `the workspace has no secret ${missing.join(', ')}; set it under Settings → Secrets (PUT /api/v1/workspaces/{workspaceId}/secrets/{name}) first`,
    );
  }
  // The walk takes a synchronous visitor: collect the actions, then check them in the walk's order.
  const visited: { action: Action; path: (string | number)[] }[] = [];
  const off: string[] = [];
  walkActions(
    definition.actions,
    (action, path) => {
      const at = fieldPath(path);
      if (action.disabled || off.some((p) => at.startsWith(p + '.') || at.startsWith(p + '['))) off.push(at);
      visited.push({ action, path });
    },
    undefined,
    kinds,
  );
  for (const { action, path } of visited) {
    if (!off.includes(fieldPath(path))) {
      const record = action as unknown as Record<string, unknown>;
      for (const picked of pickedReferences(schemas.actions.get(action.type) ?? {}, record, path, record))
        yield* checkPicked(q, context, picked);
    }
    const urls: { url: string; at: (string | number)[] }[] = [];
    if (action.type === 'http.request') urls.push({ url: action.url, at: [...path, 'url'] });
    // An agent's MCP servers are reached through the same guard (docs/mcp.md "MCP servers as agent tools").
    if (action.type === 'agent.command')
      for (const [i, server] of ((action as { mcpServers?: { url: string }[] }).mcpServers ?? []).entries())
        urls.push({ url: server.url, at: [...path, 'mcpServers', i, 'url'] });
    for (const { url, at } of urls) {
      if (isTemplate(url)) continue;
      const checked = checkTargetUrl(url, svc.addressPolicy);
      if (!(checked instanceof URL)) {
        const field = fieldPath(at);
        throw badRequest(
          field,
          checked.reason,
          `${field}: ${checked.message.replace(/^targetUrl/, 'the URL').replace('webhooks may not reach', 'automations may not reach')}`,
        );
      }
    }
  }
}

/** What the reference checks of one definition share. */
interface PickContext {
  workspaceId: string;
  /** The workspace's secret names. */
  secrets: string[];
  /** The trigger scope's literal project: fields named by a step without a literal project are looked up there. */
  projectId: string | undefined;
}

/** The value of `key` in `holder` when it is written out in full (a task action's `projectId`), else undefined. */
function literalOf(holder: Record<string, unknown>, key: string): string | undefined {
  const value = holder[key];
  return typeof value === 'string' && !isTemplate(value) ? value : undefined;
}

/**
 * Checks one literal reference against the workspace.
 * @throws ServiceError 400 VALIDATION_ERROR naming the field, reason `not_found`,
 *   `not_a_member` or `unknown_secret`.
 */
function* checkPicked(q: Sql, context: PickContext, picked: PickedReference): Query<void> {
  const { workspaceId } = context;
  const { picker, value, holder } = picked;
  const field = fieldPath(picked.path);
  const refuse = (message: string) => badRequest(field, 'not_found', `${field}: ${message}`);
  const exists = function* (sql: string, params: unknown[]) {
    return (yield* q.get(sql, params)) !== undefined;
  };
  switch (picker) {
    case 'project':
      if (!(yield* exists('SELECT 1 AS found FROM projects WHERE id = ? AND workspace_id = ?', [value, workspaceId])))
        throw refuse(`project '${value}' is not in this workspace`);
      return;
    case 'folder':
      if (!(yield* exists('SELECT 1 AS found FROM folders WHERE id = ? AND workspace_id = ?', [value, workspaceId])))
        throw refuse(`folder '${value}' is not in this workspace`);
      return;
    case 'media': {
      // A FILE property: only a media id or media content URL is checked (another URL is downloaded when the step runs).
      const mediaId = mediaReference(value);
      if (
        mediaId !== undefined &&
        !(yield* exists('SELECT 1 AS found FROM media WHERE id = ? AND workspace_id = ?', [mediaId, workspaceId]))
      )
        throw refuse(`media '${mediaId}' is not in this workspace`);
      return;
    }
    case 'automation':
      if (!(yield* exists('SELECT 1 AS found FROM automations WHERE id = ? AND workspace_id = ?', [value, workspaceId])))
        throw refuse(`automation '${value}' is not in this workspace`);
      return;
    case 'task': {
      const task = yield* q.get<{ projectId: string }>(
        'SELECT t.project_id AS "projectId" FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = ? AND p.workspace_id = ?',
        [value, workspaceId],
      );
      if (!task) throw refuse(`task '${value}' is not in this workspace`);
      const projectId = literalOf(holder, 'projectId');
      if (projectId !== undefined && task.projectId !== projectId) throw refuse(`task '${value}' is not in project '${projectId}'`);
      return;
    }
    case 'field': {
      const projectId = literalOf(holder, 'projectId') ?? literalOf(picked.root, 'projectId') ?? context.projectId;
      const row = yield* q.get(
        `SELECT 1 AS found FROM fields f JOIN projects p ON p.id = f.project_id
          WHERE p.workspace_id = ? AND (f.id = ? OR lower(f.name) = lower(?))${projectId !== undefined ? ' AND f.project_id = ?' : ''}`,
        projectId !== undefined ? [workspaceId, value, value.trim(), projectId] : [workspaceId, value, value.trim()],
      );
      if (!row)
        throw refuse(
          projectId !== undefined
            ? `project '${projectId}' has no field '${value}'`
            : `no project of this workspace has a field '${value}'`,
        );
      return;
    }
    case 'member': {
      const handle = value.replace(/^@/, '');
      const member = yield* q.get(
        'SELECT 1 AS found FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND lower(u.handle) = lower(?)',
        [workspaceId, handle],
      );
      if (member === undefined) throw badRequest(field, 'not_a_member', `${field}: @${handle} is not a member of this workspace`);
      return;
    }
    case 'secret': {
      if (context.secrets.includes(value)) return;
      const close = closestName(value, context.secrets);
      const hint = close !== undefined ? ` (did you mean '${close}'?)` : '';
      throw badRequest(
        field,
        'unknown_secret',
        `${field}: the workspace has no secret '${value}'${hint}; set it under Settings → Secrets (PUT /api/v1/workspaces/{workspaceId}/secrets/{name}) first`,
      );
    }
    case 'connection':
      if (!(yield* exists('SELECT 1 AS found FROM connections WHERE id = ? AND workspace_id = ?', [value, workspaceId])))
        throw refuse(`connection '${value}' is not in this workspace`);
      return;
    case 'agent':
      if (!(yield* exists('SELECT 1 AS found FROM agents WHERE id = ? AND workspace_id = ?', [value, workspaceId])))
        throw refuse(`agent '${value}' is not in this workspace`);
      return;
    case 'agentCommand': {
      const agentId = literalOf(holder, 'agentId');
      if (agentId === undefined) return;
      const agent = yield* q.get<{ data: string }>('SELECT data_json AS data FROM agents WHERE id = ? AND workspace_id = ?', [
        agentId,
        workspaceId,
      ]);
      if (!agent) return; // its agentId is refused on its own
      const commands = (JSON.parse(agent.data) as { commands?: { id: string; name: string }[] }).commands ?? [];
      const key = value.trim().toLowerCase();
      if (commands.some((c) => c.id === value || c.name.trim().toLowerCase() === key)) return;
      const names = commands.map((c) => c.name);
      const close = closestName(value, names);
      const known =
        close !== undefined
          ? `; did you mean '${close}'?`
          : names.length > 0
            ? `; its commands: ${names.map((n) => `'${n}'`).join(', ')}`
            : '; it has no commands';
      throw refuse(`agent '${agentId}' has no command '${value}'${known}`);
    }
    default:
      return;
  }
}
