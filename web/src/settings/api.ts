/**
 * The settings screens' data (docs/architecture.md "Web data access"): the person's sessions,
 * tokens, OAuth grants and mail preferences, a workspace's secrets and OAuth apps, as TanStack Query
 * `queryOptions` (keys from {@link accountKeys} and {@link workspaceKeys}), and their writes as
 * mutation hooks that refresh what they change.
 */
import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { accountKeys, workspaceKeys } from '../api/keys';
import type { paths } from '../api/schema';

/** The mail preferences a change sends: a mode per kind, every kind optional. */
export type MailPreferenceChange = paths['/api/v1/me/mail-preferences']['put']['requestBody']['content']['application/json'];

/** The person's browser sessions. */
export const sessionsQuery = () =>
  queryOptions({ queryKey: accountKeys.sessions(), queryFn: async () => unwrap(await api.GET('/api/v1/auth/sessions')).items });

/** The person's API tokens. */
export const tokensQuery = () =>
  queryOptions({ queryKey: accountKeys.tokens(), queryFn: async () => unwrap(await api.GET('/api/v1/tokens')).items });

/** The OAuth apps the person allowed. */
export const oauthGrantsQuery = () =>
  queryOptions({ queryKey: accountKeys.oauthGrants(), queryFn: async () => unwrap(await api.GET('/api/v1/me/oauth-grants')).items });

/** The person's mail preferences. */
export const mailPreferencesQuery = () =>
  queryOptions({ queryKey: accountKeys.mailPreferences(), queryFn: async () => unwrap(await api.GET('/api/v1/me/mail-preferences')).item });

/** A workspace's secrets (names only, never values). */
export const secretsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.secrets(workspaceId),
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/secrets', { params: { path: { workspaceId } } })).items,
  });

/** A workspace's registered OAuth apps. */
export const oauthClientsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.oauthClients(workspaceId),
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/oauth-clients', { params: { path: { workspaceId } } })).items,
  });

/** A mutation of `write` that refetches `key` once settled. */
function useWrite<V, R>(key: QueryKey, write: (value: V) => Promise<R>) {
  const queries = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queries.invalidateQueries({ queryKey: key }) });
}

/** Changes the password with the current one (the other sessions end, so the sessions are refreshed). */
export const useChangePassword = () =>
  useWrite(accountKeys.sessions(), async (body: { currentPassword: string; newPassword: string }) =>
    unwrap(await api.POST('/api/v1/auth/password', { body })),
  );

/** Signs out one of the person's sessions. */
export const useEndSession = () =>
  useWrite(accountKeys.sessions(), async (sessionId: string) =>
    unwrap(await api.DELETE('/api/v1/auth/sessions/{sessionId}', { params: { path: { sessionId } } })),
  );

/** Creates an API token (`expiresAt` absent: it never expires); the answer carries the token, shown once. */
export const useCreateToken = () =>
  useWrite(
    accountKeys.tokens(),
    async (body: { name: string; scope: 'write' | 'read'; expiresAt?: string }) => unwrap(await api.POST('/api/v1/tokens', { body })).item,
  );

/** Revokes an API token. */
export const useRevokeToken = () =>
  useWrite(accountKeys.tokens(), async (tokenId: string) =>
    unwrap(await api.DELETE('/api/v1/tokens/{tokenId}', { params: { path: { tokenId } } })),
  );

/** Revokes an OAuth app's grant. */
export const useRevokeGrant = () =>
  useWrite(accountKeys.oauthGrants(), async (grantId: string) =>
    unwrap(await api.DELETE('/api/v1/me/oauth-grants/{grantId}', { params: { path: { grantId } } })),
  );

/** Saves mail preferences; the answer replaces the cached ones. */
export function useSaveMailPreferences() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (change: MailPreferenceChange) => unwrap(await api.PUT('/api/v1/me/mail-preferences', { body: change })).item,
    onSuccess: (item) => queries.setQueryData(mailPreferencesQuery().queryKey, item),
  });
}

/** Sets (creates or rotates) and deletes a workspace's secrets (Owners); each refreshes the list. */
export function useSecretChanges(workspaceId: string) {
  const key = workspaceKeys.secrets(workspaceId);
  const save = useWrite(
    key,
    async (p: { name: string; value: string }) =>
      unwrap(
        await api.PUT('/api/v1/workspaces/{workspaceId}/secrets/{name}', {
          params: { path: { workspaceId, name: p.name } },
          body: { value: p.value },
        }),
      ).item,
  );
  const remove = useWrite(key, async (name: string) =>
    unwrap(await api.DELETE('/api/v1/workspaces/{workspaceId}/secrets/{name}', { params: { path: { workspaceId, name } } })),
  );
  return { save, remove };
}

/** Registers and deletes a workspace's OAuth apps (Owners); each refreshes the list. */
export function useOAuthClientChanges(workspaceId: string) {
  const key = workspaceKeys.oauthClients(workspaceId);
  const register = useWrite(
    key,
    async (body: { name: string; type: 'confidential' | 'public'; redirectUris: string[] }) =>
      unwrap(await api.POST('/api/v1/workspaces/{workspaceId}/oauth-clients', { params: { path: { workspaceId } }, body })).item,
  );
  const remove = useWrite(key, async (clientId: string) =>
    unwrap(await api.DELETE('/api/v1/oauth-clients/{clientId}', { params: { path: { clientId } } })),
  );
  return { register, remove };
}
