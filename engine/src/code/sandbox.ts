/**
 * The engine's code sandbox (docs/automations.md "Code"): worker threads that run code steps in
 * QuickJS (`worker.ts`), one job at a time each, shared between workspaces by {@link FairShares}
 * (per-workspace queues served in turn, a per-workspace limit, a bounded queue). The worker
 * enforces the time and memory limits inside QuickJS; a watchdog here ends a worker that does not
 * answer within the time limit plus {@link WATCHDOG_GRACE_MS} (a limit the interpreter could not
 * enforce). A worker is ended and a fresh one started when it may not serve the next job as it
 * should: it crashed or QuickJS failed in it (an abort), its WebAssembly memory grew more than
 * {@link RECYCLE_GROWTH_BYTES} (a WebAssembly memory never shrinks: ending the thread gives it
 * back), the watchdog ended it, or the step was cancelled while its code ran. Workers start
 * with the first job (all of them) and a replacement at once. Owned by one engine;
 * {@link CodeSandbox.close} ends its workers.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CodeJob, CodeReply, WorkerAnswer, WorkerStarted } from './protocol';
import { FairShares } from './shares';

/** Extra time a worker gets past a job's time limit before it is ended, in ms. */
export const WATCHDOG_GRACE_MS = 2000;
/** Growth of a worker's WebAssembly memory past its size when it started after which it is replaced, in bytes (16 MiB). */
export const RECYCLE_GROWTH_BYTES = 16 * 1024 * 1024;
/** Default most code jobs of one workspace waiting for a worker; one more fails at once with `CODE_BUSY`. */
export const DEFAULT_QUEUE_PER_WORKSPACE = 100;

/** Options of {@link CodeSandbox}. */
export interface CodeSandboxOptions {
  /** Worker threads running jobs at once (default 2); further jobs wait their turn. */
  workers?: number;
  /** Jobs of one workspace running at once (default all workers but one, at least 1). */
  workersPerWorkspace?: number;
  /** Jobs of one workspace waiting at once (default {@link DEFAULT_QUEUE_PER_WORKSPACE}). */
  queuePerWorkspace?: number;
}

/** Who runs a job, for the fair share, and what cancels it. */
export interface CodeRunOptions {
  /** The workspace whose step it is (its share of the workers); jobs without one share the '' queue. */
  workspaceId?: string;
  /** Aborted when the step must stop: a waiting job leaves the queue, a running one has its worker ended. */
  signal?: AbortSignal;
}

interface Slot {
  worker: Worker | undefined;
  ready: Promise<Worker> | undefined;
  busy: boolean;
  /** The WebAssembly memory of the worker when it started, in bytes. */
  startHeap: number;
  /** The slot's worker has loaded QuickJS and waits for jobs. */
  started: boolean;
}

/** What {@link CodeSandbox.exchange} resolves when the worker did not run the job. */
const NOT_RUN = Symbol('not run');

const closedReply = (): CodeReply => ({ ok: false, code: 'SANDBOX_CLOSED', message: 'the engine stopped while the code ran', logs: [] });

/** Runs code jobs on a small pool of worker threads started on first use. */
export class CodeSandbox {
  private readonly slots: Slot[];
  private readonly shares: FairShares;
  private readonly queuePerWorkspace: number;
  private closed = false;

  constructor(options: CodeSandboxOptions = {}) {
    const workers = Math.max(1, options.workers ?? 2);
    this.slots = Array.from({ length: workers }, () => ({
      worker: undefined,
      ready: undefined,
      busy: false,
      startHeap: 0,
      started: false,
    }));
    this.queuePerWorkspace = Math.max(0, options.queuePerWorkspace ?? DEFAULT_QUEUE_PER_WORKSPACE);
    this.shares = new FairShares({
      capacity: workers,
      perShare: Math.min(workers, Math.max(1, options.workersPerWorkspace ?? workers - 1)),
      queuePerShare: this.queuePerWorkspace,
    });
  }

