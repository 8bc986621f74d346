import type { Dialect, Query, Sql } from '../../platform/db/query';
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

/**
 * `column` (a `rank` or `path` column, possibly qualified) as SQL that compares and orders by
 * byte order, as every WHERE comparison and ORDER BY of ranks and paths must: SQLite's default
 * BINARY collation already does; on PostgreSQL text follows the database's collation, so the
 * column is given the "C" collation there (the one the schema declares it with, so the
 * (project_id, path) and (parent_id, project_id, rank) indexes still serve).
 */
export function bytewise(dialect: Dialect, column: string): string {
  return dialect === 'postgres' ? `${column} COLLATE "C"` : column;
}

/** A computed slot for a new or moved task. */
export interface Slot {
  parentId: string | null;
  rank: string;
  path: string;
  /** Rank of the sibling right after the slot when it was computed; null at the end of its siblings. */
  next: string | null;
}

/** A task's place in its project's tree, as {@link slotBeside} reads it. */
export interface TreeRow {
  id: string;
  parent_id: string | null;
  rank: string;
  path: string;
}

/**
 * The rank of the sibling right after (`next`) or before (`prev`) `rank` among the children of
 * `parentId` (null parent: the blocks; null rank: the first or last child), or null when there is none.
 */
export type NeighbourReader = (parentId: string | null, rank: string | null, direction: 'next' | 'prev') => Query<string | null>;

/** The task `taskId` of `projectId` with its place in the tree, or undefined. */
export function treeRow(q: Sql, projectId: string, taskId: string): Query<TreeRow | undefined> {
  return q.get<TreeRow>('SELECT id, parent_id, rank, path FROM tasks WHERE project_id = ? AND id = ?', [projectId, taskId]);
}

/** The path prefix of the children of `parentId`: its path and {@link PATH_SEPARATOR}. */
function* parentPath(q: Sql, projectId: string, parentId: string): Query<string> {
  return (yield* treeRow(q, projectId, parentId))!.path + PATH_SEPARATOR;
}

/**
 * The texts of {@link neighbour}'s query for one dialect, indexed by
 * `(direction === 'next' ? 4 : 0) + (parentId === null ? 2 : 0) + (rank === null ? 1 : 0)`:
 * built once, so the hot path (appending a task) builds no SQL.
 */
function neighbourTexts(dialect: Dialect): readonly string[] {
  const rank = bytewise(dialect, 'rank');
  const texts: string[] = [];
  for (const direction of ['prev', 'next'] as const) {
    for (const parentClause of ['parent_id = ?', 'parent_id IS NULL']) {
      for (const rankClause of [` AND ${rank} ${direction === 'next' ? '>' : '<'} ?`, '']) {
        texts.push(
          `SELECT rank FROM tasks WHERE project_id = ? AND ${parentClause}${rankClause} ORDER BY ${rank} ${direction === 'next' ? 'ASC' : 'DESC'} LIMIT 1`,
        );
      }
    }
  }
  return texts;
}

const NEIGHBOUR_SQL: Readonly<Record<Dialect, readonly string[]>> = {
  sqlite: neighbourTexts('sqlite'),
  postgres: neighbourTexts('postgres'),
};

/** The rank of the sibling right after (`next`) or before (`prev`) `rank` among the children of `parentId` (null: first/last). */
export function* neighbour(
  q: Sql,
  projectId: string,
  parentId: string | null,
  rank: string | null,
  direction: 'next' | 'prev',
): Query<string | null> {
  const text = NEIGHBOUR_SQL[q.dialect][(direction === 'next' ? 4 : 0) + (parentId === null ? 2 : 0) + (rank === null ? 1 : 0)]!;
  const args: unknown[] = [projectId];
  if (parentId !== null) args.push(parentId);
  if (rank !== null) args.push(rank);
  const row = yield* q.get<{ rank: string }>(text, args);
  return row?.rank ?? null;
}

