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
  /** The engine stopped while the code ran: the step is tried again when the run resumes. */
  | { ok: false; code: 'SANDBOX_CLOSED'; message: string; logs: string[] };
