/** A task as the tasks list returns it (document order). */
export interface TaskItem {
  id: string;
  text: string;
  completed: boolean;
  parentId?: string;
}

/** One row of the outline: the task with its depth (0 for blocks). */
export interface Row extends TaskItem {
  depth: number;
}

/** Tasks in document order with their depth (a parent always comes before its children). */
export function toRows(tasks: readonly TaskItem[]): Row[] {
  const depth = new Map<string, number>();
  return tasks.map((t) => {
    const d = t.parentId === undefined ? 0 : (depth.get(t.parentId) ?? 0) + 1;
    depth.set(t.id, d);
    return { ...t, depth: d };
  });
}

/** The nearest earlier sibling of row `index` (same parent), or undefined when it is the first child. */
export function previousSibling(rows: readonly Row[], index: number): Row | undefined {
  const row = rows[index];
  if (!row) return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const other = rows[i]!;
    if (other.depth < row.depth) return undefined;
    if (other.depth === row.depth && other.parentId === row.parentId) return other;
  }
  return undefined;
}

/** The nearest later sibling of row `index` (same parent), or undefined when it is the last child. */
export function nextSibling(rows: readonly Row[], index: number): Row | undefined {
  const row = rows[index];
  if (!row) return undefined;
  for (let i = index + 1; i < rows.length; i++) {
    const other = rows[i]!;
    if (other.depth < row.depth) return undefined;
    if (other.depth === row.depth && other.parentId === row.parentId) return other;
  }
  return undefined;
}

/** Largest task text, in characters (Unicode code points), spec 4.1. */
export const MAX_TASK_CHARS = 2000;

/** Characters as the service counts them (code points, so an emoji is one). */
export function characters(text: string): number {
  return [...text].length;
}
