import type { Db } from '../../platform/db/connection';
import { sql } from '../../platform/db/statements';
import { badRequest } from '../../errors';
import { keyBetween } from './rank';

/**
 * Where tasks sit in a project's tree (spec section 4.1 placement and move positions).
 * Each task has a `rank` among its siblings and a `path`: its ancestors' ranks and its own,
 * joined by '.', so `ORDER BY path` lists a project in document (pre-)order and a subtree
 * is every path that starts with the root's path plus '.'.
 */

/** The four DOM insertion positions relative to a reference task. */
export const POSITIONS = ['beforebegin', 'afterbegin', 'beforeend', 'afterend'] as const;
export type Position = (typeof POSITIONS)[number];

/** Separator between path segments; sorts below every rank digit. */
export const PATH_SEPARATOR = '.';

/**
 * The smallest string above every path in the subtree rooted at `path`: `path` with '/' (the
 * character after {@link PATH_SEPARATOR}, and below every rank digit) appended. So the subtree
 * is exactly `path >= root AND path < subtreeEnd(root)`, one range of the (project_id, path) index.
 */
export function subtreeEnd(path: string): string {
  return path + '/';
}

/** A computed slot for a new or moved task. */
export interface Slot {
  parentId: string | null;
  rank: string;
  path: string;
  /** Rank of the sibling right after the slot when it was computed; null at the end of its siblings. */
  next: string | null;
}

interface TreeRow {
  id: string;
  parent_id: string | null;
  rank: string;
  path: string;
}

function treeRow(db: Db, projectId: string, taskId: string): TreeRow | undefined {
  return sql<[string, string], TreeRow>(db, 'SELECT id, parent_id, rank, path FROM tasks WHERE project_id = ? AND id = ?').get(projectId, taskId);
}

function parentPath(db: Db, projectId: string, parentId: string | null): string {
  if (parentId === null) return '';
  return treeRow(db, projectId, parentId)!.path + PATH_SEPARATOR;
}

function neighbour(db: Db, projectId: string, parentId: string | null, rank: string | null, direction: 'next' | 'prev'): string | null {
  const op = direction === 'next' ? '>' : '<';
  const order = direction === 'next' ? 'ASC' : 'DESC';
  const parentClause = parentId === null ? 'parent_id IS NULL' : 'parent_id = ?';
  const rankClause = rank === null ? '' : ` AND rank ${op} ?`;
  const args: unknown[] = [projectId];
  if (parentId !== null) args.push(parentId);
  if (rank !== null) args.push(rank);
  const row = sql<unknown[], { rank: string }>(
    db,
    `SELECT rank FROM tasks WHERE project_id = ? AND ${parentClause}${rankClause} ORDER BY rank ${order} LIMIT 1`,
  ).get(...args);
  return row?.rank ?? null;
}

/** The slot after the last child of `parentId` (null: the last top-level block). */
export function slotAtEnd(db: Db, projectId: string, parentId: string | null): Slot {
  const last = neighbour(db, projectId, parentId, null, 'prev');
  const rank = keyBetween(last, null);
  return { parentId, rank, path: parentPath(db, projectId, parentId) + rank, next: null };
}

/**
 * The slot right after a task just put in `slot`, with no write in between other than that task's
 * insert: a run of tasks one request puts at the same place. Reads nothing.
 */
export function slotAfter(slot: Slot): Slot {
  const rank = keyBetween(slot.rank, slot.next);
  return { parentId: slot.parentId, rank, path: slot.path.slice(0, slot.path.length - slot.rank.length) + rank, next: slot.next };
}

/**
 * The slot for a task placed at `position` relative to `referenceId`, or at the end of the
 * project when there is no reference.
 * @throws ServiceError 400 when the reference task is not in the project.
 */
export function slotFor(db: Db, projectId: string, referenceId: string | undefined, position: Position, field = 'taskId'): Slot {
  if (referenceId === undefined) return slotAtEnd(db, projectId, null);
  const ref = treeRow(db, projectId, referenceId);
  if (!ref) throw badRequest(field, 'not_found', `reference task '${referenceId}' is not in this project`);
  return slotBeside(db, projectId, ref, position);
}

/** The slot at `position` relative to the loaded reference row `ref`. */
function slotBeside(db: Db, projectId: string, ref: TreeRow, position: Position): Slot {
  // A path is the parent's path, PATH_SEPARATOR, then the task's rank (or just the rank for a
  // block), so both possible parents' path prefixes follow from `ref.path`.
  const siblingPrefix = ref.path.slice(0, ref.path.length - ref.rank.length);
  const childPrefix = ref.path + PATH_SEPARATOR;
  let parentId: string | null;
  let lower: string | null;
  let upper: string | null;
  let prefix: string;
  switch (position) {
    case 'beforebegin':
      parentId = ref.parent_id;
      lower = neighbour(db, projectId, parentId, ref.rank, 'prev');
      upper = ref.rank;
      prefix = siblingPrefix;
      break;
    case 'afterend':
      parentId = ref.parent_id;
      lower = ref.rank;
      upper = neighbour(db, projectId, parentId, ref.rank, 'next');
      prefix = siblingPrefix;
      break;
    case 'afterbegin':
      parentId = ref.id;
      lower = null;
      upper = neighbour(db, projectId, parentId, null, 'next');
      prefix = childPrefix;
      break;
    case 'beforeend':
      parentId = ref.id;
      lower = neighbour(db, projectId, parentId, null, 'prev');
      upper = null;
      prefix = childPrefix;
      break;
  }
  const rank = keyBetween(lower, upper);
  return { parentId, rank, path: prefix + rank, next: upper };
}

/**
 * Moves a task (with its subtree) to `position` relative to `referenceId`. Call inside a
 * transaction, with the task as loaded by the caller's access check (`requireTask`).
 * @throws ServiceError 400 for an unknown reference or a move into its own subtree.
 */
export function moveSubtree(db: Db, projectId: string, task: { id: string; path: string }, referenceId: string, position: Position): Slot {
  const ref = treeRow(db, projectId, referenceId);
  if (!ref) throw badRequest('target.taskId', 'not_found', `reference task '${referenceId}' is not in this project`);
  if (ref.id === task.id || ref.path.startsWith(task.path + PATH_SEPARATOR)) {
    throw badRequest('target.taskId', 'inside_moved_task', 'a task cannot be moved relative to itself or into its own subtree');
  }
  const slot = slotBeside(db, projectId, ref, position);
  const oldPrefix = task.path;
  // Rewrite the subtree's paths: the moved task's own, then every descendant's prefix.
  sql(db, 'UPDATE tasks SET parent_id = ?, rank = ?, path = ? WHERE id = ?').run(slot.parentId, slot.rank, slot.path, task.id);
  // The descendants are one range of the (project_id, path) index: (old + '.', old + '/').
  sql(
    db,
    `UPDATE tasks SET path = ? || substr(path, ?) WHERE project_id = ? AND path > ? AND path < ?`,
  ).run(slot.path, oldPrefix.length + 1, projectId, oldPrefix + PATH_SEPARATOR, subtreeEnd(oldPrefix));
  return slot;
}
