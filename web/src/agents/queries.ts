import { useQuery } from '@tanstack/react-query';
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

/**
 * The agent's public page (URL and preferences), or null while public access is off. `on` is the
 * agent's `publicAccess`: the page is read only when it is on, so an agent without one costs no
 * request (and no 404 in the console); a 404 still means off (it was just turned off elsewhere).
 */
export function usePublicAgent(agentId: string, on: boolean) {
  return useQuery({
    queryKey: ['public-agent', agentId, on],
    queryFn: () =>
      on
        ? orNullOn404(async () => {
            const res = unwrap(await api.GET('/api/v1/agents/{agentId}/public-agent', { params: { path: { agentId } } }));
            return { url: res.publicUrl, preferences: res.item.preferences };
          })
        : null,
  });
}
