/**
 * The code-step worker (docs/automations.md "Code"): a worker thread that runs one author's
 * JavaScript at a time in QuickJS (WebAssembly), so a runaway step blocks this thread, never the
 * service's event loop. Each job gets a fresh QuickJS runtime with a memory limit, a stack
 * limit and a deadline; the code sees only the JSON it is given. QuickJS has no `process`,
 * `require`, file, network or timer APIs, and none are added.
 *
 * Memory: QuickJS's own limit (`setMemoryLimit`) counts allocations, not their size, in this
 * WebAssembly build (its `malloc_usable_size` is 0), so a typed array or a string of any size
 * passes it. The bound that holds is the WebAssembly memory itself: the worker gives the module
 * a memory whose `grow` refuses to go past the job's ceiling (the heap at the job's start plus
 * its `memoryBytes`), so the allocator's request fails and QuickJS throws its out-of-memory
 * error. A WebAssembly memory never shrinks: every answer says how large it is
 * ({@link WorkerAnswer}), and the sandbox replaces a worker whose memory grew (`sandbox.ts`).
 */
import { createHash, createHmac } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { CodeJob, CodeReply, WorkerAnswer } from './protocol';
import { codeSyntaxError } from './syntax';

/** Longest console output kept, in lines and characters per line. */
const LOG_LINES = 100;
const LOG_CHARS = 2000;

/** A WebAssembly page, in bytes. */
const PAGE_BYTES = 65536;

/** The part of a `WebAssembly.Memory` used here (the compiler's libraries here do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(delta: number): number;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => WasmMemory } })
  .WebAssembly;

/** The module's memory, whose growth stops at a ceiling set per job. */
interface LimitedMemory {
  memory: WasmMemory;
  /** Lets the memory grow up to `bytes` (Infinity: no ceiling of ours). */
  setCeiling(bytes: number): void;
}

/**
 * A WebAssembly memory of 16 MiB (the build's default) up to 2 GiB, whose `grow` throws past the
 * ceiling: emscripten's heap resize catches that and reports the allocation as failed.
 */
function limitedMemory(): LimitedMemory {
  const memory = new Memory({ initial: 256, maximum: 32768 });
  let ceiling = Infinity;
  const grow = memory.grow.bind(memory);
  memory.grow = (delta: number) => {
    if (memory.buffer.byteLength + delta * PAGE_BYTES > ceiling) throw new RangeError('the code step memory limit is reached');
    return grow(delta);
  };
  return { memory, setCeiling: (bytes) => (ceiling = bytes) };
}

/**
 * A fresh runtime and context with the helpers installed, made while the worker waits for its
 * next job (so a job does not wait for them); `logs` collects what the job's code prints.
 */
interface Prepared {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  logs: string[];
}

/**
 * Makes the runtime and context of the next job.
 * @throws Error when QuickJS failed.
 */
function prepare(module: QuickJSWASMModule): Prepared {
  const runtime = module.newRuntime();
  runtime.setMaxStackSize(512 * 1024);
  const context = runtime.newContext();
  const logs: string[] = [];
  installConsole(context, logs);
  installCrypto(context);
  return { runtime, context, logs };
}

/**
 * Frees a job's runtime.
 * @throws Error when QuickJS aborts (an assertion on objects left behind): the module may not be used again.
 */
function release(prepared: Prepared): void {
  prepared.context.dispose();
  prepared.runtime.dispose();
}

/**
 * Runs `job` to completion in `prepared` and says how it ended; `broken` when QuickJS itself
 * failed (an emscripten abort, or the thread's stack running out inside it): the module may not
 * be used again.
 */
function runJob(prepared: Prepared, memory: LimitedMemory, job: CodeJob): { reply: CodeReply; broken: boolean } {
  memory.setCeiling(memory.memory.buffer.byteLength + job.memoryBytes);
  try {
    prepared.runtime.setMemoryLimit(job.memoryBytes);
    return { reply: evaluate(prepared, job), broken: false };
  } catch (error) {
    return {
      reply: { ok: false, code: 'CODE_MEMORY', message: `the code sandbox failed (${(error as Error).message})`, logs: [] },
      broken: true,
    };
  } finally {
    memory.setCeiling(Infinity);
  }
}

