/**
 * Whether this process leads its database (docs "Operations", "Roles"): does the work done once
 * per database — the outbox dispatcher and webhook deliveries, the automation outbox consumer,
 * schedules, `task.due` dates, log retention, and the recovery of interrupted conversations at
 * start. Automation runs are not among it: every process that executes runs claims its share.
 *
 * SQLite: the one server of the data directory leads. PostgreSQL: the holder of the server lock
 * (platform/db/postgres/server-lock.ts); another `all` or `worker` process follows until it takes
 * the lock over, and an `api` process never leads.
 */
export class Leadership {
  private leadingNow: boolean;
  private stopped = false;
  private readonly starts: (() => void)[] = [];
  /**
   * PostgreSQL: until when (`performance.now()`) the lead is known to be this process's: the
   * lease ({@link Leadership.renew}), renewed by every heartbeat the database answered. Undefined:
   * no lease (SQLite's one server).
   */
  private validUntil: number | undefined;

  constructor(leading: boolean) {
    this.leadingNow = leading;
  }

  /**
   * Whether this process leads now. On PostgreSQL, only while its lease holds: a process that was
   * stalled past it (its event loop blocked, the process stopped) may have been replaced by a
   * follower, and does no leader work until its next heartbeat is answered (or it finds the lock
   * lost and stops). Leader work checks this before each step.
   */
  get leading(): boolean {
    return this.leadingNow && (this.validUntil === undefined || performance.now() < this.validUntil);
  }

  /** PostgreSQL: the lead is this process's until `until` (`performance.now()` time) at least. */
  renew(until: number): void {
    this.validUntil = until;
  }

  /** Calls `start` once this process leads: at once when it does, else when it takes over (not after {@link stop}). */
  whenLeading(start: () => void): void {
    if (this.leadingNow) start();
    else this.starts.push(start);
  }

  /** This process took the lead over: starts what waited for it. */
  promote(): void {
    if (this.leadingNow || this.stopped) return;
    this.leadingNow = true;
    for (const start of this.starts.splice(0)) start();
  }

  /** The server is stopping: a later take-over starts nothing. */
  stop(): void {
    this.stopped = true;
    this.starts.length = 0;
  }
}
