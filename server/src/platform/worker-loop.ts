/** Where background workers report unexpected failures (a pino logger fits). */
export interface WorkerLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  /** Routine events that are not failures (a pino logger has it). */
  debug?(obj: object, msg: string): void;
}

/**
 * A background loop: runs `step`, then again after the delay it returns (ms), or at once when
 * woken. `step` may be synchronous or return a promise; an asynchronous step never overlaps
 * itself (a wake-up during it runs the next step as soon as it settles). A throwing (or
 * rejecting) step is logged and retried after `retryMs`.
 * Delay timers are unref'd: an idle loop never keeps the process alive on its own.
 */
export class WorkerLoop {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private stopped = true;
  /** The asynchronous step in progress, if any. */
  private running: Promise<void> | undefined;
  /** Woken while an asynchronous step was in progress: run again at once. */
  private again = false;

  constructor(
    private readonly name: string,
    private readonly step: () => number | Promise<number>,
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
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops the loop; resolves once a step in progress has finished. */
  stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    return this.running ?? Promise.resolve();
  }

  private schedule(ms: number): void {
    if (ms <= 0) {
      // Run on the next turn of the event loop (setTimeout would wait at least 1 ms).
      if (this.immediate) return;
      this.clearTimer();
      // Not unref'd: it lasts one turn only, and (Node 20) an unref'd timer created from an
      // unref'd immediate's callback can fail to fire at all, which would stall the loop.
      this.immediate = setImmediate(() => this.run());
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

  private failed(error: unknown): number {
    this.log.error({ err: error, worker: this.name }, `${this.name} failed; retrying`);
    return this.retryMs;
  }

  private run(): void {
    this.timer = undefined;
    this.immediate = undefined;
    if (this.stopped || this.running) return;
    let result: number | Promise<number>;
    try {
      result = this.step();
    } catch (error) {
      result = this.failed(error);
    }
    if (typeof result === 'number') {
      this.next(result);
      return;
    }
    this.again = false;
    this.running = result
      .then(
        (delay) => delay,
        (error: unknown) => this.failed(error),
      )
      .then((delay) => {
        this.running = undefined;
        this.next(delay);
      });
  }

  /** Schedules the step after `delay`, unless stopped or already scheduled (woken meanwhile). */
  private next(delay: number): void {
    if (this.again) {
      this.again = false;
      delay = 0;
    }
    if (!this.stopped && this.timer === undefined && this.immediate === undefined) this.schedule(delay);
  }
}
