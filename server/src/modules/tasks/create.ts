import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { Outcome } from '../../platform/db/group-commit';
import { PROJECT_ACCESS_COLUMNS, projectAccessFromRow, projectAccessRow, type ProjectAccessRow } from '../../auth/access';
import type { Actor } from '../../auth/tokens';
import { badRequest, ServiceError } from '../../errors';
import { newTaskId } from '../../platform/ids';
import type { Services } from '../../services';
import { appendEventsAt, type AlongsideWrite, type NewEvent } from '../events/outbox';
import { keyBetween } from './rank';
import { bytewise, neighbour, slotAfter, slotBeside, treeRow, type NeighbourReader, type Slot, type TreeRow } from './tree';
import type { NewTask } from './schemas';
import { taskEvent, taskEventBase, toTask, type Task } from './records';

/**
 * Creating tasks (spec section 4.1), alone or as a batch of a group's writes (docs "Architecture",
 * "Group commit"): the creates that arrive together at one project are placed in memory from
 * shared reads and written with one multi-row INSERT of their tasks and one of their events, so a
 * group of creates costs a constant number of statements (on PostgreSQL, round trips) instead of
 * about five per create.
 */

/** One create request: what {@link createTaskBatch} takes per write. */
export interface CreateWrite {
  svc: Services;
  actor: Actor;
  projectId: string;
  /** Must match `createTasksBody.tasks` (schemas.ts): the route and the engine's adapter check it. */
  tasks: readonly NewTask[];
}

/** The columns of one task insert, in row order. */
const TASK_INSERT =
  'INSERT INTO tasks (id, project_id, parent_id, rank, path, text, content_type, created_by, created_at, updated_at) VALUES ';

/** Rows per multi-row task INSERT (10 parameters each: well under either store's limit). */
const TASK_BATCH_ROWS = 200;

/**
 * The first read of a batch for a project: the caller's access row ({@link projectAccessRow}) and
 * the rank of the project's last block, which every create at the end of the project needs, in one
 * statement (one round trip on PostgreSQL, in the project lane's critical path).
 */
const ACCESS_AND_LAST_BLOCK: Readonly<Record<Dialect, string>> = {
  sqlite: accessAndLastBlockText('sqlite'),
  postgres: accessAndLastBlockText('postgres'),
};

function accessAndLastBlockText(dialect: Dialect): string {
  const rank = bytewise(dialect, 'rank');
  return `SELECT ${PROJECT_ACCESS_COLUMNS},
          (SELECT rank FROM tasks WHERE project_id = p.id AND parent_id IS NULL ORDER BY ${rank} DESC LIMIT 1) AS "lastBlockRank"
     FROM projects p LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ?
    WHERE p.id = ?`;
}

/**
 * The access row of `userId` on `projectId` and, remembered by `tree`, the project's last block's
 * rank (see {@link ACCESS_AND_LAST_BLOCK}).
 */
function* accessAndLastBlock(q: Sql, tree: PlannedTree, userId: string, projectId: string): Query<ProjectAccessRow | undefined> {
  const row = yield* q.get<ProjectAccessRow & { lastBlockRank: string | null }>(ACCESS_AND_LAST_BLOCK[q.dialect], [userId, projectId]);
  if (row) tree.rememberLastBlock(row.lastBlockRank);
  return row;
}

/**
 * A project's tree as a batch sees it while placing tasks: the rows in the database (read once
 * each and remembered; nothing writes them until the batch has placed every task) plus the tasks
 * placed so far, which a batch writes only at its end. Every answer is the one the database would
 * give had each placed task already been inserted, so the tasks get the places (ranks and paths)
 * they would get written one by one.
 */
class PlannedTree {
  /** Database rows by id (undefined: not in the project). */
  private readonly stored = new Map<string, TreeRow | undefined>();
  /** Database answers of {@link neighbour}, by `parent|rank|direction`. */
  private readonly storedNeighbours = new Map<string, string | null>();
  /** Placed tasks by id. */
  private readonly placed = new Map<string, TreeRow>();
  /** Placed tasks in placing order (undone from the end by {@link rollback}). */
  private readonly log: TreeRow[] = [];
  /** Ranks of the placed tasks by parent (null: blocks), in placing order. */
  private readonly placedRanks = new Map<string | null, string[]>();
  /** The highest placed rank by parent: the answer to "the last child" without a scan. */
  private readonly placedLast = new Map<string | null, string>();

  /** The siblings around a rank, as {@link NeighbourReader}: the database's answer merged with the placed tasks. */
  readonly neighbours: NeighbourReader = (parentId, rank, direction) => this.neighbour(parentId, rank, direction);

  constructor(
    private readonly q: Sql,
    private readonly projectId: string,
  ) {}

