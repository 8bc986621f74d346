/**
 * The piece pool (docs/integrations.md "Running pieces"): worker threads (`worker.ts`) that run
 * piece calls off the engine's event loop, one call per worker at a time, each worker with V8
 * heap limits (`resourceLimits`) and each call with a time limit. A call that runs past its limit
 * or is aborted ends its worker (`terminate()` stops even a busy loop) and fails with
 * `PIECE_TIMEOUT` / `ABORTED`; a worker that runs out of memory fails its call with
 * `PIECE_MEMORY`; other calls, on other workers, go on. Workers are started on demand, up to
 * `workers`, kept while idle (a worker keeps the pieces it loaded) and ended by {@link PiecePool.close}.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ActionError } from '../errors';
import type { HttpRequest, HttpResponse } from '../ports';
import { PIECE_FILE_MAX_BYTES } from './files';
import type {
  PieceCallMessage,
  PieceFileWriteMessage,
  PieceHttpMessage,
  PieceReplyMessage,
  PieceStoreMessage,
  WorkerMessage,
} from './protocol';

/** Options of a {@link PiecePool}. */
export interface PiecePoolOptions {
  /** Workers at most (default 2); further calls wait for a free one. */
  workers?: number;
  /** Each worker's old-generation heap limit, in MB (default 256). */
  memoryMb?: number;
  /** Longest call when the caller gives no limit, in ms (default 60000). */
  callTimeoutMs?: number;
}

/** What a call may do outside the worker while it runs. */
export interface PieceCallHandlers {
  /** The piece's HTTP requests (the host's guarded port). */
  http(request: HttpRequest): Promise<HttpResponse>;
  /** The piece's store (`get` resolves to the value or null). */
  store(op: PieceStoreMessage): Promise<unknown>;
  /** The piece's `files.write`: stores the bytes, resolves to their reference (absent: the piece gets NOT_SUPPORTED). */
  writeFile?(fileName: string, data: Buffer): Promise<string>;
  /** Aborts the call (and ends its worker). */
  signal?: AbortSignal;
  /** This call's time limit, in ms. */
  timeoutMs?: number;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
  entries: Set<string>;
}

/** Error codes of a piece's failure kept as the step's code (the guard's refusal, what Taskspace lacks); others become PIECE_ERROR. */
const KEPT_CODES = new Set(['NOT_SUPPORTED', 'BLOCKED_TARGET', 'INVALID_URL', 'CONNECTION_NOT_FOUND', 'FILE_TOO_LARGE']);

/** Longest single HTTP request of a piece, in ms. */
const PIECE_HTTP_TIMEOUT_MS = 30_000;

/** The worker pool of one engine host. */
export class PiecePool {
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  private nextCall = 1;
  private readonly max: number;
  private readonly memoryMb: number;
  private readonly callTimeoutMs: number;

  constructor(options: PiecePoolOptions = {}) {
    this.max = Math.max(1, options.workers ?? 2);
    this.memoryMb = options.memoryMb ?? 256;
    this.callTimeoutMs = options.callTimeoutMs ?? 60_000;
  }

