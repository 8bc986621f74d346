/** Messages between the engine and its code-step worker (see `sandbox.ts`, `worker.ts`). */

/** One code step to run. */
export interface CodeJob {
  /** The author's JavaScript: the body of an async function whose return value is the output. */
  code: string;
  /** What the code sees as `input`, `trigger`, `steps` and `run` (JSON). */
  variables: { input: unknown; trigger: unknown; steps: unknown; run: unknown };
  /** Time limit, in ms. */
  timeoutMs: number;
  /** Memory limit of the QuickJS runtime, in bytes. */
  memoryBytes: number;
  /** Longest JSON of the returned value, in characters. */
  maxOutputChars: number;
}

/** How a job ended: the returned value as JSON, or an error code and message; and what it logged. */
export type CodeReply =
  | { ok: true; output: string; logs: string[] }
  | { ok: false; code: 'CODE_ERROR' | 'CODE_TIMEOUT' | 'CODE_MEMORY'; message: string; logs: string[] }
  /**
   * The engine stopped while the code ran or waited (the step is tried again when the run
   * resumes), or its workspace has too many code steps waiting for the sandbox (`CODE_BUSY`,
   * transient: retried with backoff).
   */
  | { ok: false; code: 'SANDBOX_CLOSED' | 'CODE_BUSY'; message: string; logs: string[] }
  /** The step was cancelled or reached its run's deadline before or while its code ran (the executor reports why). */
  | { ok: false; code: 'CODE_ABORTED'; message: string; logs: string[] };

/** What the worker posts for each job: the reply, and the state of the worker after it. */
export interface WorkerAnswer {
  reply: CodeReply;
  /** Size of the worker's WebAssembly memory after the job, in bytes (it never shrinks). */
  heapBytes: number;
  /** QuickJS itself failed (an abort, a stack overflow inside it): the worker must be replaced. */
  broken: boolean;
  /** The job was not run (the worker broke after its previous reply): run it on a fresh worker. */
  notRun?: boolean;
}

/** What the worker posts once, when QuickJS is loaded (`heapBytes` as in {@link WorkerAnswer}), or the error that kept it from loading. */
export type WorkerStarted = { ready: true; heapBytes: number } | { ready?: undefined; message: string };
