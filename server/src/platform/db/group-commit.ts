import { transaction, type Db } from './connection';

/** One write waiting for its group. */
interface PendingWrite {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit (docs "Architecture", "Group commit"): writes that arrive together share one SQLite
 * transaction, so their commit (the WAL frames of every page they touch, and the lock) is paid once
 * per group instead of once per write.
 *
 * {@link run} queues a synchronous write (a service function, which opens its own transaction as
 * usual); on the next turn of the event loop every queued write runs, each in its own savepoint
 * inside one `BEGIN IMMEDIATE … COMMIT`. A write that throws rolls back to its savepoint alone and
 * its promise rejects with that error; the others commit. Each promise settles only after the
 * COMMIT, so a caller that answers after awaiting it acknowledges nothing that a crash (kill -9)
 * could take back. The whole group runs synchronously between BEGIN and COMMIT, so nothing else
 * (no reader, no background worker) ever sees a group's uncommitted rows.
 *
 * One instance per database connection, owned by the app's services (`Services.writes`).
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;

  /** @param maxGroup most writes in one transaction (default 256); more wait for the next group. */
  constructor(
    private readonly db: Db,
    private readonly maxGroup = 256,
  ) {}

  /**
   * Runs `fn` in the next group and resolves to its result once the group has committed.
   * `fn` must be synchronous (it runs inside an open transaction).
   * @throws (rejects with) whatever `fn` throws (its writes rolled back), or the commit's error
   *   for every write of a group whose COMMIT failed; a TypeError when `fn` returns a promise.
   */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
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
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      transaction(this.db, () => {
        for (const write of group) outcomes.push(this.attempt(write.fn));
      });
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

  /** One write in its own savepoint (a nested {@link transaction}): rolled back alone when it throws. */
  private attempt(fn: () => unknown): { ok: true; value: unknown } | { ok: false; error: unknown } {
    try {
      return { ok: true, value: transaction(this.db, fn) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
