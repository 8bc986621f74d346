import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orNullOn404, unwrap } from '../api/client';

/** One side of a task date (docs "API", "Date"): `time` absent means all day. */
export interface DatePoint {
  date: string;
  time?: string;
  timezone: string;
}

/** The path parameters of a task. */
export interface TaskRef {
  projectId: string;
  taskId: string;
}

const at = (t: TaskRef) => ({ params: { path: { projectId: t.projectId, taskId: t.taskId } } });

/** The task's assignees. */
export function useAssignees(t: TaskRef) {
  return useQuery({
    queryKey: ['task-assignees', t.taskId],
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/assignees', at(t))).items,
  });
}

/** The task's date, or null. */
export function useTaskDate(t: TaskRef) {
  return useQuery({
    queryKey: ['task-date', t.taskId],
    queryFn: () =>
      orNullOn404(
        async () =>
          unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/date', at(t))).item as {
            start: DatePoint | null;
            end: DatePoint | null;
          },
      ),
  });
}

/** The task's note, or null. */
export function useTaskNote(t: TaskRef) {
  return useQuery({
    queryKey: ['task-note', t.taskId],
    queryFn: () =>
      orNullOn404(
        async () =>
          unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/note', at(t))).item as { type: string; value: string },
      ),
  });
}

/** The project's custom fields and this task's value of each. */
export function useTaskFields(t: TaskRef) {
  return useQuery({
    queryKey: ['task-fields', t.taskId],
    queryFn: async () => {
      const [fields, values] = await Promise.all([
        api.GET('/api/v1/projects/{projectId}/fields', { params: { path: { projectId: t.projectId } } }).then(unwrap),
        api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/fields', at(t)).then(unwrap),
      ]);
      const value = new Map(values.items.map((v) => [v.fieldId, v.value]));
      return fields.items.map((f) => ({
        id: f.id,
        name: f.name,
        type: f.type,
        options: f.options ?? [],
        value: value.get(f.id) ?? null,
      }));
    },
  });
}

/** The task's comments, oldest first (the first 500). */
export function useComments(t: TaskRef) {
  return useQuery({
    queryKey: ['task-comments', t.taskId],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/comments', { params: { ...at(t).params, query: { limit: 500 } } }))
        .items,
  });
}

/**
 * A write to one part of a task that refetches that part afterwards. The outline shows none of
 * these parts; its own refresh comes from the live stream's `project` event.
 */
export function useTaskWrite<V>(t: TaskRef, part: string, write: (value: V) => Promise<unknown>) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queries.invalidateQueries({ queryKey: [part, t.taskId] }),
  });
}

export { at as taskPath };