  /** The task `id` of the project (placed or stored), or undefined. */
  *row(id: string): Query<TreeRow | undefined> {
    const placed = this.placed.get(id);
    if (placed) return placed;
    if (!this.stored.has(id)) this.stored.set(id, yield* treeRow(this.q, this.projectId, id));
    return this.stored.get(id);
  }

  /** Remembers the database's last block (its rank; null: the project has none), as {@link neighbour} would read it. */
  rememberLastBlock(rank: string | null): void {
    this.storedNeighbours.set(neighbourKey(null, null, 'prev'), rank);
  }

  /** Adds a placed task. */
  add(row: TreeRow): void {
    this.placed.set(row.id, row);
    this.log.push(row);
    const ranks = this.placedRanks.get(row.parent_id);
    if (ranks) ranks.push(row.rank);
    else this.placedRanks.set(row.parent_id, [row.rank]);
    const last = this.placedLast.get(row.parent_id);
    if (last === undefined || row.rank > last) this.placedLast.set(row.parent_id, row.rank);
  }

  /** How many tasks are placed: a mark to {@link rollback} to. */
  mark(): number {
    return this.log.length;
  }

  /** Forgets the tasks placed after `mark` (those of a write that was refused). */
  rollback(mark: number): void {
    while (this.log.length > mark) {
      const row = this.log.pop()!;
      this.placed.delete(row.id);
      const ranks = this.placedRanks.get(row.parent_id)!;
      ranks.pop();
      if (ranks.length === 0) this.placedLast.delete(row.parent_id);
      else
        this.placedLast.set(
          row.parent_id,
          ranks.reduce((a, b) => (b > a ? b : a)),
        );
    }
  }

  private *neighbour(parentId: string | null, rank: string | null, direction: 'next' | 'prev'): Query<string | null> {
    const key = neighbourKey(parentId, rank, direction);
    let best: string | null;
    if (this.storedNeighbours.has(key)) best = this.storedNeighbours.get(key)!;
    else {
      best = yield* neighbour(this.q, this.projectId, parentId, rank, direction);
      this.storedNeighbours.set(key, best);
    }
    // Ranks are ASCII (rank.ts), so JavaScript's comparison is the database's byte order.
    if (rank === null && direction === 'prev') {
      const last = this.placedLast.get(parentId);
      return last !== undefined && (best === null || last > best) ? last : best;
    }
    for (const placed of this.placedRanks.get(parentId) ?? []) {
      if (direction === 'prev') {
        if ((rank === null || placed < rank) && (best === null || placed > best)) best = placed;
      } else if ((rank === null || placed > rank) && (best === null || placed < best)) best = placed;
    }
    return best;
  }
}

/** The key of a remembered {@link neighbour} answer. */
function neighbourKey(parentId: string | null, rank: string | null, direction: 'next' | 'prev'): string {
  return `${parentId ?? ''}|${rank ?? ''}|${direction}`;
}

/** A task placed by {@link placeTasks}. */
interface PlacedTask {
  id: string;
  slot: Slot;
  input: NewTask;
}

/**
 * Places the tasks of one create request, in request order: a task without a reference at the end
 * of the project as a block; with one, at `placement` (default `afterend`) relative to it. Tasks of
 * one request that share a reference and a placement keep their request order: each after the
 * first goes right after the previous one. Each placed task is added to `tree`.
 * @throws ServiceError 400 for a reference task not in the project (field `tasks[i].taskId`,
 *   reason `not_found`); the tasks placed before it stay in `tree` (the caller rolls them back).
 */
function* placeTasks(tree: PlannedTree, inputs: readonly NewTask[]): Query<PlacedTask[]> {
  /** `reference position` → id of the last task this request put there. */
  const chained = new Map<string, string>();
  /** The previous task's place and slot: the next one at the same place goes right after it without a read. */
  let previous: { key: string; slot: Slot } | undefined;
  const placed: PlacedTask[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    const id = newTaskId();
    const reference = input.taskId ?? null;
    const key = reference === null ? '' : `${reference} ${input.placement ?? 'afterend'}`;
    let slot: Slot;
    if (previous?.key === key) slot = slotAfter(previous.slot);
    else if (reference === null) {
      // A block's path is its rank.
      const rank = keyBetween(yield* tree.neighbours(null, null, 'prev'), null);
      slot = { parentId: null, rank, path: rank, next: null };
    } else {
      const last = chained.get(key);
      const ref = yield* tree.row(last ?? reference);
      if (!ref) throw badRequest(`tasks[${i}].taskId`, 'not_found', `reference task '${reference}' is not in this project`);
      slot = yield* slotBeside(ref, last === undefined ? (input.placement ?? 'afterend') : 'afterend', tree.neighbours);
    }
    if (reference !== null) chained.set(key, id);
    previous = { key, slot };
    tree.add({ id, parent_id: slot.parentId, rank: slot.rank, path: slot.path });
    placed.push({ id, slot, input });
  }
  return placed;
}

