/**
 * The signed-in person's data (docs/architecture.md "Web data access"): who is signed in, as a
 * TanStack Query `queryOptions` (key from {@link accountKeys}), and the display name change.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from '../api/client';
import { accountKeys, workspaceKeys } from '../api/keys';

/**
 * The signed-in person, `{ok, item}` as `GET /api/v1/me` has it, read from the session probe
 * (`GET /api/v1/auth/session`, docs/api.md "Authentication"), which answers 200 whether or not
 * anyone is signed in, so a signed-out visitor's browser logs no failed request. Nobody signed in:
 * the query fails with an {@link ApiError} 401 `SIGNED_OUT` (no request failed).
 */
export const meQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: async () => {
      const probe = unwrap(await api.GET('/api/v1/auth/session'));
      if (!probe.signedIn || !probe.item) throw new ApiError(401, 'SIGNED_OUT', 'not signed in');
      return { ok: true, item: probe.item };
    },
    retry: false,
  });

/** The signed-in person ({@link meQuery}). */
export function useMe() {
  return useQuery(meQuery());
}

/** Sets the person's display name; the person and every member list (they show the name) are refreshed. */
export function useSaveDisplayName() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (displayName: string) => unwrap(await api.PATCH('/api/v1/me', { body: { displayName } })).item,
    onSuccess: async (item) => {
      queries.setQueryData(meQuery().queryKey, { ok: true, item });
      await queries.invalidateQueries({ queryKey: workspaceKeys.allMembers() });
    },
  });
}
