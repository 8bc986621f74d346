import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orNullOn404, unwrap } from '../api/client';
import type { paths } from '../api/schema';

/** One side of a task date (docs "API", "Date"): `time` absent means all day. */
export type DatePoint = NonNullable<
  paths['/api/v1/projects/{projectId}/tasks/{taskId}/date']['get']['responses'][200]['content']['application/json']['item']['start']
>;

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

/**
 * Whether `present` (from the outline's task summaries) says the part exists: the part is read only
 * then, so a task without one costs no request (and no 404 in the console); undefined while unknown.
 */
type Presence = boolean | undefined;

/** The task's date, or null (null at once when `present` is false; nothing while it is undefined). */
export function useTaskDate(t: TaskRef, present: Presence) {
  return useQuery({
    queryKey: ['task-date', t.taskId],
    enabled: present === true,
    queryFn: () => orNullOn404(async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/date', at(t))).item),
  });
}

/** The task's note, or null (null at once when `present` is false; nothing while it is undefined). */
export function useTaskNote(t: TaskRef, present: Presence) {
  return useQuery({
    queryKey: ['task-note', t.taskId],
    enabled: present === true,
    queryFn: () => orNullOn404(async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/note', at(t))).item),
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
 * A write to one part of a task that refetches that part afterwards, and the outline's chips
 * (assignees, dates, field values: the task summaries). `removes`: the write deletes the part, so
 * on success its cached value becomes null instead of being read again (that read would answer
 * 404, which the browser logs as an error).
 */
export function useTaskWrite<V>(t: TaskRef, part: string, write: (value: V) => Promise<unknown>, { removes = false } = {}) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: (_result, error) => {
      const gone = removes && !error;
      if (gone) queries.setQueryData([part, t.taskId], null);
      return Promise.all([
        gone ? undefined : queries.invalidateQueries({ queryKey: [part, t.taskId] }),
        queries.invalidateQueries({ queryKey: ['tasks', t.projectId, 'summaries'] }),
      ]);
    },
  });
}

export { at as taskPath };