  /**
   * Runs one call and resolves to its output.
   * @throws ActionError PIECE_TIMEOUT (transient), PIECE_MEMORY, ABORTED, NOT_SUPPORTED, or the
   *   piece's own error (`PIECE_ERROR`, permanent, with the piece's message).
   */
  async call(message: Omit<PieceCallMessage, 'type' | 'id'>, handlers: PieceCallHandlers): Promise<unknown> {
    const slot = await this.acquire(message.entry);
    try {
      await slot.ready;
      slot.entries.add(message.entry);
      return await this.exchange(slot, { ...message, type: 'call', id: this.nextCall++ }, handlers);
    } finally {
      slot.busy = false;
      this.waiting.shift()?.();
    }
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.slots.splice(0).map((s) => s.worker);
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private async acquire(entry: string): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new ActionError('ENGINE_STOPPING', 'the piece pool is closed', true);
      const free = this.slots.filter((s) => !s.busy);
      const slot = free.find((s) => s.entries.has(entry)) ?? (this.slots.length < this.max ? this.spawn() : free[0]);
      if (slot) {
        slot.busy = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private spawn(): Slot {
    const worker = new Worker(path.join(__dirname, 'worker.js'), {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // A piece's console output is not the server's log.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    const slot: Slot = {
      worker,
      busy: false,
      entries: new Set(),
      ready: new Promise<void>((resolve, reject) => {
        const onMessage = (m: WorkerMessage) => {
          if (m.type !== 'ready') return;
          worker.off('message', onMessage);
          resolve();
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('the piece worker ended before it started')));
      }),
    };
    slot.ready.catch(() => undefined);
    worker.once('exit', () => this.drop(slot));
    this.slots.push(slot);
    return slot;
  }

  private drop(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }

  private exchange(slot: Slot, message: PieceCallMessage, handlers: PieceCallHandlers): Promise<unknown> {
    const { worker } = slot;
    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      const inner = new AbortController();
      const finish = (error: ActionError | undefined, output?: unknown, end = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        inner.abort();
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onError);
        handlers.signal?.removeEventListener('abort', onAbort);
        if (end) {
          this.drop(slot);
          void worker.terminate();
        }
        if (error) reject(error);
        else resolve(output);
      };
      const reply = (m: PieceReplyMessage) => {
        if (!settled) worker.postMessage(m);
      };
      const onHttp = (m: PieceHttpMessage) => {
        handlers
          .http({
            ...m.request,
            timeoutMs: Math.min(m.request.timeoutMs ?? PIECE_HTTP_TIMEOUT_MS, PIECE_HTTP_TIMEOUT_MS),
            // A piece may download a file as large as it may write one.
            maxResponseBytes: PIECE_FILE_MAX_BYTES,
            signal: inner.signal,
          })
          .then(
            // With the bytes asked for, the text copy is not sent across as well.
            (response) => reply({ type: 'reply', id: m.id, ok: true, response: response.bytes ? { ...response, body: '' } : response }),
            (error: unknown) => {
              const e = error as { code?: unknown; message?: unknown };
              reply({
                type: 'reply',
                id: m.id,
                ok: false,
                error: { code: typeof e.code === 'string' ? e.code : 'HTTP_ERROR', message: String(e.message ?? error) },
              });
            },
          );
      };
      const onStore = (m: PieceStoreMessage) => {
        handlers.store(m).then(
          (value) => reply({ type: 'reply', id: m.id, ok: true, value }),
          (error: unknown) =>
            reply({
              type: 'reply',
              id: m.id,
              ok: false,
              error: { code: 'STORE_ERROR', message: String((error as Error).message ?? error) },
            }),
        );
      };
      const onFile = (m: PieceFileWriteMessage) => {
        const write = handlers.writeFile
          ? handlers.writeFile(m.fileName, Buffer.from(m.base64, 'base64'))
          : Promise.reject(Object.assign(new Error('files.write is not supported here'), { code: 'NOT_SUPPORTED' }));
        write.then(
          (value) => reply({ type: 'reply', id: m.id, ok: true, value }),
          (error: unknown) => {
            const e = error as { code?: unknown; message?: unknown };
            const code = typeof e.code === 'string' && /^[A-Z_]+$/.test(e.code) ? e.code : 'FILE_ERROR';
            reply({ type: 'reply', id: m.id, ok: false, error: { code, message: String(e.message ?? error) } });
          },
        );
      };
      const onMessage = (m: WorkerMessage) => {
        if (m.type === 'http') onHttp(m);
        else if (m.type === 'store') onStore(m);
        else if (m.type === 'file') onFile(m);
        else if (m.type === 'done' && m.id === message.id) {
          if (m.ok) finish(undefined, m.output);
          else {
            const code = m.error?.code ?? 'PIECE_ERROR';
            finish(
              new ActionError(
                KEPT_CODES.has(code) || code.startsWith('PIECE_') ? code : 'PIECE_ERROR',
                m.error?.message ?? 'the piece failed',
                false,
                { details: { code } },
              ),
            );
          }
        }
      };
      const onExit = () =>
        finish(new ActionError('PIECE_MEMORY', 'the piece worker ended while running the piece (out of memory?)', false));
      const onError = (error: Error & { code?: string }) =>
        finish(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ActionError('PIECE_MEMORY', `the piece used more than its memory limit (${this.memoryMb} MB)`, false)
            : new ActionError('PIECE_ERROR', `the piece worker failed: ${error.message}`, false),
          undefined,
          true,
        );
      const onAbort = () => finish(new ActionError('ABORTED', 'the step was stopped while the piece ran', false), undefined, true);
      const limit = handlers.timeoutMs ?? this.callTimeoutMs;
      const timer = setTimeout(
        () => finish(new ActionError('PIECE_TIMEOUT', `the piece ran longer than ${limit} ms`, true), undefined, true),
        limit,
      );
      if (handlers.signal?.aborted) return onAbort();
      handlers.signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.once('error', onError);
      worker.postMessage(message);
    });
  }
}