/**
 * Evaluates `job` in its prepared runtime and context (released by the caller).
 * @throws Error when QuickJS failed (an abort, a stack overflow of the thread inside it).
 */
function evaluate({ runtime, context, logs }: Prepared, job: CodeJob): CodeReply {
  const deadline = Date.now() + job.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const lines = job.code.split('\n').length;
  const json = context.newString(JSON.stringify(job.variables));
  context.setProp(context.global, '__variables', json);
  json.dispose();
  // The author's code is the body of an async function: `return` gives the output, `await` works on promises it makes.
  const source =
    `(async function () { const { input, trigger, steps, run } = JSON.parse(globalThis.__variables); delete globalThis.__variables;\n${job.code}\n})()` +
    `.then((v) => { const json = JSON.stringify(v === undefined ? null : v); if (json === undefined) throw new TypeError('the returned value is not JSON'); return json; })`;
  const evaluated = context.evalCode(source, 'code-step.js', { strict: true });
  if (evaluated.error) return failure(context, evaluated.error, deadline, logs, lines);
  const promise = evaluated.value;
  try {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return failure(context, jobs.error, deadline, logs, lines);
    const state = context.getPromiseState(promise);
    if (state.type === 'pending')
      return {
        ok: false,
        code: 'CODE_ERROR',
        message: 'the code awaited a promise that never settles (code steps have no timers or network)',
        logs,
      };
    if (state.type === 'rejected') return failure(context, state.error, deadline, logs, lines);
    const text = context.getString(state.value);
    state.value.dispose();
    if (text.length > job.maxOutputChars)
      return {
        ok: false,
        code: 'CODE_ERROR',
        message: `the returned value is ${text.length} characters of JSON; at most ${job.maxOutputChars} are allowed`,
        logs,
      };
    return { ok: true, output: text, logs };
  } finally {
    promise.dispose();
  }
}

/** `console.log/info/warn/error` that keep what they print, bounded. */
function installConsole(context: QuickJSContext, logs: string[]): void {
  const console = context.newObject();
  for (const level of ['log', 'info', 'warn', 'error']) {
    const fn = context.newFunction(level, (...args: QuickJSHandle[]) => {
      if (logs.length >= LOG_LINES) return;
      const text = args.map((a) => (context.typeof(a) === 'string' ? context.getString(a) : JSON.stringify(context.dump(a)))).join(' ');
      logs.push(text.length > LOG_CHARS ? `${text.slice(0, LOG_CHARS)}…` : text);
    });
    context.setProp(console, level, fn);
    fn.dispose();
  }
  context.setProp(context.global, 'console', console);
  console.dispose();
}

/**
 * `crypto.hash(algorithm, text, encoding?)`, `crypto.hmac(algorithm, key, text, encoding?)`
 * (algorithms `sha1`, `sha256`, `sha512`, `md5`; encoding `hex` by default or `base64`), and
 * `btoa`/`atob` (UTF-8 text to base64 and back): computed by the host, the inputs being text.
 */
function installCrypto(context: QuickJSContext): void {
  const text = (h: QuickJSHandle | undefined) => (h === undefined ? '' : context.getString(h));
  const algorithmOf = (h: QuickJSHandle | undefined) => {
    const name = text(h).toLowerCase();
    if (!HASHES.has(name)) throw new Error(`unknown algorithm '${name}' (use ${[...HASHES].join(', ')})`);
    return name;
  };
  const encodingOf = (h: QuickJSHandle | undefined) =>
    h === undefined || context.typeof(h) === 'undefined' ? 'hex' : text(h) === 'base64' ? 'base64' : 'hex';
  const call = (name: string, body: (...args: QuickJSHandle[]) => string) =>
    context.newFunction(name, (...args) => {
      try {
        return context.newString(body(...args));
      } catch (error) {
        return { error: context.newError((error as Error).message) };
      }
    });
  const crypto = context.newObject();
  const hash = call('hash', (a, t, e) => createHash(algorithmOf(a)).update(text(t)).digest(encodingOf(e)));
  const hmac = call('hmac', (a, k, t, e) => createHmac(algorithmOf(a), text(k)).update(text(t)).digest(encodingOf(e)));
  const btoa = call('btoa', (t) => Buffer.from(text(t), 'utf8').toString('base64'));
  const atob = call('atob', (t) => Buffer.from(text(t), 'base64').toString('utf8'));
  context.setProp(crypto, 'hash', hash);
  context.setProp(crypto, 'hmac', hmac);
  context.setProp(context.global, 'crypto', crypto);
  context.setProp(context.global, 'btoa', btoa);
  context.setProp(context.global, 'atob', atob);
  for (const h of [hash, hmac, btoa, atob, crypto]) h.dispose();
}

