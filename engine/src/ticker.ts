/**
 * The engine's clock work (README "Automations", "Durability"): one tick at a time (a tick asked
 * for while one runs runs again right after it), and, with `autoTick`, a timer armed for the
 * earliest moment something is due — a delay, retry or approval timeout, a schedule slot — or at
 * the latest `maxIntervalMs` from now.
 */
import type { Clock, Logger } from './ports';

/** What the ticker calls and needs. */
export interface TickerOptions {
  clock: Clock;
  logger: Logger;
  /** Arm timers (false: the host calls `tick()` itself, e.g. with a controllable clock). */
  autoTick: boolean;
  /** Longest wait between two automatic ticks, in ms. */
  maxIntervalMs: number;
  /** Does what is due at `now`; resolves to when something is next due (ms), if known. */
  work(now: number): Promise<number | undefined>;
}

/** One engine's ticks and timer. */
export class Ticker {
  private timer: NodeJS.Timeout | undefined;
  private timerAt: number | undefined;
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  private running = false;
  private stopped = false;

  constructor(private readonly options: TickerOptions) {}

  /** Runs the due work now (coalesced with a tick in progress), then re-arms the timer. */
  tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      do {
        this.tickAgain = false;
        const now = this.options.clock.now();
        const next = await this.options.work(now);
        if (this.options.autoTick && this.running) {
          this.timerAt = undefined;
          this.arm(Math.min(next ?? Infinity, now + this.options.maxIntervalMs));
        }
      } while (this.tickAgain && !this.stopped);
    })().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** Makes sure a tick happens by `at` (ms since the epoch). */
  arm(at: number): void {
    if (!this.options.autoTick || !this.running) return;
    if (this.timerAt !== undefined && this.timerAt <= at && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = undefined;
        void this.tick().catch((error: unknown) => this.options.logger.error({ err: error }, 'tick failed'));
      },
      Math.max(0, at - this.options.clock.now()),
    );
    this.timer.unref?.();
  }

  /** Ticks soon (something changed that may be due now). */
  kick(): void {
    this.arm(this.options.clock.now());
  }

  /** Lets the timer run (ticks may still be called by hand before). */
  start(): void {
    this.running = true;
    this.stopped = false;
  }

  /** Clears the timer; resolves to the tick in progress, if any. */
  stop(): Promise<void> | undefined {
    this.running = false;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    return this.ticking;
  }
}
