/** Where background workers report unexpected failures (a pino logger fits). */
export interface WorkerLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * A background loop: runs `step` (synchronous), then again after the delay it returns (ms),
 * or at once when woken. A throwing step is logged and retried after `retryMs`.
 * Timers are unref'd: a loop never keeps the process alive on its own.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly step: () => number,
    private readonly log: WorkerLog,
    private readonly retryMs = 1000,
  ) {}

  /** Starts the loop (the first step runs on the next tick). */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs the next step as soon as possible. */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops the loop; a step in progress finishes (steps are synchronous). */
  stop(): void {
    this.stopped = true;
    this.clearTimer();
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
  }

  private schedule(ms: number): void {
    if (ms <= 0) {
      // Run on the next turn of the event loop (setTimeout would wait at least 1 ms).
      if (this.immediate) return;
      this.clearTimer();
      this.immediate = setImmediate(() => this.run());
      this.immediate.unref();
      return;
    }
    if (this.immediate) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.timer = undefined;
    this.immediate = undefined;
    if (this.stopped) return;
    let delay: number;
    try {
      delay = this.step();
    } catch (error) {
      this.log.error({ err: error, worker: this.name }, `${this.name} failed; retrying`);
      delay = this.retryMs;
    }
    if (!this.stopped && this.timer === undefined && this.immediate === undefined) this.schedule(delay);
  }
}
