/**
 * The agents feature's data (docs/architecture.md "Web data access"): agents, their conversations
 * and public pages as TanStack Query `queryOptions` (keys from {@link agentKeys}), and the writes the
 * agent screens make.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orNullOn404, unwrap } from '../api/client';
import { agentKeys } from '../api/keys';
import type { paths } from '../api/schema';
import type { Conversation } from './types';

/** The preferences a public page change sends: every key optional. */
export type PublicPreferences =
  paths['/api/v1/agents/{agentId}/public-agent']['patch']['requestBody']['content']['application/json']['preferences'];

/** The body of an agent change (`PATCH /agents/{agentId}`). */
export type AgentChange = paths['/api/v1/agents/{agentId}']['patch']['requestBody']['content']['application/json'];

const at = (agentId: string) => ({ params: { path: { agentId } } });

/** The agents of a folder, newest first (the first 100); nothing is read while `folderId` is undefined. */
export const agentsQuery = (folderId: string | undefined) =>
  queryOptions({
    queryKey: agentKeys.inFolder(folderId),
    enabled: folderId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/folders/{folderId}/agents', { params: { path: { folderId: folderId! }, query: { limit: 100 } } }))
        .items,
  });

/** The agents of a folder ({@link agentsQuery}). */
export function useAgents(folderId: string | undefined) {
  return useQuery(agentsQuery(folderId));
}

/** One agent. */
export const agentQuery = (agentId: string) =>
  queryOptions({
    queryKey: agentKeys.one(agentId),
    queryFn: async () => unwrap(await api.GET('/api/v1/agents/{agentId}', at(agentId))).item,
  });

/** An agent's conversations, newest first (the first 20). */
export const conversationsQuery = (agentId: string) =>
  queryOptions({
    queryKey: agentKeys.conversations(agentId),
    queryFn: async (): Promise<Conversation[]> =>
      unwrap(await api.GET('/api/v1/agents/{agentId}/convos', { params: { path: { agentId }, query: { limit: 20 } } })).items,
  });

/**
 * The agent's public page (URL and preferences), or null while public access is off. `on` is the
 * agent's `publicAccess`: the page is read only when it is on, so an agent without one costs no
 * request (and no 404 in the console); a 404 still means off (it was just turned off elsewhere).
 */
export const publicAgentQuery = (agentId: string, on: boolean) =>
  queryOptions({
    queryKey: agentKeys.publicPageWhen(agentId, on),
    queryFn: () =>
      on
        ? orNullOn404(async () => {
            const res = unwrap(await api.GET('/api/v1/agents/{agentId}/public-agent', at(agentId)));
            return { url: res.publicUrl, preferences: res.item.preferences };
          })
        : null,
  });

/** Creates an agent in a folder by name, or has the model generate one from a description. @returns its id. */
export function useCreateAgent() {
  return useMutation({
    mutationFn: async (p: { folderId: string } & ({ name: string } | { text: string })) => {
      const path = { params: { path: { folderId: p.folderId } } };
      const made =
        'name' in p
          ? unwrap(await api.POST('/api/v1/folders/{folderId}/agents', { ...path, body: { name: p.name } })).item
          : unwrap(await api.POST('/api/v1/folders/{folderId}/agent-generate', { ...path, body: { text: p.text } })).item;
      return made as { id: string };
    },
  });
}

/** Saves an agent's settings and commands with one PATCH, then refreshes it. @returns the saved agent. */
export function useSaveAgent(agentId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: AgentChange) => unwrap(await api.PATCH('/api/v1/agents/{agentId}', { ...at(agentId), body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: agentKeys.one(agentId) }),
  });
}

/** Deletes an agent and refreshes the agent lists. */
export function useDeleteAgent(agentId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/agents/{agentId}', at(agentId))),
    onSuccess: () => void queries.invalidateQueries({ queryKey: agentKeys.lists() }),
  });
}

/** Attaches or detaches a project or a media file as the agent's knowledge, then refreshes the agent. */
export function useKnowledgeChange(agentId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (p: { kind: 'project' | 'media'; id: string; attach: boolean }) => {
      const path = { agentId };
      if (p.kind === 'project') {
        return p.attach
          ? unwrap(await api.POST('/api/v1/agents/{agentId}/knowledge/project', { params: { path }, body: { projectId: p.id } }))
          : unwrap(
              await api.DELETE('/api/v1/agents/{agentId}/knowledge/project/{projectId}', {
                params: { path: { ...path, projectId: p.id } },
              }),
            );
      }
      return p.attach
        ? unwrap(await api.POST('/api/v1/agents/{agentId}/knowledge/media', { params: { path }, body: { mediaId: p.id } }))
        : unwrap(await api.DELETE('/api/v1/agents/{agentId}/knowledge/media/{mediaId}', { params: { path: { ...path, mediaId: p.id } } }));
    },
    onSuccess: () => queries.invalidateQueries({ queryKey: agentKeys.one(agentId) }),
  });
}

/** Turning the agent's public page on and off, and changing its preferences; each refreshes the agent and its page. */
export function usePublicPageChanges(agentId: string) {
  const queries = useQueryClient();
  const refresh = () =>
    Promise.all([
      queries.invalidateQueries({ queryKey: agentKeys.one(agentId) }),
      queries.invalidateQueries({ queryKey: agentKeys.publicPage(agentId) }),
    ]);
  const toggle = useMutation({
    mutationFn: async (on: boolean) =>
      on
        ? unwrap(await api.PUT('/api/v1/agents/{agentId}/publicAccess', at(agentId)))
        : unwrap(await api.DELETE('/api/v1/agents/{agentId}/publicAccess', at(agentId))),
    onSettled: refresh,
  });
  const prefer = useMutation({
    mutationFn: async (preferences: PublicPreferences) =>
      unwrap(await api.PATCH('/api/v1/agents/{agentId}/public-agent', { ...at(agentId), body: { preferences } })),
    onSettled: refresh,
  });
  return { toggle, prefer };
}

/** Asks for a streamed answer (`Accept: text/event-stream`): the raw response, for `readAnswer`. */
const streamed = (signal: AbortSignal) => ({ headers: { accept: 'text/event-stream' }, parseAs: 'stream' as const, signal });

/** Starts a conversation by running command `command` with `input`, the answer streamed (see `answerStream.ts`). */
export const startConversation = (agentId: string, body: { command: string; input: string }, signal: AbortSignal) =>
  api.POST('/api/v1/agents/{agentId}/convos', { ...at(agentId), body, ...streamed(signal) });

/** Sends a follow-up message to a conversation, the answer streamed (see `answerStream.ts`). */
export const sendMessage = (agentId: string, convoId: string, text: string, signal: AbortSignal) =>
  api.POST('/api/v1/agents/{agentId}/convos/{convoId}/messages', {
    params: { path: { agentId, convoId } },
    body: { text },
    ...streamed(signal),
  });
