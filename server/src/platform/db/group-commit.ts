import { runSync, type Query, type Sql } from './query';
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
 * On PostgreSQL there is no grouping: each write runs in a transaction of its own
 * (`store.run(store.sql.transaction(op))`) and its promise settles after that transaction's
 * COMMIT; the pool's connections give the concurrency. Only writes of one lane (one project) wait
 * for each other, in this process: concurrent serializable transactions on one project would
 * mostly abort each other, faster than their retries could succeed.
 *
 * One instance per store, owned by the app's services (`Services.writes`).
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  /** PostgreSQL: per lane, a promise settled when the lane's last queued write has finished. */
  private readonly lanes = new Map<string, Promise<void>>();

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
   * the group's savepoint and must not wait on anything), on PostgreSQL in a transaction of its
   * own (retried from the start on a serialization failure, so `op` may run more than once).
   * @param lane on PostgreSQL, writes given the same lane (the route's project id) run one after
   *   another in this process, each starting when the previous one has finished, instead of
   *   concurrently: writes to one project conflict (they read and bump the same rows), and run
   *   together they would mostly fail each other's serializable transactions. Ignored on SQLite,
   *   where a group runs its writes one after another anyway.
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

  /** PostgreSQL: `op` in a transaction of its own, once the writes queued before it in `lane` have finished. */
  private runInLane<T>(lane: string, op: (q: Sql) => Query<T>): Promise<T> {
    const previous = this.lanes.get(lane);
    const result = previous === undefined ? this.runAlone(op) : previous.then(() => this.runAlone(op));
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(lane, settled);
    // The lane is forgotten once its last write has finished.
    void settled.then(() => {
      if (this.lanes.get(lane) === settled) this.lanes.delete(lane);
    });
    return result;
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
    group.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }
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
