import { useQuery } from '@tanstack/react-query';
import { membersQuery } from '../workspaces/api';
import type { Field } from '../projects/api';
import { taskSummariesQuery, type TaskSummary } from './api';

/** What a row shows beside its text. */
export interface Chips {
  assignees: string[];
  /** The date as shown, e.g. "10 May 09:30" or "1 May → 10 May". */
  date?: string;
  fields: { fieldId: string; name: string; value: string }[];
  /** The project's fields this task has no value for, in the project's order (the "Add field" chip offers them). */
  unset: { fieldId: string; name: string }[];
  /** Whether the task has a date (start or due) and a note: the task panel reads only those that exist. */
  hasDate: boolean;
  hasNote: boolean;
}

interface Point {
  date: string;
  time?: string;
  timezone: string;
}

/** A date side as a short label in the reader's language ("10 May", "10 May 2027 09:30"). */
function pointLabel(point: Point): string {
  const day = new Date(`${point.date}T00:00:00Z`);
  const sameYear = day.getUTCFullYear() === new Date().getFullYear();
  const text = day.toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });
  return point.time ? `${text} ${point.time.slice(0, 5)}` : text;
}

/** A field value as text. */
function valueLabel(value: boolean | number | string): string {
  return typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
}

/** Each task's chips from the summaries and the project's fields ({@link taskSummariesQuery}). */
function chipsOf({ summaries, fields }: { summaries: TaskSummary[]; fields: Field[] }) {
  const names = new Map(fields.map((f) => [f.id, f.name]));
  const order = new Map(fields.map((f, i) => [f.id, i]));
  const unsetOf = (set: { fieldId: string }[]) =>
    fields.filter((f) => !set.some((v) => v.fieldId === f.id)).map((f) => ({ fieldId: f.id, name: f.name }));
  const byTask = new Map(
    summaries.map((s): [string, Chips] => {
      const points = [s.start, s.end].filter((p): p is Point => p !== null);
      return [
        s.taskId,
        {
          assignees: s.assignees,
          date: points.length > 0 ? points.map(pointLabel).join(' → ') : undefined,
          fields: [...s.fields]
            .sort((a, b) => (order.get(a.fieldId) ?? 0) - (order.get(b.fieldId) ?? 0))
            .map((f) => ({ fieldId: f.fieldId, name: names.get(f.fieldId) ?? 'Field', value: valueLabel(f.value) })),
          unset: unsetOf(s.fields),
          hasDate: points.length > 0,
          hasNote: s.hasNote,
        },
      ];
    }),
  );
  // The chips of a task without assignees, date or field values (the summaries leave it out).
  const none: Chips = { assignees: [], fields: [], unset: unsetOf([]), hasDate: false, hasNote: false };
  return { byTask, none };
}

/**
 * The workspace's members (for the assignee filter) and each task's chips, from
 * `GET .../task-summaries` and the project's fields; refetched with the task list (same key prefix).
 */
export function useTaskChips(projectId: string, workspaceId: string | undefined) {
  const members = useQuery(membersQuery(workspaceId));
  const summaries = useQuery({ ...taskSummariesQuery(projectId), select: chipsOf });
  return {
    members: (members.data ?? []).map((m) => ({ handle: String(m.handle), displayName: m.displayName ?? undefined })),
    /** A task's chips (empty when it has none); undefined while the summaries load. */
    of: (taskId: string): Chips | undefined => (summaries.data ? (summaries.data.byTask.get(taskId) ?? summaries.data.none) : undefined),
    /**
     * Whether a task has a date and a note, from the summaries: undefined while they load, both
     * true when they could not be read (the panel then asks the API itself).
     */
    parts: (taskId: string): { hasDate: boolean; hasNote: boolean } | undefined => {
      if (summaries.isError) return { hasDate: true, hasNote: true };
      if (!summaries.data) return undefined;
      const chips = summaries.data.byTask.get(taskId);
      return { hasDate: chips?.hasDate ?? false, hasNote: chips?.hasNote ?? false };
    },
  };
}
