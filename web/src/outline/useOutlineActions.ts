import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Row, TaskItem } from './tree';

type Position = 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';

/**
 * The outline's writes, each one public API call; the task list is refetched after each so the
 * outline always shows what the service stored.
 */
export function useOutlineActions(projectId: string) {
  const queries = useQueryClient();
  const settle = () => queries.invalidateQueries({ queryKey: ['tasks', projectId] });
  const path = (taskId: string) => ({ path: { projectId, taskId } });

  const create = useMutation({
    mutationFn: async (p: { text: string; taskId?: string; placement?: Position }) => {
      const task = {
        contentType: 'text/plain' as const,
        content: p.text,
        ...(p.taskId ? { taskId: p.taskId, placement: p.placement ?? 'afterend' } : {}),
      };
      const res = unwrap(
        await api.POST('/api/v1/projects/{projectId}/tasks/', { params: { path: { projectId } }, body: { tasks: [task] } }),
      );
      return res.item[0]!;
    },
    onSettled: settle,
  });
  const rename = useMutation({
    mutationFn: async (p: { row: Row; text: string }) =>
      unwrap(
        await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}', {
          params: path(p.row.id),
          body: { contentType: 'text/plain', content: p.text },
        }),
      ),
    onSettled: settle,
  });
  const move = useMutation({
    mutationFn: async (p: { row: Row; taskId: string; position: Position }) =>
      unwrap(
        await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/move', {
          params: path(p.row.id),
          body: { target: { taskId: p.taskId, position: p.position } },
        }),
      ),
    onSettled: settle,
  });
  const toggleCall = useMutation({
    mutationFn: async (row: Row) =>
      unwrap(
        row.completed
          ? await api.POST('/api/v1/projects/{projectId}/tasks/{taskId}/uncomplete', { params: path(row.id) })
          : await api.POST('/api/v1/projects/{projectId}/tasks/{taskId}/complete', { params: path(row.id) }),
      ),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: async (row: Row) => unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}', { params: path(row.id) })),
    onSettled: settle,
  });
  /** Completes or reopens a task; optimistic, so the checkbox flips in the same event. */
  const toggle = (row: Row) => {
    // A refetch still in flight (after an earlier edit) must not overwrite the optimistic state.
    void queries.cancelQueries({ queryKey: ['tasks', projectId] });
    queries.setQueryData<TaskItem[]>(['tasks', projectId], (tasks) =>
      tasks?.map((t) => (t.id === row.id ? { ...t, completed: !row.completed } : t)),
    );
    return toggleCall.mutateAsync(row);
  };
  return { create, rename, move, toggle, remove };
}
