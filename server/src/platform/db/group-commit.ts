import { isRetryableConflict, runSync, type Query, type Sql } from './query';
import type { Store } from './store';

/** One write waiting for its group. */
interface PendingWrite {
  op: (q: Sql) => Query<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What one write of a group came to. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

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
   * @throws (rejects with) whatever the operation throws (its writes rolled back), or the commit's
   *   error for every write of a group whose COMMIT failed; on SQLite an AsyncQueryError (a
   *   TypeError) when the operation waits on a promise.
   */
  run<T>(op: (q: Sql) => Query<T>, lane?: string): Promise<T> {
    if (this.store.dialect === 'postgres') return lane === undefined ? this.runAlone(op) : this.runInLane(lane, op);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, resolve: resolve as (value: unknown) => void, reject });
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
  private runInLane<T>(lane: string, op: (q: Sql) => Query<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const write: PendingWrite = { op, resolve: resolve as (value: unknown) => void, reject };
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
        outcomes = await this.store.run(
          // Every process's writes to this lane take turns (the lane's lock, sent with BEGIN); the
          // statements after the lock see what the previous holder committed (READ COMMITTED).
          this.store.sql.transaction((tx) => attemptEach(tx, group), { isolation: 'read committed', lock: laneLockKey(lane) }),
        );
      } catch (error) {
        for (const write of group) write.reject(error);
        continue;
      }
      settle(group, outcomes);
    }
    this.lanes.delete(lane);
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
      outcomes = runSync(this.store.sql.transaction((tx) => attemptAll(tx, group)));
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
 * PostgreSQL: runs each write of a group in its own savepoint of the group's transaction; one that
 * throws is rolled back alone and recorded as failed. A serialization failure or deadlock is not a
 * write's own failure: it aborts the whole transaction, which runs again from the start.
 */
function* attemptEach(tx: Sql, group: readonly PendingWrite[]): Query<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const write of group) {
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
 * failed, and the next one runs.
 */
// The group never yields: every write runs to its end synchronously.
// eslint-disable-next-line require-yield
function* attemptAll(tx: Sql, group: readonly PendingWrite[]): Query<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const write of group) {
    try {
      outcomes.push({ ok: true, value: runSync(tx.transaction(write.op)) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