/** Hash algorithms a code step may use. */
const HASHES = new Set(['sha1', 'sha256', 'sha512', 'md5']);

/** The failure of a job from the error value QuickJS gave. */
function failure(context: QuickJSContext, handle: QuickJSHandle, deadline: number, logs: string[], lines: number): CodeReply {
  const error = context.dump(handle) as { name?: string; message?: string; stack?: string } | string;
  handle.dispose();
  const name = typeof error === 'object' && error ? error.name : undefined;
  const message = typeof error === 'object' && error ? (error.message ?? String(error)) : String(error);
  if (name === 'InternalError' && /interrupted/i.test(message) && Date.now() >= deadline) {
    return { ok: false, code: 'CODE_TIMEOUT', message: 'the code ran longer than its time limit', logs };
  }
  if (name === 'InternalError' && /out of memory|stack overflow/i.test(message))
    return {
      ok: false,
      code: 'CODE_MEMORY',
      message: `the code ${/stack/i.test(message) ? 'overflowed its stack' : 'ran out of memory'}`,
      logs,
    };
  if (/out of memory/i.test(message)) return { ok: false, code: 'CODE_MEMORY', message: 'the code ran out of memory', logs };
  const where = typeof error === 'object' && error?.stack ? /code-step\.js:(\d+)/.exec(error.stack) : null;
  // Line 1 of the source is the wrapper's; the author's code starts on line 2.
  const at = where ? Number(where[1]) - 1 : 0;
  const line = at >= 1 && at <= lines ? ` (line ${at})` : '';
  return { ok: false, code: 'CODE_ERROR', message: `${name ?? 'Error'}: ${message}${line}`, logs };
}

/**
 * Loads QuickJS into a memory of its own and answers jobs until the thread is ended. The reply
 * goes out before the job's runtime is freed and the next one made, unless the job left work
 * behind (pending promise jobs: freeing that runtime is where QuickJS may abort). A broken
 * module answers the jobs it gets `notRun`, for the sandbox to run them on a fresh worker.
 */
function main(): void {
  const memory = limitedMemory();
  newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: memory.memory as never })).then(
    (module) => {
      let broken = false;
      let next: Prepared | undefined;
      const post = (answer: Omit<WorkerAnswer, 'heapBytes'>) =>
        parentPort!.postMessage({ ...answer, heapBytes: memory.memory.buffer.byteLength });
      const refill = () => {
        try {
          next = prepare(module);
        } catch {
          broken = true;
        }
      };
      const free = (used: Prepared) => {
        try {
          release(used);
        } catch {
          broken = true;
        }
      };
      parentPort!.on('message', (job: CodeJob) => {
        if (broken || !next)
          return post({
            reply: { ok: false, code: 'CODE_MEMORY', message: 'the code sandbox failed', logs: [] },
            broken: true,
            notRun: true,
          });
        const syntax = codeSyntaxError(job.code);
        if (syntax) return post({ reply: { ok: false, code: 'CODE_ERROR', message: `SyntaxError: ${syntax}`, logs: [] }, broken: false });
        const used = next;
        next = undefined;
        const ran = runJob(used, memory, job);
        broken ||= ran.broken;
        if (broken || used.runtime.hasPendingJob()) {
          if (!broken) free(used);
          post({ reply: ran.reply, broken });
          if (!broken) refill();
          return;
        }
        post(ran);
        free(used);
        if (!broken) refill();
      });
      refill();
      parentPort!.postMessage({ ready: true, heapBytes: memory.memory.buffer.byteLength });
    },
    (error: Error) => parentPort!.postMessage({ message: `the code sandbox did not load: ${error.message}` }),
  );
}

main();
