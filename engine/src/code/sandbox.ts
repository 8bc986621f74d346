/**
 * The engine's code sandbox (docs/automations.md "Code"): worker threads that run code steps in
 * QuickJS (`worker.ts`), one job at a time each. The worker enforces the time and memory limits
 * inside QuickJS; a watchdog here ends a worker that does not answer within the time limit plus
 * {@link WATCHDOG_GRACE_MS} (a limit the interpreter could not enforce), and a new one starts
 * for the next job. Owned by one engine; {@link CodeSandbox.close} ends its workers.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CodeJob, CodeReply } from './protocol';

/** Extra time a worker gets past a job's time limit before it is ended, in ms. */
export const WATCHDOG_GRACE_MS = 2000;

/** Options of {@link CodeSandbox}. */
export interface CodeSandboxOptions {
  /** Worker threads running jobs at once (default 2); further jobs wait their turn. */
  workers?: number;
}

interface Slot {
  worker: Worker | undefined;
  ready: Promise<Worker> | undefined;
  busy: boolean;
}

/** Runs code jobs on a small pool of worker threads started on first use. */
export class CodeSandbox {
  private readonly slots: Slot[];
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(options: CodeSandboxOptions = {}) {
    this.slots = Array.from({ length: Math.max(1, options.workers ?? 2) }, () => ({ worker: undefined, ready: undefined, busy: false }));
  }

  /**
   * Runs one job and resolves to how it ended; never rejects for anything the code does (a
   * worker that had to be ended answers `CODE_TIMEOUT`).
   * @throws Error only when the sandbox is closed.
   */
  async run(job: CodeJob): Promise<CodeReply> {
    const slot = await this.acquire();
    try {
      const worker = await this.start(slot);
      return await this.exchange(slot, worker, job);
    } finally {
      slot.busy = false;
      this.waiting.shift()?.();
    }
  }

  /** Ends every worker; jobs still running answer `SANDBOX_CLOSED`. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => this.end(slot)));
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new Error('the code sandbox is closed');
      const free = this.slots.find((s) => !s.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private start(slot: Slot): Promise<Worker> {
    slot.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(path.join(__dirname, 'worker.js'));
      worker.unref();
      slot.worker = worker;
      const failed = (error: Error) => {
        slot.ready = undefined;
        slot.worker = undefined;
        reject(error);
      };
      worker.once('error', failed);
      worker.once('message', (message: { ready?: boolean; message?: string }) => {
        worker.off('error', failed);
        if (message.ready) resolve(worker);
        else failed(new Error(message.message ?? 'the code sandbox did not start'));
      });
    });
    return slot.ready;
  }

  private exchange(slot: Slot, worker: Worker, job: CodeJob): Promise<CodeReply> {
    return new Promise<CodeReply>((resolve) => {
      let settled = false;
      const finish = (reply: CodeReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(watchdog);
        worker.off('message', answered);
        worker.off('exit', exited);
        worker.off('error', crashed);
        resolve(reply);
      };
      const answered = (reply: CodeReply) => finish(reply);
      const exited = () => {
        slot.ready = undefined;
        slot.worker = undefined;
        if (this.closed) finish({ ok: false, code: 'SANDBOX_CLOSED', message: 'the engine stopped while the code ran', logs: [] });
        else finish({ ok: false, code: 'CODE_MEMORY', message: 'the code sandbox ended while running the code', logs: [] });
      };
      const crashed = (error: Error) =>
        finish({ ok: false, code: 'CODE_MEMORY', message: `the code sandbox failed: ${error.message}`, logs: [] });
      const watchdog = setTimeout(() => {
        finish({ ok: false, code: 'CODE_TIMEOUT', message: 'the code ran longer than its time limit', logs: [] });
        void this.end(slot);
      }, job.timeoutMs + WATCHDOG_GRACE_MS);
      worker.on('message', answered);
      worker.once('exit', exited);
      worker.once('error', crashed);
      worker.postMessage(job);
    });
  }

  private async end(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = undefined;
    slot.ready = undefined;
    if (worker) await worker.terminate();
  }
}
