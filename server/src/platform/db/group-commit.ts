import { isConnectionLost, isStorageFull } from '../../errors';
import { isRetryableConflict, runSync, type Query, type Sql } from './query';
import type { Store } from './store';

/** One write waiting for its group. */
interface PendingWrite {
  op: (q: Sql) => Query<unknown>;
  /** The write as a batch item, when its kind can run many at once (see {@link Batcher}). */
  batch?: Batched<unknown> | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What one write of a group came to. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * A kind of write that a group runs many of at once (docs "Architecture", "Group commit"): given
 * the inputs of consecutive writes of this kind, in group order, it runs them all on the group's
 * transaction handle, with as few statements as it can (one read shared by many writes,
 * multi-row INSERTs), and returns each write's outcome in the same order. A write refused by its
 * own checks must come back as `{ ok: false }` having written nothing, without disturbing the
 * others; the value of `{ ok: true }` is what the write's promise resolves to. A throw fails
 * the batch as a whole: the group's transaction is rolled back and, when the error may be one
 * write's doing (a statement refused for its data, or the batcher's own error), the group runs
 * again with a savepoint per write (each write's own `op`), so no write fails because of another;
 * a lost connection or a full disk fails the group's writes with it, as without batches.
 */
export type Batcher<I> = (tx: Sql, inputs: readonly I[]) => Query<Outcome[]>;

/** A write's input for its {@link Batcher}: writes with the same batcher next to each other in a group run as one batch. */
export interface Batched<I> {
  batcher: Batcher<I>;
  input: I;
}

/** Thrown out of a group's transaction when a batch failed as a whole: the group runs again write by write. */
class BatchFailed extends Error {
  constructor(cause: unknown) {
    super('a batch of grouped writes failed', { cause });
  }
}

/**
 * Group commit (docs "Architecture", "Group commit"): on the embedded SQLite store, writes that
 * arrive together share one transaction, so their commit (the WAL frames of every page they
 * touch, and the lock) is paid once per group instead of once per write.
 *
 * {@link run} queues a write (an operation factory, typically a service function that opens its
 * own transaction on the handle it is given); on the next turn of the event loop every queued
 * write runs, synchronously (`runSync`) on the store's handle, each in its own savepoint inside
 * one `BEGIN IMMEDIATE … COMMIT`. A write that throws rolls back to its savepoint alone and its
 * promise rejects with that error; the others commit. Each promise settles only after the
 * COMMIT, so a caller that answers after awaiting it acknowledges nothing that a crash (kill -9)
 * could take back. The whole group runs synchronously between BEGIN and COMMIT, so nothing else
 * (no reader, no background worker) ever sees a group's uncommitted rows.
 *
 * On PostgreSQL writes are grouped by lane (the route's project id): a lane runs one group at a
 * time, in one transaction with a savepoint per write, and the writes that arrive meanwhile form
 * its next group; lanes run concurrently on the pool's connections, and a write without a lane
 * runs in a transaction of its own. Concurrent serializable transactions on one project would
 * mostly abort each other (they read the last sibling's rank and bump the same version row),
 * faster than their retries could succeed; grouped, one round of transaction overhead serves many.
 * Across processes (each has its own lanes) a lane's transaction first takes a transaction-level
 * advisory lock on its lane ({@link laneLockKey}) and runs at READ COMMITTED, as the inbound
 * intake does: the groups of one project take turns over every process, and each statement after
 * the lock sees what the previous holder committed, so they queue instead of aborting each other
 * (which, past the last retry, answered 503 BUSY).
 * A promise settles after its group's COMMIT, as on SQLite.
 *
 * On both stores, consecutive writes of a group that share a {@link Batcher} (the task creates)
 * run as one batch instead of a savepoint each: a constant number of statements per batch.
 *
 * One instance per store, owned by the app's services (`Services.writes`).
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  /** PostgreSQL: the writes waiting in each busy lane (a lane is here while it has work). */
  private readonly lanes = new Map<string, PendingWrite[]>();

  /**
   * @param store the app's store; its dialect chooses grouping (SQLite) or one transaction per write (PostgreSQL).
   * @param maxGroup most writes in one SQLite transaction (default 256); more wait for the next group.
   */
  constructor(
    private readonly store: Store,
    private readonly maxGroup = 256,
  ) {}

  /**
   * Runs the operation `op` builds on the handle it is given, inside a transaction, and resolves
   * to its result once that transaction has committed: on SQLite in the next group (`op` runs in
   * the group's savepoint and must not wait on anything), on PostgreSQL in its lane's next group
   * (retried from the start on a serialization failure, so `op` may run more than once).
   * @param lane on PostgreSQL, the group the write joins (the route's project id: writes to one
   *   project conflict, they read and bump the same rows); without one, a transaction of its own.
   *   Ignored on SQLite, where all writes share the next group.
   * @param batch the same write as the input of a {@link Batcher}: consecutive writes of a group
   *   with the same batcher run as one batch (falling back to `op` each, in a savepoint, when the
   *   batch fails as a whole). `op` and the batch must do the same thing and answer alike.
   * @throws (rejects with) whatever the operation throws (its writes rolled back), or the commit's
   *   error for every write of a group whose COMMIT failed; on SQLite an AsyncQueryError (a
   *   TypeError) when the operation waits on a promise.
   */
  run<T, I = never>(op: (q: Sql) => Query<T>, lane?: string, batch?: Batched<I>): Promise<T> {
    const asBatch = batch as Batched<unknown> | undefined;
    if (this.store.dialect === 'postgres') return lane === undefined ? this.runAlone(op) : this.runInLane(lane, op, asBatch);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, batch: asBatch, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** PostgreSQL: `op` in a transaction of its own. */
  private runAlone<T>(op: (q: Sql) => Query<T>): Promise<T> {
    return this.store.run(this.store.sql.transaction(op));
  }

  /**
   * PostgreSQL: `op` in the lane's next group. A lane runs one group at a time; the writes that
   * arrive meanwhile wait and then share one transaction, each in its own savepoint.
   */
  private runInLane<T>(lane: string, op: (q: Sql) => Query<T>, batch: Batched<unknown> | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const write: PendingWrite = { op, batch, resolve: resolve as (value: unknown) => void, reject };
      const queue = this.lanes.get(lane);
      if (queue) {
        queue.push(write);
        return;
      }
      this.lanes.set(lane, [write]);
      // Like SQLite's groups, the first one collects what arrives in the same turn of the event loop.
      setImmediate(() => void this.drainLane(lane));
    });
  }

  /** Runs the lane's queued writes group by group until none is left, then forgets the lane. */
  private async drainLane(lane: string): Promise<void> {
    const queue = this.lanes.get(lane)!;
    while (queue.length > 0) {
      const group = queue.splice(0, this.maxGroup);
      let outcomes: Outcome[];
      try {
        try {
          outcomes = await this.runLaneGroup(lane, group, true);
        } catch (error) {
          if (!(error instanceof BatchFailed)) throw error;
          outcomes = await this.runLaneGroup(lane, group, false);
        }
      } catch (error) {
        for (const write of group) write.reject(error);
        continue;
      }
      settle(group, outcomes);
    }
    this.lanes.delete(lane);
  }

  /** One group of a lane in one transaction; `batching`: run consecutive writes of one batcher as a batch. */
  private runLaneGroup(lane: string, group: readonly PendingWrite[], batching: boolean): Promise<Outcome[]> {
    return this.store.run(
      // Every process's writes to this lane take turns (the lane's lock, sent with BEGIN); the
      // statements after the lock see what the previous holder committed (READ COMMITTED).
      this.store.sql.transaction((tx) => attemptEach(tx, group, batching), { isolation: 'read committed', lock: laneLockKey(lane) }),
    );
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const group = this.pending.splice(0, this.maxGroup);
    if (this.pending.length > 0) this.schedule();
    let outcomes: Outcome[];
    try {
      try {
        outcomes = runSync(this.store.sql.transaction((tx) => attemptAll(tx, group, true)));
      } catch (error) {
        if (!(error instanceof BatchFailed)) throw error;
        outcomes = runSync(this.store.sql.transaction((tx) => attemptAll(tx, group, false)));
      }
    } catch (error) {
      for (const write of group) write.reject(error);
      return;
    }
    settle(group, outcomes);
  }
}

