import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The signed-in person (`GET /api/v1/me`); a 401 means nobody is signed in. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: async () => unwrap(await api.GET('/api/v1/me')), retry: false });
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
    queryFn: async () => unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/folders', { params: { path: { workspaceId: workspaceId! } } })).items,
  });
}

/** The projects of a folder (templates excluded). */
export function useFolderProjects(folderId: string | undefined) {
  return useQuery({
    queryKey: ['projects', folderId],
    enabled: folderId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/folders/{folderId}/projects', { params: { path: { folderId: folderId! } } })).items,
  });
}

/** One project. */
export function useProject(projectId: string) {
  return useQuery({
    queryKey: ['project', projectId],
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}', { params: { path: { projectId } } })).item,
  });
}

/** Every task of a project in document order, read page by page (500 a page). */
export function useProjectTasks(projectId: string) {
  return useQuery({
    queryKey: ['tasks', projectId],
    queryFn: async () => {
      const all: { id: string; text: string; completed: boolean; parentId?: string }[] = [];
      for (;;) {
        const after = all.at(-1)?.id;
        const page = unwrap(
          await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId }, query: after ? { limit: 500, after } : { limit: 500 } } }),
        ).items;
        all.push(...page);
        if (page.length < 500) return all;
      }
    },
  });
}
