/**
 * The tasks feature's data (docs/architecture.md "Web data access"): a project's task list and the
 * parts of one task (assignees, date, note, field values, comments) as TanStack Query
 * `queryOptions` (keys from {@link taskKeys}), the writes of those parts, and {@link useTaskWrite}.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api, orNullOn404, unwrap } from '../api/client';
import { taskKeys } from '../api/keys';
import type { paths } from '../api/schema';

/** One side of a task date (docs "API", "Date"): `time` absent means all day. */
export type DatePoint = NonNullable<
  paths['/api/v1/projects/{projectId}/tasks/{taskId}/date']['get']['responses'][200]['content']['application/json']['item']['start']
>;

/** A custom field value of a task: null clears it. */
export type FieldValue =
  | paths['/api/v1/projects/{projectId}/tasks/{taskId}/fields']['get']['responses'][200]['content']['application/json']['items'][number]['value']
  | null;

/** A custom field of the project with one task's value of it. */
export type TaskField = Pick<
  paths['/api/v1/projects/{projectId}/fields']['get']['responses'][200]['content']['application/json']['items'][number],
  'id' | 'name' | 'type'
> & { options: string[]; value: FieldValue };

/** The path parameters of a task. */
export interface TaskRef {
  projectId: string;
  taskId: string;
}

const at = (t: TaskRef) => ({ params: { path: { projectId: t.projectId, taskId: t.taskId } } });

/** Tasks read per request: the first page is what the outline shows first. */
const TASK_PAGE = 500;

/**
 * Every task of a project in document order, read page by page (500 a page). On the first read
 * the first page is returned at once, so a large project has content on screen after one request,
 * and the remaining pages are added to the cache as they arrive; a later write to the cache (a
 * refetch, an optimistic change) stops that loading and the newer read takes over. A refetch reads
 * every page before it replaces the list on screen.
 */
export const projectTasksQuery = (projectId: string) =>
  queryOptions({
    queryKey: taskKeys.of(projectId),
    // The loading below compares the cached list by identity.
    structuralSharing: false,
    queryFn: async ({ client }) => {
      const key = taskKeys.of(projectId);
      const page = async (after?: string) =>
        unwrap(
          await api.GET('/api/v1/projects/{projectId}/tasks', {
            params: { path: { projectId }, query: after ? { limit: TASK_PAGE, after } : { limit: TASK_PAGE } },
          }),
        ).items;
      const first = await page();
      if (first.length < TASK_PAGE) return first;
      if (client.getQueryData(key) !== undefined) {
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
          if (client.getQueryData(key) !== shown) return;
          shown = [...shown, ...next];
          client.setQueryData(key, shown);
          if (next.length < TASK_PAGE) return;
        }
      })().catch(() => client.invalidateQueries({ queryKey: key }));
      return first;
    },
  });

/** A project's tasks ({@link projectTasksQuery}). */
export function useProjectTasks(projectId: string) {
  return useQuery(projectTasksQuery(projectId));
}

/** A project's first task, or null when it has none (the builder's sample context); nothing is read without a project. */
export const firstTaskQuery = (projectId: string | undefined) =>
  queryOptions({
    queryKey: taskKeys.first(projectId),
    enabled: projectId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId: projectId! }, query: { limit: 1 } } }))
        .items[0] ?? null,
  });

/** A project's first 500 tasks (the builder's task picker); nothing is read without a project. */
export const pickerTasksQuery = (projectId: string | undefined) =>
  queryOptions({
    queryKey: taskKeys.picker(projectId),
    enabled: projectId !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/tasks', { params: { path: { projectId: projectId! }, query: { limit: 500 } } }))
        .items as { id: string; text: string }[],
  });

/** The task's assignees. */
export const assigneesQuery = (t: TaskRef) =>
  queryOptions({
    queryKey: taskKeys.assignees(t.taskId),
    queryFn: async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/assignees', at(t))).items,
  });

/**
 * Whether `present` (from the outline's task summaries) says the part exists: the part is read only
 * then, so a task without one costs no request (and no 404 in the console); undefined while unknown.
 */
type Presence = boolean | undefined;

/** The task's date, or null (null at once when `present` is false; nothing while it is undefined). */
export const taskDateQuery = (t: TaskRef, present: Presence) =>
  queryOptions({
    queryKey: taskKeys.date(t.taskId),
    enabled: present === true,
    queryFn: () => orNullOn404(async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/date', at(t))).item),
  });

/** The task's note, or null (null at once when `present` is false; nothing while it is undefined). */
export const taskNoteQuery = (t: TaskRef, present: Presence) =>
  queryOptions({
    queryKey: taskKeys.note(t.taskId),
    enabled: present === true,
    queryFn: () => orNullOn404(async () => unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/note', at(t))).item),
  });

/** The project's custom fields and this task's value of each. */
export const taskFieldsQuery = (t: TaskRef) =>
  queryOptions({
    queryKey: taskKeys.fields(t.taskId),
    queryFn: async (): Promise<TaskField[]> => {
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

/** The task's comments, oldest first (the first 500). */
export const commentsQuery = (t: TaskRef) =>
  queryOptions({
    queryKey: taskKeys.comments(t.taskId),
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/projects/{projectId}/tasks/{taskId}/comments', { params: { ...at(t).params, query: { limit: 500 } } }))
        .items,
  });

/** The writes of a task's parts (each throws an ApiError from the service). */
export const taskWrites = {
  /** Replaces the assignees with `handles`. */
  assignees: async (t: TaskRef, handles: string[]) =>
    unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/assignees', { ...at(t), body: { handles } })),
  /** Sets the date (either side may be absent). */
  date: async (t: TaskRef, body: { start?: DatePoint; end?: DatePoint }) =>
    unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/date', { ...at(t), body })),
  clearDate: async (t: TaskRef) => unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}/date', at(t))),
  /** Sets the note (one line, `text` or `markdown`). */
  note: async (t: TaskRef, body: { type: 'text' | 'markdown'; value: string }) =>
    unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/note', { ...at(t), body })),
  clearNote: async (t: TaskRef) => unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}/note', at(t))),
  /** Sets one field value: PUT, or DELETE for null. */
  field: async (t: TaskRef, fieldId: string, value: FieldValue) => {
    const path = { params: { path: { ...at(t).params.path, fieldId } } };
    return value === null
      ? unwrap(await api.DELETE('/api/v1/projects/{projectId}/tasks/{taskId}/fields/{fieldId}', path))
      : unwrap(await api.PUT('/api/v1/projects/{projectId}/tasks/{taskId}/fields/{fieldId}', { ...path, body: { value } }));
  },
  /** Adds a comment (text only). */
  comment: async (t: TaskRef, text: string) =>
    unwrap(await api.POST('/api/v1/projects/{projectId}/tasks/{taskId}/comments', { ...at(t), body: { text } })),
};

/**
 * A write to one part of a task (its query key `part`, from {@link taskKeys}) that refetches that
 * part afterwards, and the outline's chips (assignees, dates, field values: the task summaries).
 * `removes`: the write deletes the part, so on success its cached value becomes null instead of
 * being read again (that read would answer 404, which the browser logs as an error).
 */
export function useTaskWrite<V>(t: TaskRef, part: QueryKey, write: (value: V) => Promise<unknown>, { removes = false } = {}) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: (_result, error) => {
      const gone = removes && !error;
      if (gone) queries.setQueryData(part, null);
      return Promise.all([
        gone ? undefined : queries.invalidateQueries({ queryKey: part }),
        queries.invalidateQueries({ queryKey: taskKeys.summaries(t.projectId) }),
      ]);
    },
  });
}
