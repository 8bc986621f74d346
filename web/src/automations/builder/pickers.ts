import { useQueries, useQuery } from '@tanstack/react-query';
import { agentQuery, agentsQuery } from '../../agents/api';
import { useFolders } from '../../api/queries';
import { pieceConnectionsQuery } from '../../connections/api';
import { fieldsQuery, folderProjectsQuery } from '../../projects/api';
import { secretsQuery } from '../../settings/api';
import { pickerTasksQuery } from '../../tasks/api';
import { membersQuery } from '../../workspaces/api';
import { mediaQuery } from '../../media/api';
import { useAutomations } from '../queries';
import type { JSONSchema } from './kinds';

/** One choice of a picker: the value saved and what the person reads. */
export interface Option {
  value: string;
  label: string;
}

/** A literal id (not a template) or undefined. */
function literal(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !value.includes('{{') ? value : undefined;
}

function useWorkspaceProjects(workspaceId: string | undefined, enabled: boolean) {
  const folders = useFolders(enabled ? workspaceId : undefined);
  return useQueries({
    queries: (folders.data ?? []).map((f) => folderProjectsQuery(f.id)),
    combine: (results) => results.flatMap((r) => r.data ?? []),
  });
}

function useWorkspaceAgents(workspaceId: string | undefined, enabled: boolean) {
  const folders = useFolders(enabled ? workspaceId : undefined);
  return useQueries({
    queries: (folders.data ?? []).map((f) => agentsQuery(f.id)),
    combine: (results) => results.flatMap((r) => r.data ?? []),
  });
}

function useWorkspaceMedia(workspaceId: string | undefined, enabled: boolean) {
  const folders = useFolders(enabled ? workspaceId : undefined);
  const media = useQueries({
    queries: (folders.data ?? []).map((f) => mediaQuery(f.id)),
    combine: (results) => (results.some((r) => r.isPending) ? undefined : results.flatMap((r) => r.data ?? [])),
  });
  // Undefined (loading) until the folders and each folder's media are read.
  return folders.data === undefined ? undefined : media;
}

/**
 * The choices of an `x-picker` field (null when they depend on a project or agent not chosen yet), read through the public API: the workspace's projects,
 * folders, members, agents, secrets, automations, media files and a piece's connections; a project's tasks and custom fields, and an
 * agent's commands (from the sibling `projectId`/`agentId` when they are literal ids).
 */
export function usePickerOptions(
  picker: JSONSchema['x-picker'],
  workspaceId: string | undefined,
  siblings: Record<string, unknown>,
  piece?: string,
): Option[] | undefined | null {
  const projectId = literal(siblings.projectId) ?? literal((siblings.scope as { projectId?: unknown } | undefined)?.projectId);
  const agentId = literal(siblings.agentId);
  const projects = useWorkspaceProjects(workspaceId, picker === 'project');
  const folders = useFolders(picker === 'folder' || picker === 'project' || picker === 'agent' ? workspaceId : undefined);
  const agents = useWorkspaceAgents(workspaceId, picker === 'agent');
  const media = useWorkspaceMedia(workspaceId, picker === 'media');
  const members = useQuery({ ...membersQuery(workspaceId), enabled: picker === 'member' && workspaceId !== undefined });
  const secrets = useQuery({ ...secretsQuery(workspaceId!), enabled: picker === 'secret' && workspaceId !== undefined, retry: false });
  const automations = useAutomations(picker === 'automation' ? workspaceId : undefined);
  const connections = useQuery(pieceConnectionsQuery(workspaceId, piece, picker === 'connection'));
  const tasks = useQuery(pickerTasksQuery(picker === 'task' ? projectId : undefined)).data;
  const fields = useQuery({ ...fieldsQuery(projectId!), enabled: picker === 'field' && projectId !== undefined });
  const agent = useQuery({ ...agentQuery(agentId!), enabled: picker === 'agentCommand' && agentId !== undefined });
  // Tasks, fields and commands need a literal project or agent first: until then, a typed value.
  if ((picker === 'task' || picker === 'field') && !projectId) return null;
  if (picker === 'agentCommand' && !agentId) return null;
  switch (picker) {
    case 'project':
      return projects.map((p) => ({ value: p.id, label: p.name }));
    case 'folder':
      return folders.data?.map((f) => ({ value: f.id, label: f.name ?? f.id }));
    case 'member':
      return members.data?.map((m) => ({ value: m.handle ?? '', label: `${m.displayName ?? m.handle} (@${m.handle})` }));
    case 'agent':
      return agents.map((a) => ({ value: a.id, label: a.name }));
    case 'agentCommand':
      return agent.data?.data.commands.map((c) => ({ value: c.name, label: c.name }));
    case 'secret':
      return secrets.data?.map((s) => ({ value: String((s as { name?: string }).name), label: String((s as { name?: string }).name) }));
    case 'automation':
      return automations.data?.map((a) => ({ value: a.id, label: a.name }));
    case 'connection':
      return connections.data?.map((c) => ({ value: c.id, label: c.name }));
    case 'media':
      return media?.map((m) => ({ value: m.id, label: m.name }));
    case 'task':
      return tasks?.map((t) => ({ value: t.id, label: t.text || '(empty task)' }));
    case 'field':
      return fields.data?.map((f) => ({
        value: (f as { id: string }).id,
        label: (f as { name?: string }).name ?? (f as { id: string }).id,
      }));
    default:
      return undefined;
  }
}
