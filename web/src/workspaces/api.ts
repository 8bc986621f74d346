/**
 * The workspaces feature's data (docs/architecture.md "Web data access"): the caller's workspaces,
 * their folders, members and invitations as TanStack Query `queryOptions` (keys from
 * {@link workspaceKeys}), and the writes of those.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { workspaceKeys } from '../api/keys';
import type { Role } from '../components/roles';

const at = (workspaceId: string) => ({ params: { path: { workspaceId } } });

/** The caller's workspaces, each with the caller's role in it. */
export const workspacesQuery = () =>
  queryOptions({ queryKey: workspaceKeys.all(), queryFn: async () => unwrap(await api.GET('/api/v1/workspaces')).items });

/** The caller's workspaces ({@link workspacesQuery}). */
export function useWorkspaces() {
  return useQuery(workspacesQuery());
}

/** The folders of a workspace (its home folder's id is the workspace id); nothing is read while `workspaceId` is undefined. */
export const foldersQuery = (workspaceId: string | undefined) =>
  queryOptions({
    queryKey: workspaceKeys.folders(workspaceId),
    enabled: workspaceId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/folders', at(workspaceId!))).items,
  });

/** The folders of a workspace ({@link foldersQuery}). */
export function useFolders(workspaceId: string | undefined) {
  return useQuery(foldersQuery(workspaceId));
}

/** The members of a workspace; nothing is read while `workspaceId` is undefined. */
export const membersQuery = (workspaceId: string | undefined) =>
  queryOptions({
    queryKey: workspaceKeys.members(workspaceId),
    enabled: workspaceId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/members', at(workspaceId!))).items,
  });

/** The pending invitations of a workspace (Owners). */
export const invitationsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.invitations(workspaceId),
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/invitations', at(workspaceId))).items,
  });

/** What an invitation link offers (`POST /auth/invitations/preview`), read once; nothing for an empty token. */
export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: workspaceKeys.invitation(token),
    queryFn: async () => unwrap(await api.POST('/api/v1/auth/invitations/preview', { body: { token } })).item,
    retry: false,
    enabled: token !== '',
  });

/** Creates a workspace named `name` and refreshes the list. @returns the workspace. */
export function useCreateWorkspace() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => unwrap(await api.POST('/api/v1/workspaces', { body: { name } })).item,
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all() }),
  });
}

/** Renames workspace `workspaceId` (Owners) and refreshes the list. */
export function useRenameWorkspace(workspaceId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => unwrap(await api.PATCH('/api/v1/workspaces/{workspaceId}', { ...at(workspaceId), body: { name } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all() }),
  });
}

/** Role changes and removals of a workspace's members (Owners); each refreshes the members. */
export function useMemberChanges(workspaceId: string) {
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: workspaceKeys.members(workspaceId) });
  const changeRole = useMutation({
    mutationFn: async (p: { handle: string; role: Role }) =>
      unwrap(
        await api.PATCH('/api/v1/workspaces/{workspaceId}/members/{handle}', {
          params: { path: { workspaceId, handle: p.handle } },
          body: { role: p.role },
        }),
      ),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (handle: string) =>
      unwrap(await api.DELETE('/api/v1/workspaces/{workspaceId}/members/{handle}', { params: { path: { workspaceId, handle } } })),
    onSettled: refresh,
  });
  return { changeRole, remove };
}

/** Inviting to a workspace (by email or handle) and withdrawing an invitation (Owners); each refreshes the invitations. */
export function useInvitationChanges(workspaceId: string) {
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: workspaceKeys.invitations(workspaceId) });
  const invite = useMutation({
    mutationFn: async (p: { invitee: string; role: Role }) => {
      const who = p.invitee.trim();
      const { role } = p;
      const body = who.includes('@') && !who.startsWith('@') ? { email: who, role } : { handle: who.replace(/^@/, ''), role };
      return unwrap(await api.POST('/api/v1/workspaces/{workspaceId}/invitations', { ...at(workspaceId), body })).item;
    },
    onSettled: refresh,
  });
  const withdraw = useMutation({
    mutationFn: async (invitationId: string) =>
      unwrap(
        await api.DELETE('/api/v1/workspaces/{workspaceId}/invitations/{invitationId}', {
          params: { path: { workspaceId, invitationId } },
        }),
      ),
    onSettled: refresh,
  });
  return { invite, withdraw };
}
