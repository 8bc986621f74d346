/**
 * Claims on runs (README "Automations", "Durability"; {@link RunLease}): an engine executes only
 * the runs it holds a lease on, renews the leases of its queued and executing runs every third of
 * the lease time, and claims no more runs than its queue has room for, leaving the rest to other
 * engines on the same store.
 */
import type { RunLease } from '../ports';
import type { RunContext } from './context';

/** What {@link Leases} needs besides the context. */
export interface LeaseOptions {
  /** How long a claim holds, in ms (`EngineOptions.leaseMs`, already raised to its minimum). */
  leaseMs: number;
  /** Runs executing at once (`EngineOptions.maxConcurrentRuns`). */
  maxConcurrent: number;
}

/** One engine's leases: making them, claiming runs with them, renewing them. */
export class Leases {
  /** Renews the leases of the runs queued and executing here. */
  private timer: NodeJS.Timeout | undefined;
  /** A claim filled the queue: claim again when there is room. */
  private backlog = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly options: LeaseOptions,
  ) {}

  /** A claim for this engine from now for `leaseMs` (wall time, ms since the epoch). */
  lease(): RunLease {
    const now = Date.now();
    return { owner: this.ctx.workerId, now, until: now + this.options.leaseMs };
  }

  /** Free places in the run queue: claims take no more runs than fit, leaving the rest to other engines. */
  room(): number {
    const { active, queued } = this.ctx.runs.load();
    return Math.max(0, this.options.maxConcurrent - active - queued);
  }

  /**
   * Queues the runs `take` claims (it is given a lease and the most runs to claim, the room);
   * remembers when more may be waiting. Rejects with whatever `take` rejects with (a store error).
   */
  async claim(take: (lease: RunLease, limit: number) => Promise<string[]>): Promise<void> {
    const room = this.room();
    const ids = room > 0 ? await take(this.lease(), room) : [];
    if (ids.length === room) this.backlog = true;
    for (const id of ids) this.ctx.runs.add(id);
  }

  /**
   * Whether an earlier claim may have left runs behind and there is room for them now; clears the
   * mark, so the caller claims again once.
   */
  takeBacklog(): boolean {
    if (!this.backlog || this.room() === 0) return false;
    this.backlog = false;
    return true;
  }

  /** Starts renewing the leases of the runs queued and executing here, every third of `leaseMs`. */
  startRenewal(): void {
    clearInterval(this.timer);
    this.timer = setInterval(
      () => {
        const ids = this.ctx.runs.ids();
        if (ids.length === 0) return;
        void this.ctx.store
          .renewLeases(ids, this.lease())
          .catch((error: unknown) => this.ctx.logger.warn({ err: error }, 'renewing run leases failed'));
      },
      Math.floor(this.options.leaseMs / 3),
    );
    this.timer.unref?.();
  }

  /** Stops renewing leases (at `Engine.stop`). */
  stopRenewal(): void {
    clearInterval(this.timer);
  }
}
