/**
 * The fair share of the code sandbox between workspaces (docs/automations.md "Code", "Sharing
 * the sandbox"): code jobs wait in one queue per workspace; a worker that frees up goes to the
 * workspaces with jobs waiting in turn (round robin, one job each), and no workspace holds more
 * than its share of the workers at once, by default all of them but one, so one workspace
 * flooding the pool with runaway loops always leaves a worker to the others. At most
 * `queuePerShare` jobs of one workspace wait; one more is refused at once (`full`), and a job
 * whose step is cancelled leaves the queue. Holds only counts and resolvers; one per sandbox.
 */

/** How a request for a worker ended: it may run, the workspace's queue is full, its step was aborted, or the sandbox closed. */
export type Grant = 'granted' | 'full' | 'aborted' | 'closed';

/** Limits of {@link FairShares}. */
export interface ShareLimits {
  /** Jobs running at once in all (the sandbox's workers). */
  capacity: number;
  /** Jobs of one workspace running at once. */
  perShare: number;
  /** Jobs of one workspace waiting at once. */
  queuePerShare: number;
}

/** Per-workspace queues served round robin under a total and a per-workspace limit. */
export class FairShares {
  /** Waiting jobs by workspace, in the order the workspaces are served. */
  private readonly queues = new Map<string, ((grant: Grant) => void)[]>();
  /** Running jobs by workspace. */
  private readonly running = new Map<string, number>();
  private total = 0;
  private closed = false;

  constructor(private readonly limits: ShareLimits) {}

  /**
   * Resolves once a job of workspace `share` may run (`granted`: call {@link done} when it
   * ended), or why it may not. `signal` takes a waiting job out of the queue (`aborted`).
   */
  take(share: string, signal?: AbortSignal): Promise<Grant> {
    if (this.closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('aborted');
    if (!this.queues.has(share) && this.fits(share)) {
      this.start(share);
      return Promise.resolve('granted');
    }
    const queue = this.queues.get(share) ?? [];
    if (queue.length >= this.limits.queuePerShare) return Promise.resolve('full');
    return new Promise<Grant>((resolve) => {
      const waiter = (grant: Grant) => {
        signal?.removeEventListener('abort', aborted);
        resolve(grant);
      };
      const aborted = () => {
        const waiting = this.queues.get(share);
        const at = waiting ? waiting.indexOf(waiter) : -1;
        if (at < 0) return;
        waiting!.splice(at, 1);
        if (waiting!.length === 0) this.queues.delete(share);
        resolve('aborted');
      };
      signal?.addEventListener('abort', aborted, { once: true });
      queue.push(waiter);
      this.queues.set(share, queue);
      this.dispatch();
    });
  }

  /** A granted job of `share` ended: its worker goes to the next workspace in turn. */
  done(share: string): void {
    const left = (this.running.get(share) ?? 1) - 1;
    if (left > 0) this.running.set(share, left);
    else this.running.delete(share);
    this.total--;
    this.dispatch();
  }

  /** Jobs of `share` waiting now. */
  waiting(share: string): number {
    return this.queues.get(share)?.length ?? 0;
  }

  /** Refuses every waiting and later job (`closed`). */
  close(): void {
    this.closed = true;
    const waiters = [...this.queues.values()].flat();
    this.queues.clear();
    for (const waiter of waiters) waiter('closed');
  }

  private fits(share: string): boolean {
    return this.total < this.limits.capacity && (this.running.get(share) ?? 0) < this.limits.perShare;
  }

  private start(share: string): void {
    this.running.set(share, (this.running.get(share) ?? 0) + 1);
    this.total++;
  }

  /** Grants free workers to the waiting workspaces in turn, each moving to the back once served. */
  private dispatch(): void {
    while (this.total < this.limits.capacity) {
      let next: string | undefined;
      for (const share of this.queues.keys()) {
        if ((this.running.get(share) ?? 0) < this.limits.perShare) {
          next = share;
          break;
        }
      }
      if (next === undefined) return;
      const queue = this.queues.get(next)!;
      const waiter = queue.shift()!;
      this.queues.delete(next);
      if (queue.length > 0) this.queues.set(next, queue);
      this.start(next);
      waiter('granted');
    }
  }
}
