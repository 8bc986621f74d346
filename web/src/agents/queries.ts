import { useQueries, useQuery } from '@tanstack/react-query';
import { useWorkspaces } from '../api/queries';
import { api, orNullOn404, unwrap } from '../api/client';

/** The agents of a folder, newest first. */
export function useAgents(folderId: string | undefined) {
  return useQuery({
    queryKey: ['agents', folderId],
    enabled: folderId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/folders/{folderId}/agents', { params: { path: { folderId: folderId! }, query: { limit: 100 } } }))
        .items,
  });
}

/** One agent. */
export function useAgent(agentId: string) {
  return useQuery({
    queryKey: ['agent', agentId],
    queryFn: async () => unwrap(await api.GET('/api/v1/agents/{agentId}', { params: { path: { agentId } } })).item,
  });
}

/** An agent's conversations, newest first. */
export function useConversations(agentId: string) {
  return useQuery({
    queryKey: ['conversations', agentId],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/agents/{agentId}/convos', { params: { path: { agentId }, query: { limit: 20 } } })).items,
  });
}

/** The agent's public page (URL and preferences), or null while public access is off. */
export function usePublicAgent(agentId: string) {
  return useQuery({
    queryKey: ['public-agent', agentId],
    queryFn: () =>
      orNullOn404(async () => {
        const res = unwrap(await api.GET('/api/v1/agents/{agentId}/public-agent', { params: { path: { agentId } } }));
        return { url: res.publicUrl, preferences: res.item.preferences };
      }),
  });
}

/** The caller's role in the workspace holding a folder (found among the folders of the caller's workspaces). */
export function useRoleInFolder(folderId: string | undefined): string | undefined {
  const workspaces = useWorkspaces();
  const folders = useQueries({
    queries: (workspaces.data ?? []).map((w) => ({
      queryKey: ['folders', w.id],
      queryFn: async () =>
        unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/folders', { params: { path: { workspaceId: w.id } } })).items,
    })),
  });
  const index = folders.findIndex((f) => f.data?.some((folder) => folder.id === folderId));
  return index >= 0 ? (workspaces.data?.[index]?.role as string | undefined) : undefined;
}
