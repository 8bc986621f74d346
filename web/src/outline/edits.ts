import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { taskKeys } from '../api/keys';
import { refreshOutline, taskEdits } from './api';
import { useUndoHistory, type UndoHistory } from './history';
import { placeOf, subtreeEnd, type Place, type Row, type TaskItem } from './tree';

/** Tasks one create request may carry (the API's limit). */
const CREATE_BATCH = 100;

/** A deleted task as kept for undo: enough to make it again (text, completion, place in its subtree). */
interface Kept {
  id: string;
  text: string;
  completed: boolean;
  depth: number;
  parentId?: string;
}

/** A short quote of a task's text for labels ("Delete “Buy milk”"). */
export function quote(text: string): string {
  return `“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`;
}

/** Runs an edit, then refreshes the outline and the deleted tasks whatever happened. */
type Settled = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * The requests behind the outline's edits, each naming tasks by their first id (the history
 * resolves it to the id the task has now, should it have been made again).
 */
function editRequests(projectId: string, history: UndoHistory) {
  const edits = taskEdits(projectId);
  const target = (place: Place) => (place.taskId ? { taskId: history.resolve(place.taskId), placement: place.position } : {});
  const createAt = async (text: string, place: Place) => (await edits.create([{ content: text, ...target(place) }]))[0]!;
  const rename = (id: string, text: string) => edits.rename(history.resolve(id), text);
  const setCompleted = (id: string, completed: boolean) => edits.setCompleted(history.resolve(id), completed);
  const moveTo = async (id: string, place: Place, rows: readonly Row[]) => {
    // "At the end of the project" as a move: after the last top-level task.
    const lastBlock = [...rows].reverse().find((r) => r.depth === 0 && r.id !== id);
    const to = place.taskId
      ? { taskId: history.resolve(place.taskId), position: place.position }
      : lastBlock
        ? { taskId: lastBlock.id, position: 'afterend' as const }
        : null;
    if (to) await edits.move(history.resolve(id), to);
  };
  const remove = (id: string) => edits.remove(history.resolve(id));

  /** Makes a deleted subtree again at `place`: the top task, then each level of subtasks in one request. */
  const recreate = async (kept: readonly Kept[], place: Place) => {
    const top = await createAt(kept[0]!.text, place);
    history.alias(kept[0]!.id, top.id);
    const depths = [...new Set(kept.slice(1).map((k) => k.depth))].sort((a, b) => a - b);
    for (const depth of depths) {
      const level = kept.filter((k) => k.depth === depth);
      for (let i = 0; i < level.length; i += CREATE_BATCH) {
        const batch = level.slice(i, i + CREATE_BATCH);
        const made = await edits.create(
          batch.map((k) => ({ content: k.text, taskId: history.resolve(k.parentId!), placement: 'beforeend' as const })),
        );
        batch.forEach((k, n) => history.alias(k.id, made[n]!.id));
      }
    }
    await Promise.all(kept.filter((k) => k.completed).map((k) => setCompleted(k.id, true)));
  };

  /**
   * Brings a deleted subtree back: from the project's deleted tasks when its entry is among the
   * latest 100, else made again by {@link recreate}.
   */
  const restore = async (kept: readonly Kept[], place: Place) => {
    const taskId = history.resolve(kept[0]!.id);
    const entry = (await edits.deleted()).find((d) => d.taskId === taskId);
    if (!entry) return recreate(kept, place);
    await edits.restoreDeleted(entry.id);
  };
  return { createAt, rename, setCompleted, moveTo, remove, restore };
}

type Requests = ReturnType<typeof editRequests>;

/** The subtrees `chosen` deletes (a chosen task inside another chosen one goes with it), each with where it comes back on undo. */
function deletionGroups(chosen: readonly Row[], rows: readonly Row[]) {
  const ids = new Set(chosen.map((r) => r.id));
  const leaving = new Set<string>();
  const groups: { kept: Kept[]; place: Place }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!ids.has(row.id) || leaving.has(row.id)) continue;
    const end = subtreeEnd(rows, i);
    const kept = rows
      .slice(i, end)
      .map((r) => ({ id: r.id, text: r.text, completed: r.completed, depth: r.depth - row.depth, parentId: r.parentId }));
    kept.forEach((k) => leaving.add(k.id));
    groups.push({ kept, place: { position: 'afterend' } });
  }
  // Places are taken before anything goes, relative to tasks that stay or come back first.
  for (const group of groups)
    group.place = placeOf(
      rows,
      rows.findIndex((r) => r.id === group.kept[0]!.id),
      leaving,
    );
  return { groups, leaving };
}

