import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client';

/**
 * The signed-in person, `{ok, item}` as `GET /api/v1/me` has it, read from the session probe
 * (`GET /api/v1/auth/session`, docs/api.md "Authentication"), which answers 200 whether or not
 * anyone is signed in, so a signed-out visitor's browser logs no failed request. Nobody signed in:
 * the query fails with an {@link ApiError} 401 `SIGNED_OUT` (no request failed).
 */
export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const probe = unwrap(await api.GET('/api/v1/auth/session'));
      if (!probe.signedIn || !probe.item) throw new ApiError(401, 'SIGNED_OUT', 'not signed in');
      return { ok: true, item: probe.item };
    },
    retry: false,
  });
}

/** The caller's workspaces. */
export function useWorkspaces() {
  return useQuery({ queryKey: ['workspaces'], queryFn: async () => unwrap(await api.GET('/api/v1/workspaces')).items });
}

/** The folders of a workspace (its home folder's id is the workspace id). */
export function useFolders(workspaceId: string | undefined) {
  return useQuery({
    queryKey: ['folders', workspaceId],
    enabled: workspaceId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/folders', { params: { path: { workspaceId: workspaceId! } } })).items,
  });
}

/** The projects of a folder (templates excluded). */
export function useFolderProjects(folderId: string | undefined) {
  return useQuery({
    queryKey: ['projects', folderId],
    enabled: folderId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/folders/{folderId}/projects', { params: { path: { folderId: folderId! } } })).items,
  });
}

/** One project. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ['project', projectId],
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } })).item,
  });
}

/** Tasks read per request: the first page is what the outline shows first. */
const TASK_PAGE = 500;

/**
 * Every task of a project in document order, read page by page (500 a page). On the first read
 * the first page is returned at once, so a large project has content on screen after one request,
 * and the remaining pages are added to the cache as they arrive; a later write to the cache (a
 * refetch, an optimistic change) stops that loading and the newer read takes over. A refetch reads
 * every page before it replaces the list on screen.
 */
export function useProjectTasks(projectId: string) {
  const queries = useQueryClient();
  return useQuery({
    queryKey: ['tasks', projectId],
    // The loading below compares the cached list by identity.
    structuralSharing: false,
    queryFn: async () => {
      const page = async (after?: string) =>
        unwrap(
          await api.GET('/api/v1/projects/{projectId}/tasks', {
            params: { path: { projectId }, query: after ? { limit: TASK_PAGE, after } : { limit: TASK_PAGE } },
          }),
        ).items;
      const first = await page();
      if (first.length < TASK_PAGE) return first;
      if (queries.getQueryData(['tasks', projectId]) !== undefined) {
        // A refetch: the list on screen stays until the whole new one is read (no shrinking and growing back).
        let all = first;
        let next = first;
        while (next.length === TASK_PAGE) {
          next = await page(all.at(-1)!.id);
          all = [...all, ...next];
        }
        return all;
      }
      void (async () => {
        let shown = first;
        for (;;) {
          const next = await page(shown.at(-1)!.id);
          if (queries.getQueryData(['tasks', projectId]) !== shown) return;
          shown = [...shown, ...next];
          queries.setQueryData(['tasks', projectId], shown);
          if (next.length < TASK_PAGE) return;
        }
      })().catch(() => queries.invalidateQueries({ queryKey: ['tasks', projectId] }));
      return first;
    },
  });
}