/** The slot after the last child of `parentId` (null: the last top-level block). */
export function* slotAtEnd(q: Sql, projectId: string, parentId: string | null): Query<Slot> {
  const last = yield* neighbour(q, projectId, parentId, null, 'prev');
  const rank = keyBetween(last, null);
  // A block's path is its rank: the append hot path reads nothing more.
  return { parentId, rank, path: parentId === null ? rank : (yield* parentPath(q, projectId, parentId)) + rank, next: null };
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
export function* slotFor(q: Sql, projectId: string, referenceId: string | undefined, position: Position, field = 'taskId'): Query<Slot> {
  if (referenceId === undefined) return yield* slotAtEnd(q, projectId, null);
  const ref = yield* treeRow(q, projectId, referenceId);
  if (!ref) throw badRequest(field, 'not_found', `reference task '${referenceId}' is not in this project`);
  return yield* slotBeside(ref, position, (parentId, rank, direction) => neighbour(q, projectId, parentId, rank, direction));
}

/**
 * The slot at `position` relative to the loaded reference row `ref`, reading the siblings around
 * it with `neighbour` (the database, or the database and the tasks a batch has placed before
 * writing them: modules/tasks/create.ts).
 */
export function* slotBeside(ref: TreeRow, position: Position, neighbour: NeighbourReader): Query<Slot> {
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
      lower = yield* neighbour(parentId, ref.rank, 'prev');
      upper = ref.rank;
      prefix = siblingPrefix;
      break;
    case 'afterend':
      parentId = ref.parent_id;
      lower = ref.rank;
      upper = yield* neighbour(parentId, ref.rank, 'next');
      prefix = siblingPrefix;
      break;
    case 'afterbegin':
      parentId = ref.id;
      lower = null;
      upper = yield* neighbour(parentId, null, 'next');
      prefix = childPrefix;
      break;
    case 'beforeend':
      parentId = ref.id;
      lower = yield* neighbour(parentId, null, 'prev');
      upper = null;
      prefix = childPrefix;
      break;
  }
  const rank = keyBetween(lower, upper);
  return { parentId, rank, path: prefix + rank, next: upper };
}

/** The statement of {@link moveSubtree} rewriting the descendants' paths, per dialect. */
const MOVE_DESCENDANTS_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: moveDescendantsText('sqlite'),
  postgres: moveDescendantsText('postgres'),
};

function moveDescendantsText(dialect: Dialect): string {
  const path = bytewise(dialect, 'path');
  return `UPDATE tasks SET path = ? || substr(path, ?) WHERE project_id = ? AND ${path} > ? AND ${path} < ?`;
}

/**
 * Moves a task (with its subtree) to `position` relative to `referenceId`. Call inside a
 * transaction (with its handle), with the task as loaded by the caller's access check (`requireTask`).
 * @returns the task's new slot.
 * @throws ServiceError 400 for an unknown reference or a move into its own subtree.
 */
export function* moveSubtree(
  q: Sql,
  projectId: string,
  task: { id: string; path: string },
  referenceId: string,
  position: Position,
): Query<Slot> {
  const ref = yield* treeRow(q, projectId, referenceId);
  if (!ref) throw badRequest('target.taskId', 'not_found', `reference task '${referenceId}' is not in this project`);
  if (ref.id === task.id || ref.path.startsWith(task.path + PATH_SEPARATOR)) {
    throw badRequest('target.taskId', 'inside_moved_task', 'a task cannot be moved relative to itself or into its own subtree');
  }
  const slot = yield* slotBeside(ref, position, (parentId, rank, direction) => neighbour(q, projectId, parentId, rank, direction));
  const oldPrefix = task.path;
  // Rewrite the subtree's paths: the moved task's own, then every descendant's prefix.
  yield* q.run('UPDATE tasks SET parent_id = ?, rank = ?, path = ? WHERE id = ?', [slot.parentId, slot.rank, slot.path, task.id]);
  // The descendants are one range of the (project_id, path) index: (old + '.', old + '/').
  yield* q.run(MOVE_DESCENDANTS_SQL[q.dialect], [
    slot.path,
    oldPrefix.length + 1,
    projectId,
    oldPrefix + PATH_SEPARATOR,
    subtreeEnd(oldPrefix),
  ]);
  return slot;
}