/**
 * The text whose hash keys the advisory lock of a lane (PostgreSQL): `lane:<project id>`. Any
 * transaction that must take its turn with a project's grouped writes takes the same lock.
 */
export function laneLockKey(lane: string): string {
  return `lane:${lane}`;
}

/** Settles each write's promise with its outcome. */
function settle(group: readonly PendingWrite[], outcomes: readonly Outcome[]): void {
  group.forEach((write, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) write.resolve(outcome.value);
    else write.reject(outcome.error);
  });
}

/**
 * The end of the run of writes starting at `start` that share one batcher (`start + 1` for a
 * write without one, or when not `batching`).
 */
function batchEnd(group: readonly PendingWrite[], start: number, batching: boolean): number {
  const batcher = group[start]!.batch?.batcher;
  let end = start + 1;
  if (!batching || batcher === undefined) return end;
  while (end < group.length && group[end]!.batch?.batcher === batcher) end++;
  return end;
}

/**
 * Runs `writes`, consecutive writes of a group that share a batcher, as one batch.
 * @throws {@link BatchFailed} when the batch fails as a whole (a serialization failure or
 *   deadlock is thrown as it is: the whole transaction runs again).
 */
function* attemptBatch(tx: Sql, writes: readonly PendingWrite[]): Query<Outcome[]> {
  const batch = writes[0]!.batch!;
  try {
    const outcomes = yield* batch.batcher(
      tx,
      writes.map((w) => w.batch!.input),
    );
    if (outcomes.length !== writes.length) throw new Error(`a batcher answered ${outcomes.length} outcomes for ${writes.length} writes`);
    return outcomes;
  } catch (error) {
    if (isRetryableConflict(error) || !isWriteSpecific(error)) throw error;
    throw new BatchFailed(error);
  }
}

