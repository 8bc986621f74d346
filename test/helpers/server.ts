import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { buildApp, type BuildOptions, type BuiltApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import type { Clock } from '../../server/src/platform/clock';
import { main as cli } from '../../server/src/cli';
import { onPostgres, storeEnv } from './test-store';

/** Token of the bootstrap owner in every test server. */
export const OWNER_TOKEN = 'tsk_test_owner_token';

/** A real server listening on 127.0.0.1 with a random port and its own data directory. */
export interface TestServer {
  url: string;
  dataDir: string;
  /** The bootstrap owner's token. */
  token: string;
  /** The bootstrap workspace (its id is also its home folder's id). */
  workspaceId: string;
  built: BuiltApp;
  close(): Promise<void>;
}

/**
 * A fresh temporary data directory. Under jest it is made inside the run's temporary folder
 * (`os.tmpdir()` points there, see helpers/temp-run.ts), which the global teardown removes with
 * everything in it; it is kept until then, so a test can restart a server on the same directory.
 */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-test-'));
}

/**
 * Starts the real server in-process on port 0. `env` overrides configuration variables;
 * `dataDir` reuses an existing data directory (a restart on the same file); `clock` replaces the wall clock;
 * `kinds` adds trigger and action kinds (a fixture kind).
 */
export async function startServer(
  opts: { env?: Record<string, string>; dataDir?: string; clock?: Clock; kinds?: BuildOptions['kinds'] } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const config = loadConfig({
    TASKSPACE_DATA_DIR: dataDir,
    ...storeEnv(dataDir),
    PORT: '0',
    HOST: '127.0.0.1',
    TASKSPACE_LOG_LEVEL: 'silent',
    TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
    ...opts.env,
  });
  const built = await buildApp({ config, clock: opts.clock, kinds: opts.kinds });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server did not bind');
  const url = `http://127.0.0.1:${address.port}`;
  const { body } = await call(url, 'GET', '/api/v1/workspaces', { token: OWNER_TOKEN });
  const workspaceId = (body as { items: { id: string }[] }).items[0]!.id;
  return { url, dataDir, token: OWNER_TOKEN, workspaceId, built, close: () => built.app.close() };
}

/** A response as tests see it. */
export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** Sends one request over a real socket; JSON bodies are encoded and JSON replies parsed. */
export async function call<T = any>(
  base: string,
  method: string,
  urlPath: string,
  opts: { token?: string | null; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(base + urlPath, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown = text;
  if ((res.headers['content-type'] ?? '').toString().includes('json') && text) parsed = JSON.parse(text);
  return { status: res.statusCode, headers: res.headers, body: parsed as T };
}

/** A bound client for one server and token. */
export function client(server: { url: string }, token: string | null) {
  return {
    get: <T = any>(p: string) => call<T>(server.url, 'GET', p, { token }),
    delete: <T = any>(p: string) => call<T>(server.url, 'DELETE', p, { token }),
    post: <T = any>(p: string, body?: unknown) => call<T>(server.url, 'POST', p, { token, body }),
    put: <T = any>(p: string, body?: unknown) => call<T>(server.url, 'PUT', p, { token, body }),
    patch: <T = any>(p: string, body?: unknown) => call<T>(server.url, 'PATCH', p, { token, body }),
  };
}

/** Runs the admin CLI (`npx taskspace ...`) against a data directory; returns its exit code and output. */
export function runCli(dataDir: string, ...args: string[]): { code: number; out: string; err: string } {
  return runCliWithInput(dataDir, '', ...args);
}

/**
 * {@link runCli} with `input` as the first line of its standard input (what `user set-password`
 * reads). On PostgreSQL the CLI waits on the driver, so the built CLI runs in a child process.
 */
export function runCliWithInput(dataDir: string, input: string, ...args: string[]): { code: number; out: string; err: string } {
  if (onPostgres()) {
    const child = spawnSync(process.execPath, [path.resolve(__dirname, '../../server/bin/taskspace.js'), ...args], {
      env: { ...process.env, TASKSPACE_DATA_DIR: dataDir, ...storeEnv(dataDir) },
      input: `${input}\n`,
      encoding: 'utf8',
    });
    return { code: child.status ?? 1, out: child.stdout.trimEnd(), err: child.stderr.trimEnd() };
  }
  const out: string[] = [];
  const err: string[] = [];
  const code = cli(
    args,
    { TASKSPACE_DATA_DIR: dataDir },
    (l) => out.push(l),
    (l) => err.push(l),
    () => input,
  );
  if (typeof code !== 'number') throw new TypeError('the CLI returned a promise on the SQLite file');
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * Creates a user through the CLI, adds them to `workspaceId` with `role` (when given) and
 * returns a fresh token for them.
 */
export function addUser(
  server: { dataDir: string },
  handle: string,
  opts: { workspaceId?: string; role?: string; plan?: string; tier?: string; verified?: boolean } = {},
): string {
  const args = ['user', 'create', handle];
  if (opts.plan) args.push('--plan', opts.plan);
  if (opts.tier) args.push('--tier', opts.tier);
  if (opts.verified) args.push('--verified');
  const created = runCli(server.dataDir, ...args);
  if (created.code !== 0) throw new Error(created.err);
  if (opts.workspaceId && opts.role) {
    const added = runCli(server.dataDir, 'member', 'add', opts.workspaceId, handle, opts.role);
    if (added.code !== 0) throw new Error(added.err);
  }
  const token = runCli(server.dataDir, 'token', 'create', handle);
  const match = /token \(shown once\): (\S+)/.exec(token.out);
  if (!match) throw new Error(token.err || token.out);
  return match[1]!;
}

/** A server in a child process (`node server/dist/main.js`), for restart and SIGKILL tests. Build first (`npm test` does). */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends `signal` and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A server process that may not listen yet (a standby waits for its database first). */
export interface LaunchedServer extends Omit<ChildServer, 'url'> {
  /** Resolves to the server's URL once it listens; rejects if it exits first. */
  listening: Promise<string>;
  /** Resolves to the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** Starts `server/dist/main.js` on a free port with `dataDir`, without waiting for it to listen. */
export function launchServer(dataDir: string, env: Record<string, string> = {}): LaunchedServer {
  const main = path.resolve(__dirname, '../../server/dist/main.js');
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      TASKSPACE_DATA_DIR: dataDir,
      ...storeEnv(dataDir),
      TASKSPACE_LOG_LEVEL: 'warn',
      TASKSPACE_BOOTSTRAP_TOKEN: OWNER_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  // A caller that never waits for it must not see an unhandled rejection.
  listening.catch(() => undefined);
  return {
    child,
    listening,
    exited,
    output: () => output,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Starts `server/dist/main.js` on a free port with `dataDir` and waits until it listens. */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const launched = launchServer(dataDir, env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not start: ${launched.output()}`)), 20000);
  });
  try {
    const url = await Promise.race([launched.listening, timeout]);
    return { url, child: launched.child, output: launched.output, stop: launched.stop };
  } catch (error) {
    await launched.stop('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
