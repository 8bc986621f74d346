/**
 * The run queue (README "Automations", "Concurrency"): runs wait in one queue per automation, in
 * the order they were queued, and at most `maxConcurrent` execute at once. Slots go round the
 * automations that have runs waiting (one run each in turn), so a flood of one automation does
 * not hold up the others; no automation holds more than its limit ({@link RunQueueHooks.limitOf})
 * — by default a fair share that leaves slots for the others. A run is in the queue or executing
 * at most once. Holds only ids; what executing a run means is the engine's `execute` callback.
 */
import type { Logger } from './ports';

/** One executing run: its automation (known once its record is read) and the promise of its execution. */
interface Active {
  automationId: string;
  done: Promise<void>;
}

/** What the queue calls. */
export interface RunQueueHooks {
  /** Executes one run; `entry.automationId` is set by the callee once known. */
  execute(runId: string, entry: { automationId: string }): Promise<void>;
  /** After a run's execution ended (also when it threw), before the next run is taken. */
  finished(runId: string): void;
  /** The most runs of one automation executing at once (its `concurrency`), when it sets one. */
  limitOf?(automationId: string): number | undefined;
  logger: Logger;
}

/**
 * Slots kept for other automations by default: a quarter, rounded down (4 of 16; none below 4
 * slots). One automation may hold the rest.
 */
export function reservedSlots(maxConcurrent: number): number {
  return Math.floor(maxConcurrent / 4);
}

/** Per-automation FIFO queues of run ids, served in turn under a concurrency limit. One instance per engine. */
export class RunQueue {
  /** Waiting runs by automation ('' when not known yet: runs taken over by id alone). */
  private readonly waiting = new Map<string, string[]>();
  /** Automations with runs waiting, in the order they are served. */
  private turns: string[] = [];
  /** Queued run → its automation. */
  private readonly queued = new Map<string, string>();
  private readonly active = new Map<string, Active>();
  /** Executing runs per automation. */
  private readonly running = new Map<string, number>();
  /** The default most runs of one automation executing at once. */
  private readonly share: number;
  private idleWaiters: (() => void)[] = [];
  private paused = false;

  constructor(
    private readonly maxConcurrent: number,
    private readonly hooks: RunQueueHooks,
  ) {
    this.share = Math.max(1, maxConcurrent - reservedSlots(maxConcurrent));
  }

  /**
   * Queues a run unless it is queued or executing already, and starts what fits. `automationId`
   * puts it in its automation's turn; without it the run waits in a turn of runs not known yet.
   */
  add(runId: string, automationId = ''): void {
    if (this.queued.has(runId) || this.active.has(runId)) return;
    this.queued.set(runId, automationId);
    let list = this.waiting.get(automationId);
    if (!list) {
      list = [];
      this.waiting.set(automationId, list);
      this.turns.push(automationId);
    }
    list.push(runId);
    this.drain();
  }

  /** Takes a queued run out (cancelled before it started); false when it was not queued. */
  remove(runId: string): boolean {
    const automationId = this.queued.get(runId);
    if (automationId === undefined) return false;
    this.queued.delete(runId);
    const list = this.waiting.get(automationId);
    const at = list?.indexOf(runId) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (list?.length === 0) this.forget(automationId);
    return true;
  }

  /** True while the run is queued or executing. */
  has(runId: string): boolean {
    return this.queued.has(runId) || this.active.has(runId);
  }

  /** True while the run is executing. */
  isExecuting(runId: string): boolean {
    return this.active.has(runId);
  }

  /** The executing runs of one automation. */
  executingOf(automationId: string): string[] {
    return [...this.active].filter(([, a]) => a.automationId === automationId).map(([id]) => id);
  }

  /** The runs queued and executing. */
  ids(): string[] {
    return [...this.queued.keys(), ...this.active.keys()];
  }

  /** Number of runs executing and waiting in the queue. */
  load(): { active: number; queued: number } {
    return { active: this.active.size, queued: this.queued.size };
  }

  /** Resolves when no run is queued or executing. */
  idle(): Promise<void> {
    if (this.active.size === 0 && this.queued.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking runs from the queue (they stay queued); returns the executions in flight. */
  pause(): Promise<void>[] {
    this.paused = true;
    return [...this.active.values()].map((a) => a.done);
  }

  /** Takes runs from the queue again. */
  resume(): void {
    this.paused = false;
    this.drain();
  }

  /** The most runs of `automationId` that may execute at once. */
  private limit(automationId: string): number {
    if (automationId === '') return this.maxConcurrent;
    const own = this.hooks.limitOf?.(automationId);
    return Math.max(1, Math.min(own ?? this.share, this.maxConcurrent));
  }

  private forget(automationId: string): void {
    this.waiting.delete(automationId);
    this.turns = this.turns.filter((a) => a !== automationId);
  }

  /** The next run to start: the first automation in turn under its limit gives its oldest run, and goes to the back. */
  private next(): { runId: string; automationId: string } | undefined {
    for (let i = 0; i < this.turns.length; i++) {
      const automationId = this.turns[i]!;
      if ((this.running.get(automationId) ?? 0) >= this.limit(automationId)) continue;
      const list = this.waiting.get(automationId)!;
      const runId = list.shift()!;
      this.turns.splice(i, 1);
      if (list.length > 0) this.turns.push(automationId);
      else this.waiting.delete(automationId);
      this.queued.delete(runId);
      return { runId, automationId };
    }
    return undefined;
  }

  private drain(): void {
    while (!this.paused && this.active.size < this.maxConcurrent) {
      const picked = this.next();
      if (picked === undefined) return;
      const { runId } = picked;
      const entry: Active = { automationId: picked.automationId, done: Promise.resolve() };
      this.active.set(runId, entry);
      const count = (automationId: string, by: number) => this.running.set(automationId, (this.running.get(automationId) ?? 0) + by);
      // Counted against its automation's limit from the moment it is known: now, or once the callee read the run.
      let counted = picked.automationId;
      if (counted) count(counted, 1);
      entry.done = this.hooks
        .execute(runId, {
          get automationId() {
            return entry.automationId;
          },
          set automationId(id: string) {
            entry.automationId = id;
            if (counted !== id) {
              if (counted) count(counted, -1);
              count(id, 1);
              counted = id;
            }
          },
        })
        .catch((error: unknown) => this.hooks.logger.error({ err: error, runId }, 'run execution failed'))
        .finally(() => {
          this.active.delete(runId);
          if (counted) {
            count(counted, -1);
            if (this.running.get(counted) === 0) this.running.delete(counted);
          }
          this.hooks.finished(runId);
          this.drain();
          if (this.active.size === 0 && this.queued.size === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
    }
  }
}