/**
 * Whether a batch's failure may be one write's doing, so that the group should run again write by
 * write: a statement refused for its data (PostgreSQL classes 22, 23, 42 and 54: a value the column
 * cannot hold, a constraint, a statement too large; SQLite's constraint, mismatch, size and
 * generic errors) or an error of the batcher's own code (no database code). A lost connection, a
 * full disk or a cancelled statement fails every write of the group alike: running it again
 * would wait or fail again, so the group fails with it as it did without batches.
 */
function isWriteSpecific(error: unknown): boolean {
  if (isConnectionLost(error) || isStorageFull(error)) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === undefined) return true;
  return (
    typeof code === 'string' && (/^(22|23|42|54)[0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE|ERROR)/.test(code))
  );
}

/**
 * PostgreSQL: runs each write of a group in its own savepoint of the group's transaction; one that
 * throws is rolled back alone and recorded as failed. With `batching`, consecutive writes of one
 * batcher run as one batch instead (see {@link Batcher}). A serialization failure or deadlock is
 * not a write's own failure: it aborts the whole transaction, which runs again from the start.
 */
function* attemptEach(tx: Sql, group: readonly PendingWrite[], batching: boolean): Query<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let start = 0; start < group.length; ) {
    const end = batchEnd(group, start, batching);
    if (group[start]!.batch !== undefined && batching) {
      outcomes.push(...(yield* attemptBatch(tx, group.slice(start, end))));
      start = end;
      continue;
    }
    const write = group[start++]!;
    try {
      outcomes.push({ ok: true, value: yield* tx.transaction(write.op) });
    } catch (error) {
      if (isRetryableConflict(error)) throw error;
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}

/**
 * Runs each write of a group in its own savepoint (a nested transaction on `tx`), each with its
 * own `runSync`: one that throws, or waits on a promise, is rolled back alone and recorded as
 * failed, and the next one runs. With `batching`, consecutive writes of one batcher run as one
 * batch instead (see {@link Batcher}).
 */
// The group never yields: every write runs to its end synchronously.
// eslint-disable-next-line require-yield
function* attemptAll(tx: Sql, group: readonly PendingWrite[], batching: boolean): Query<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let start = 0; start < group.length; ) {
    const end = batchEnd(group, start, batching);
    if (group[start]!.batch !== undefined && batching) {
      try {
        outcomes.push(...runSync(attemptBatch(tx, group.slice(start, end))));
      } catch (error) {
        // A batch that waited on a promise (AsyncQueryError, a TypeError without a code) fails as a whole too.
        throw error instanceof BatchFailed || !isWriteSpecific(error) ? error : new BatchFailed(error);
      }
      start = end;
      continue;
    }
    const write = group[start++]!;
    try {
      outcomes.push({ ok: true, value: runSync(tx.transaction(write.op)) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
