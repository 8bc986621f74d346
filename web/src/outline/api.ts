/**
 * The outline's data (docs/architecture.md "Web data access"): a project's task summaries, the ids
 * matching a filter and the deleted tasks as TanStack Query `queryOptions` (keys from
 * {@link taskKeys}), and the task edits the outline makes (each one public API call).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { taskKeys } from '../api/keys';
import type { paths } from '../api/schema';
import type { Field } from '../projects/api';
import type { Place, TaskItem } from './tree';

/** A task filter as `GET .../tasks` takes it (every key optional). */
export type TaskQuery = Omit<NonNullable<paths['/api/v1/projects/{projectId}/tasks']['get']['parameters']['query']>, 'limit' | 'after'>;

/** One task's summary (assignees, date sides, field values, whether it has a note), as `GET .../task-summaries` lists them. */
export type TaskSummary =
  paths['/api/v1/projects/{projectId}/task-summaries']['get']['responses'][200]['content']['application/json']['items'][number];

/** Matches read per request. */
const PAGE = 500;

/**
 * The task summaries of a project (`GET .../task-summaries`: assignees, dates, field values, note)
 * with the project's field definitions; under the task list's key, so refetched with it.
 */
export const taskSummariesQuery = (projectId: string) =>
  queryOptions({
    queryKey: taskKeys.summaries(projectId),
    queryFn: async (): Promise<{ summaries: TaskSummary[]; fields: Field[] }> => {
      const [list, fields] = await Promise.all([
        api.GET('/api/v1/projects/{projectId}/task-summaries', { params: { path: { projectId } } }).then(unwrap),
        api.GET('/api/v1/projects/{projectId}/fields', { params: { path: { projectId } } }).then(unwrap),
      ]);
      return { summaries: list.items, fields: fields.items };
    },
  });

/** The ids of the tasks matching `query`, every page; read only when `enabled`, the last answer kept while the next loads. */
export const taskMatchesQuery = (projectId: string, query: TaskQuery, enabled: boolean) =>
  queryOptions({
    queryKey: taskKeys.matches(projectId, query),
    enabled,
    placeholderData: (previous: Set<string> | undefined) => previous,
    queryFn: async () => {
      const ids = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = unwrap(
          await api.GET('/api/v1/projects/{projectId}/tasks', {
            params: { path: { projectId }, query: { ...query, limit: PAGE, ...(after ? { after } : {}) } },
          }),
        ).items;
        page.forEach((t) => ids.add(t.id));
        if (page.length < PAGE) return ids;
        after = page.at(-1)!.id;
      }
    },
  });

/** The project's deleted tasks, newest first (`GET .../trash`, docs "API", "Deleted tasks"): the first 100. */
export const deletedTasksQuery = (projectId: string) =>
  queryOptions({
    queryKey: taskKeys.trash(projectId),
    staleTime: 0,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/trash', { params: { path: { projectId }, query: { limit: 100 } } })).items,
  });

/**
 * Restores a deleted task (`POST .../trash/{id}/restore`): it comes back with its subtasks, note,
 * dates, assignees, field values and comments, under its former parent when that still exists.
 * Refreshes the outline, its chips and the list.
 */
export function useRestoreDeleted(projectId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) => taskEdits(projectId).restoreDeleted(entryId),
    onSettled: () => refreshOutline(queries, projectId),
  });
}

/** Refetches a project's outline (with its chips and matches) and its deleted tasks. */
export function refreshOutline(queries: ReturnType<typeof useQueryClient>, projectId: string) {
  return Promise.all([
    queries.invalidateQueries({ queryKey: taskKeys.of(projectId) }),
    queries.invalidateQueries({ queryKey: taskKeys.trash(projectId) }),
  ]);
}

/** One new task as `POST .../tasks/` takes it. */
export interface NewTask {
  content: string;
  taskId?: string;
  placement?: Place['position'];
}

/** The task writes of project `projectId`, each one request (each throws an ApiError from the service). */
export function taskEdits(projectId: string) {
  const path = (taskId: string) => ({ params: { path: { projectId, taskId } } });
  return {
    /** Creates tasks (at most 100) in one request. @returns them, in order. */
    create: async (tasks: NewTask[]): Promise<TaskItem[]> =>
      unwrap(
        await api.POST('/api/v1/projects/{projectId}/tasks/', {
          params: { path: { projectId } },
          body: { tasks: tasks.map((t) => ({ contentType: 'text/plain' as const, ...t })) },
        }),
      ).item,
    rename: async (taskId: string, text: string) =>
      unwrap(
        await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}', {
          ...path(taskId),
          body: { contentType: 'text/plain', content: text },
        }),
      ),
    setCompleted: async (taskId: string, completed: boolean) => {
      unwrap(
        completed
          ? await api.POST('/api/v1/projects/{projectId}/tasks/{taskId}/complete', path(taskId))
          : await api.POST('/api/v1/projects/{projectId}/tasks/{taskId}/uncomplete', path(taskId)),
      );
    },
    move: async (taskId: string, target: { taskId: string; position: Place['position'] }) => {
      unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/move', { ...path(taskId), body: { target } }));
    },
    remove: async (taskId: string) => {
      unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}', path(taskId)));
    },
    /** The latest 100 deleted tasks. */
    deleted: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/trash', { params: { path: { projectId }, query: { limit: 100 } } })).items,
    restoreDeleted: async (entryId: string) =>
      unwrap(await api.POST('/api/v1/projects/{projectId}/trash/{id}/restore', { params: { path: { projectId, id: entryId } } })).item,
  };
}