/** The edits of one task: add, rename, move. */
function singleEdits(history: UndoHistory, requests: Requests, settled: Settled) {
  const { createAt, rename, moveTo, remove } = requests;
  return {
    /** Adds a task at `place` (the text is one line). */
    async create(text: string, place: Place): Promise<TaskItem> {
      const done = settled(() => createAt(text, place));
      let id = '';
      history.record(
        {
          label: `Add ${quote(text)}`,
          undo: () => settled(() => remove(id)),
          redo: () =>
            settled(async () => {
              const again = await createAt(text, place);
              history.alias(id, again.id);
              id = again.id;
            }),
        },
        done.then((made) => (id = made.id)),
      );
      return done;
    },
    /** Replaces a task's text (nothing happens for the same text). */
    async rename(row: Row, text: string) {
      if (text === row.text) return;
      const done = settled(() => rename(row.id, text));
      history.record(
        {
          label: `Edit ${quote(text)}`,
          undo: () => settled(() => rename(row.id, row.text)).then(() => undefined),
          redo: () => settled(() => rename(row.id, text)).then(() => undefined),
        },
        done,
      );
      await done;
    },
    /** Moves a task with its subtree to `to`; `rows` is the outline as shown before the move. */
    async move(row: Row, to: Required<Place>, rows: readonly Row[]) {
      const index = rows.findIndex((r) => r.id === row.id);
      const from = placeOf(rows, index);
      const done = settled(() => moveTo(row.id, to, rows));
      history.record(
        {
          label: `Move ${quote(row.text)}`,
          undo: () => settled(() => moveTo(row.id, from, rows)),
          redo: () => settled(() => moveTo(row.id, to, rows)),
        },
        done,
      );
      await done;
    },
  };
}

/** The edits of several tasks at once, shown at once (optimistic): complete or reopen, delete. */
function groupEdits(queries: QueryClient, projectId: string, history: UndoHistory, requests: Requests, settled: Settled) {
  const { setCompleted, remove, restore } = requests;
  const key = taskKeys.of(projectId);
  return {
    /** Completes the tasks, or reopens them when all are completed already; optimistic. */
    async toggle(chosen: readonly Row[]) {
      const completed = !chosen.every((r) => r.completed);
      const ids = new Set(chosen.map((r) => r.id));
      void queries.cancelQueries({ queryKey: key });
      queries.setQueryData<TaskItem[]>(key, (tasks) => tasks?.map((t) => (ids.has(t.id) ? { ...t, completed } : t)));
      const changed = chosen.filter((r) => r.completed !== completed);
      const apply = (value: boolean) => settled(() => Promise.all(changed.map((r) => setCompleted(r.id, value)))).then(() => undefined);
      const done = apply(completed);
      const what = chosen.length === 1 ? quote(chosen[0]!.text) : `${chosen.length} tasks`;
      history.record(
        { label: `${completed ? 'Complete' : 'Reopen'} ${what}`, undo: () => apply(!completed), redo: () => apply(completed) },
        done,
      );
      await done;
    },
    /**
     * Deletes the tasks with their subtasks (a chosen task inside another chosen one goes with it);
     * optimistic. @returns the history label, for the toast.
     */
    async remove(chosen: readonly Row[], rows: readonly Row[]): Promise<string> {
      const { groups, leaving } = deletionGroups(chosen, rows);
      void queries.cancelQueries({ queryKey: key });
      queries.setQueryData<TaskItem[]>(key, (tasks) => tasks?.filter((t) => !leaving.has(t.id)));
      const removeAll = () => settled(() => Promise.all(groups.map((g) => remove(g.kept[0]!.id)))).then(() => undefined);
      const done = removeAll();
      const label = `Delete ${groups.length === 1 ? quote(groups[0]!.kept[0]!.text) : `${groups.length} tasks`}`;
      const undo = () =>
        settled(async () => {
          for (const group of groups) await restore(group.kept, group.place);
        });
      history.record({ label, undo, redo: removeAll }, done);
      await done;
      return label;
    },
  };
}

/**
 * Every outline edit, undoable (docs "Web app", "Undo"): each one calls the public API (through
 * `./api`) and records, as it starts, how to take it back (an undo waits for the edit it takes
 * back). A deleted task comes back from the project's deleted tasks (`POST
 * .../trash/{id}/restore`): same id, place, subtasks, note, dates, assignees, field values and
 * comments. Should its entry be gone (purged, or restored from the Deleted tasks view and deleted
 * again meanwhile), it is made again as a new task with the same text, completion and subtasks;
 * later history entries still reach it through the history's aliases.
 */
export function useOutlineEdits(projectId: string) {
  const history = useUndoHistory();
  const queries = useQueryClient();
  const requests = editRequests(projectId, history);
  // The deleted tasks too: a delete adds to them, an undone delete takes from them.
  const settled: Settled = async (work) => {
    try {
      return await work();
    } finally {
      await refreshOutline(queries, projectId);
    }
  };
  return {
    history,
    ...singleEdits(history, requests, settled),
    ...groupEdits(queries, projectId, history, requests, settled),
  };
}

/** The outline's edits as {@link useOutlineEdits} returns them. */
export type OutlineEdits = ReturnType<typeof useOutlineEdits>;
