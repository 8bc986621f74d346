import type { paths } from '../api/schema';

/** A task as the tasks list returns it (document order): the fields the outline uses. */
export type TaskItem = Pick<
  paths['/api/v1/projects/{projectId}/tasks']['get']['responses'][200]['content']['application/json']['items'][number],
  'id' | 'text' | 'completed' | 'parentId'
>;

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

/** Where a task sits, as a create or move target: relative to `taskId`, or (no `taskId`) at the end of the project. */
export interface Place {
  taskId?: string;
  position: 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';
}

/** The index just past the subtree of row `index` (its last descendant + 1). */
export function subtreeEnd(rows: readonly Row[], index: number): number {
  const depth = rows[index]!.depth;
  let end = index + 1;
  while (end < rows.length && rows[end]!.depth > depth) end++;
  return end;
}

/**
 * Where row `index` sits, said relative to a task that stays: after its previous sibling, else
 * first in its parent, else before the first next sibling not in `leaving`, else at the end.
 */
export function placeOf(rows: readonly Row[], index: number, leaving: ReadonlySet<string> = new Set()): Place {
  const row = rows[index]!;
  const before = previousSibling(rows, index);
  if (before) return { taskId: before.id, position: 'afterend' };
  if (row.parentId) return { taskId: row.parentId, position: 'afterbegin' };
  for (let i = subtreeEnd(rows, index); i < rows.length; i++) {
    const other = rows[i]!;
    if (other.depth === 0 && !leaving.has(other.id)) return { taskId: other.id, position: 'beforebegin' };
  }
  return { position: 'beforeend' };
}

/** Ids of the rows that have children. */
export function parents(rows: readonly Row[]): Set<string> {
  const ids = new Set<string>();
  for (const row of rows) if (row.parentId) ids.add(row.parentId);
  return ids;
}

/**
 * The rows to show: without `matches`, every row not inside a collapsed task; with `matches` (a
 * search or filter), the matching rows and their ancestors, whatever is collapsed.
 */
export function visibleRows(rows: readonly Row[], collapsed: ReadonlySet<string>, matches?: ReadonlySet<string>): Row[] {
  if (matches) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keep = new Set<string>();
    for (const id of matches) {
      for (let at = byId.get(id); at && !keep.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) keep.add(at.id);
    }
    return rows.filter((r) => keep.has(r.id));
  }
  if (collapsed.size === 0) return rows as Row[];
  const shown: Row[] = [];
  let hideBelow = Infinity;
  for (const row of rows) {
    if (row.depth > hideBelow) continue;
    hideBelow = Infinity;
    shown.push(row);
    if (collapsed.has(row.id)) hideBelow = row.depth;
  }
  return shown;
}