/**
 * Runs many create requests at once, in order, on the open transaction `tx` (a group's batch;
 * platform/db/group-commit.ts `Batcher`): one access check per (caller, project), read with the
 * project's last block, the places of all tasks computed from shared reads, then one multi-row
 * INSERT of every task and one append of every `task.added` event (more past 200 tasks; on
 * PostgreSQL the two are one statement, which takes the outbox lock too). Each request gets what {@link createTasks} would have
 * given it run alone after the ones before it: the same places, responses and events, in request
 * order. A request refused by its checks (404, 403, 409 for the project; 400 for an unknown
 * reference task) is an outcome `{ ok: false }` and writes nothing; the others go on.
 * @returns one outcome per write, in order; a fulfilled one holds the created tasks (Task[]).
 * @throws whatever the database throws (the caller rolls the transaction back).
 */
export function* createTaskBatch(tx: Sql, writes: readonly CreateWrite[]): Query<Outcome[]> {
  const access = new Map<string, ProjectAccessRow | undefined>();
  const trees = new Map<string, PlannedTree>();
  const rows: unknown[][] = [];
  const events: { event: NewEvent; now: number }[] = [];
  const outcomes: Outcome[] = [];
  for (const { svc, actor, projectId, tasks } of writes) {
    let tree = trees.get(projectId);
    const firstForProject = !tree;
    if (!tree) trees.set(projectId, (tree = new PlannedTree(tx, projectId)));
    const mark = tree.mark();
    try {
      const accessKey = `${actor.userId} ${projectId}`;
      if (!access.has(accessKey))
        access.set(
          accessKey,
          firstForProject
            ? yield* accessAndLastBlock(tx, tree, actor.userId, projectId)
            : yield* projectAccessRow(tx, actor.userId, projectId),
        );
      const project = projectAccessFromRow(access.get(accessKey), projectId, 'Participant', { mutation: true, action: 'creating tasks' });
      const now = svc.clock.now();
      const created: Task[] = [];
      for (const { id, slot, input } of yield* placeTasks(tree, tasks)) {
        rows.push([id, projectId, slot.parentId, slot.rank, slot.path, input.content, input.contentType, actor.userId, now, now]);
        const task = toTask({ id, parentId: slot.parentId, text: input.content, completed: 0, path: slot.path });
        const payload = {
          ...taskEventBase(svc, project, task),
          ...(task.parentId ? { parentId: task.parentId } : {}),
          assignees: [],
          createdBy: actor.handle,
        };
        events.push({ event: taskEvent(actor, project, 'task.added', payload), now });
        created.push(task);
      }
      outcomes.push({ ok: true, value: created });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      tree.rollback(mark);
      outcomes.push({ ok: false, error });
    }
  }
  // The last chunk of tasks goes with the events: one statement on PostgreSQL.
  let last: AlongsideWrite | undefined;
  for (let start = 0; start < rows.length; start += TASK_BATCH_ROWS) {
    if (last) yield* tx.run(last.text, last.params);
    const chunk = rows.slice(start, start + TASK_BATCH_ROWS);
    last = { text: TASK_INSERT + chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', '), params: chunk.flat() };
  }
  yield* appendEventsAt(tx, events, last);
  return outcomes;
}

/**
 * Creates tasks in request order, all or nothing (Participant): see {@link placeTasks} for where
 * they go. Raises `task.added` for each task. `inputs` must match `createTasksBody` (schemas.ts):
 * the route and the engine's adapter validate it before the call.
 * @returns the created tasks, in request order.
 * @throws ServiceError 400 for a reference task not in the project (field `tasks[i].taskId`,
 *   reason `not_found`); 404, 403, 409 as for every task write.
 */
export function createTasks(
  svc: Services,
  actor: Actor,
  projectId: string,
  inputs: readonly NewTask[],
  q: Sql = svc.store.sql,
): Query<Task[]> {
  return q.transaction(function* (tx) {
    const [outcome] = yield* createTaskBatch(tx, [{ svc, actor, projectId, tasks: inputs }]);
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.value as Task[];
  });
}

/**
 * {@link createTasks} as a write of the project's next group (`svc.writes`), which runs it in a
 * batch with the other creates of the group.
 * @returns (resolves to) the created tasks once their group has committed.
 * @throws (rejects with) the errors of {@link createTasks}.
 */
export function queueCreateTasks(svc: Services, actor: Actor, projectId: string, inputs: readonly NewTask[]): Promise<Task[]> {
  return svc.writes.run((q) => createTasks(svc, actor, projectId, inputs, q), projectId, {
    batcher: createTaskBatch,
    input: { svc, actor, projectId, tasks: inputs },
  });
}