  /**
   * Runs one job when its workspace's turn comes and resolves to how it ended; never rejects for
   * anything the code does (a worker that had to be ended answers `CODE_TIMEOUT`). A full queue
   * answers `CODE_BUSY`, a closed sandbox `SANDBOX_CLOSED`, an aborted step `CODE_ABORTED`.
   * @throws Error when a worker thread cannot be started.
   */
  async run(job: CodeJob, options: CodeRunOptions = {}): Promise<CodeReply> {
    const share = options.workspaceId ?? '';
    const grant = await this.shares.take(share, options.signal);
    if (grant === 'closed') return closedReply();
    if (grant === 'aborted') return { ok: false, code: 'CODE_ABORTED', message: 'the step stopped before its code ran', logs: [] };
    if (grant === 'full')
      return {
        ok: false,
        code: 'CODE_BUSY',
        message: `${this.queuePerWorkspace} code steps of this workspace are waiting for the sandbox already`,
        logs: [],
      };
    // A free worker that is up, else one still starting.
    const slot = this.slots.find((s) => !s.busy && s.started) ?? this.slots.find((s) => !s.busy)!;
    slot.busy = true;
    // The first job starts every worker, so that another workspace's first job finds its worker ready.
    for (const other of this.slots) if (other !== slot && !other.ready) this.start(other).catch(() => undefined);
    try {
      // A worker that broke after its last reply runs no more jobs: this one goes to its fresh replacement.
      for (let attempt = 1; ; attempt++) {
        const worker = await this.start(slot);
        const reply = await this.exchange(slot, worker, job, options.signal);
        if (reply !== NOT_RUN) return reply;
        if (attempt === 2) return { ok: false, code: 'CODE_MEMORY', message: 'the code sandbox failed', logs: [] };
      }
    } finally {
      slot.busy = false;
      this.shares.done(share);
    }
  }

  /** Ends every worker; jobs still running answer `SANDBOX_CLOSED`, and so do waiting and later ones. */
  async close(): Promise<void> {
    this.closed = true;
    this.shares.close();
    await Promise.all(this.slots.map((slot) => this.end(slot)));
  }

  private start(slot: Slot): Promise<Worker> {
    slot.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(path.join(__dirname, 'worker.js'));
      worker.unref();
      slot.worker = worker;
      // Whenever this worker fails or exits (also between jobs), the slot starts a fresh one for its next job.
      const forget = () => {
        if (slot.worker !== worker) return;
        slot.worker = undefined;
        slot.ready = undefined;
        slot.started = false;
      };
      worker.on('error', forget);
      worker.once('exit', forget);
      const failed = (error: Error) => {
        forget();
        void worker.terminate();
        reject(error);
      };
      worker.once('error', failed);
      worker.once('message', (message: WorkerStarted) => {
        worker.off('error', failed);
        if (message.ready) {
          slot.startHeap = message.heapBytes;
          slot.started = slot.worker === worker;
          resolve(worker);
        } else failed(new Error(message.message ?? 'the code sandbox did not start'));
      });
    });
    return slot.ready;
  }

  /** Sends `job` to `worker`; resolves its reply, or {@link NOT_RUN} when the worker was broken before it. */
  private exchange(slot: Slot, worker: Worker, job: CodeJob, signal: AbortSignal | undefined): Promise<CodeReply | typeof NOT_RUN> {
    return new Promise<CodeReply | typeof NOT_RUN>((resolve) => {
      let settled = false;
      const finish = (reply: CodeReply | typeof NOT_RUN, replace: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(watchdog);
        worker.off('message', answered);
        worker.off('exit', exited);
        worker.off('error', crashed);
        signal?.removeEventListener('abort', aborted);
        if (replace) this.replace(slot, worker);
        resolve(reply);
      };
      const answered = (answer: WorkerAnswer) =>
        finish(answer.notRun ? NOT_RUN : answer.reply, answer.broken || answer.heapBytes > slot.startHeap + RECYCLE_GROWTH_BYTES);
      const exited = () => {
        if (this.closed) finish(closedReply(), false);
        else finish({ ok: false, code: 'CODE_MEMORY', message: 'the code sandbox ended while running the code', logs: [] }, true);
      };
      const crashed = (error: Error) =>
        finish({ ok: false, code: 'CODE_MEMORY', message: `the code sandbox failed: ${error.message}`, logs: [] }, true);
      const aborted = () => finish({ ok: false, code: 'CODE_ABORTED', message: 'the step stopped while its code ran', logs: [] }, true);
      const watchdog = setTimeout(
        () => finish({ ok: false, code: 'CODE_TIMEOUT', message: 'the code ran longer than its time limit', logs: [] }, true),
        job.timeoutMs + WATCHDOG_GRACE_MS,
      );
      worker.on('message', answered);
      worker.once('exit', exited);
      worker.once('error', crashed);
      if (signal?.aborted)
        return finish({ ok: false, code: 'CODE_ABORTED', message: 'the step stopped before its code ran', logs: [] }, false);
      signal?.addEventListener('abort', aborted, { once: true });
      worker.postMessage(job);
    });
  }

  /** Ends `worker` (when it is still the slot's) and starts its replacement at once, so the next job does not wait for it. */
  private replace(slot: Slot, worker: Worker): void {
    if (slot.worker !== worker) return;
    void this.end(slot);
    if (!this.closed) this.start(slot).catch(() => undefined);
  }

  private async end(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = undefined;
    slot.ready = undefined;
    slot.started = false;
    if (!worker) return;
    // An idle worker is unref'd so it never holds the process open; while it is being ended it
    // must, or a caller awaiting close() (a shutdown, a benchmark) is left with the loop empty and
    // the process exits before the promise settles.
    worker.ref();
    await worker.terminate();
  }
}
