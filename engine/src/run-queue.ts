/**
 * The run queue (README "Automations", "Concurrency"): runs wait in a FIFO queue in the order they
 * were queued, and at most `maxConcurrent` execute at once. A run is in the queue or executing at
 * most once. Holds only ids; what executing a run means is the engine's `execute` callback.
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
  logger: Logger;
}

/** FIFO queue of run ids with a concurrency limit. One instance per engine. */
export class RunQueue {
  private readonly queue: string[] = [];
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly active = new Map<string, Active>();
  private idleWaiters: (() => void)[] = [];
  private paused = false;

  constructor(
    private readonly maxConcurrent: number,
    private readonly hooks: RunQueueHooks,
  ) {}

  /** Queues a run unless it is queued or executing already, and starts what fits. */
  add(runId: string): void {
    if (this.queued.has(runId) || this.active.has(runId)) return;
    this.queued.add(runId);
    this.queue.push(runId);
    this.drain();
  }

  /** Takes a queued run out (cancelled before it started); false when it was not queued. */
  remove(runId: string): boolean {
    return this.queued.delete(runId);
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
    return [...this.queued, ...this.active.keys()];
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

  private drain(): void {
    while (!this.paused && this.active.size < this.maxConcurrent && this.head < this.queue.length) {
      const runId = this.queue[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      if (!this.queued.delete(runId)) continue; // cancelled while queued
      const entry: Active = { automationId: '', done: Promise.resolve() };
      this.active.set(runId, entry);
      entry.done = this.hooks
        .execute(runId, entry)
        .catch((error: unknown) => this.hooks.logger.error({ err: error, runId }, 'run execution failed'))
        .finally(() => {
          this.active.delete(runId);
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
