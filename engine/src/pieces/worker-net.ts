/**
 * The network of a piece worker (docs/integrations.md "Running pieces"): every HTTP request a
 * piece makes — global `fetch`, `http.request`/`http.get`, `https.request`/`https.get` (what
 * axios, follow-redirects and SDKs use) — is sent to the pool as a message and made by the host's
 * {@link Http} port, which applies the SSRF guard and the address allow-list of the HTTP step.
 * Raw sockets (`net`, `tls`), child processes and nested workers are refused, so nothing leaves
 * the worker around the guard. Bodies travel as bytes both ways (a file a piece uploads or
 * downloads arrives unchanged); a response is the host's, up to its 1 MiB limit.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable, Writable } from 'node:stream';
import type { HttpResponse } from '../ports';

/** Sends one request to the pool; resolves to its response, rejects with the guard's or the network's error. */
export type Forward = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  maxRedirects?: number;
  responseBytes: true;
}) => Promise<HttpResponse>;

/** The bytes of a forwarded response (the host answers them, as every shim asks). */
function responseBytes(response: HttpResponse): Buffer {
  return response.bytes
    ? Buffer.from(response.bytes.buffer, response.bytes.byteOffset, response.bytes.byteLength)
    : Buffer.from(response.body, 'utf8');
}

/** Headers the shims never send: the host's client decides the encoding and the connection. */
const DROPPED = new Set(['accept-encoding', 'connection', 'content-length', 'host', 'transfer-encoding', 'keep-alive']);

function cleanHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED.has(name.toLowerCase())) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** Response headers the shims do not pass on (the host has already decoded the body). */
const RESPONSE_DROPPED = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

/** A `fetch` that forwards to the pool. */
function guardedFetch(forward: Forward): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const response = await forward({
      method: request.method,
      url: request.url,
      headers: cleanHeaders(headers),
      ...(body !== undefined ? { body } : {}),
      maxRedirects: request.redirect === 'follow' ? 5 : 0,
      responseBytes: true,
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (!RESPONSE_DROPPED.has(name)) out.set(name, value);
    const empty = [101, 204, 205, 304].includes(response.status) || request.method === 'HEAD';
    return new Response(empty ? null : responseBytes(response), { status: response.status, headers: out });
  };
}

/** The URL and options of an `http.request(url?, options?, callback?)` call. */
function requestTarget(
  protocol: string,
  args: unknown[],
): { url: string; method: string; headers: Record<string, string>; callback?: (res: unknown) => void } {
  let url: URL | undefined;
  let options: Record<string, unknown> = {};
  let callback: ((res: unknown) => void) | undefined;
  for (const arg of args) {
    if (typeof arg === 'string') url = new URL(arg);
    else if (arg instanceof URL) url = arg;
    else if (typeof arg === 'function') callback = arg as (res: unknown) => void;
    else if (arg && typeof arg === 'object') options = arg as Record<string, unknown>;
  }
  if (!url) {
    const proto = typeof options.protocol === 'string' ? options.protocol : protocol;
    const host = String(options.hostname ?? options.host ?? 'localhost').replace(/:\d+$/, '');
    const port = options.port ? `:${String(options.port)}` : '';
    const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    url = new URL(`${proto}//${bracketed}${port}${typeof options.path === 'string' ? options.path : '/'}`);
  }
  const headers = cleanHeaders((options.headers as Record<string, unknown>) ?? {});
  if (typeof options.auth === 'string' && !headers.authorization)
    headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  return { url: url.toString(), method: String(options.method ?? 'GET').toUpperCase(), headers, callback };
}

/** A socket stand-in for the code that listens to a request's `socket` event (keep-alive, timeouts). */
class FakeSocket extends EventEmitter {
  readonly remoteAddress = undefined;
  setKeepAlive(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  destroy(): this {
    return this;
  }
}

/** A `ClientRequest` stand-in: collects the body, forwards the request on `end()`, emits the response as an `IncomingMessage`-like stream. */
class ForwardedRequest extends Writable {
  private readonly chunks: Buffer[] = [];
  private readonly headerTable: Record<string, string>;
  readonly socket = new FakeSocket();
  aborted = false;
  reusedSocket = false;
  readonly path: string;
  readonly host: string;
  readonly protocol: string;

  constructor(
    private readonly forward: Forward,
    private readonly target: ReturnType<typeof requestTarget>,
  ) {
    // Not destroyed when the body is written: the response comes after `finish`.
    super({ autoDestroy: false });
    this.headerTable = { ...target.headers };
    const u = new URL(target.url);
    this.path = u.pathname + u.search;
    this.host = u.hostname;
    this.protocol = u.protocol;
    if (target.callback) this.once('response', target.callback);
    process.nextTick(() => this.emit('socket', this.socket));
  }

  get method(): string {
    return this.target.method;
  }
  setHeader(name: string, value: unknown): this {
    if (!DROPPED.has(name.toLowerCase())) this.headerTable[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }
  getHeader(name: string): string | undefined {
    return this.headerTable[name.toLowerCase()];
  }
  getHeaders(): Record<string, string> {
    return { ...this.headerTable };
  }
  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.headerTable;
  }
  removeHeader(name: string): void {
    delete this.headerTable[name.toLowerCase()];
  }
  setTimeout(_ms: number, callback?: () => void): this {
    if (callback) this.once('timeout', callback);
    return this;
  }
  setNoDelay(): void {}
  setSocketKeepAlive(): void {}
  flushHeaders(): void {}
  abort(): void {
    this.aborted = true;
    this.destroy();
  }

  override _write(chunk: unknown, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding));
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    done();
    const body = this.chunks.length > 0 ? new Uint8Array(Buffer.concat(this.chunks)) : undefined;
    this.forward({
      method: this.target.method,
      url: this.target.url,
      headers: this.headerTable,
      ...(body !== undefined ? { body } : {}),
      maxRedirects: 0,
      responseBytes: true,
    }).then(
      (response) => {
        if (this.aborted) return;
        const res = new Readable({ read() {} }) as Readable & Record<string, unknown>;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (!RESPONSE_DROPPED.has(name)) headers[name] = value;
        Object.assign(res, {
          statusCode: response.status,
          statusMessage: http.STATUS_CODES[response.status] ?? '',
          headers,
          rawHeaders: Object.entries(headers).flat(),
          httpVersion: '1.1',
          httpVersionMajor: 1,
          httpVersionMinor: 1,
          socket: this.socket,
          connection: this.socket,
          req: this,
          complete: true,
          aborted: false,
        });
        res.setTimeout = () => res;
        this.emit('response', res);
        res.push(responseBytes(response));
        res.push(null);
        res.once('end', () => this.emit('close'));
      },
      (error: unknown) => {
        if (!this.aborted) this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }
}

/** Replaces the worker's network entry points (see the module comment). Call once, before any piece loads. */
export function installNetworkShims(forward: Forward): void {
  globalThis.fetch = guardedFetch(forward);
  for (const [module, protocol] of [
    [http, 'http:'],
    [https, 'https:'],
  ] as const) {
    const request = (...args: unknown[]) => new ForwardedRequest(forward, requestTarget(protocol, args));
    const get = (...args: unknown[]) => {
      const req = request(...args);
      req.end();
      return req;
    };
    Object.assign(module, { request, get });
  }
  const refuse = (what: string) =>
    function refused(): never {
      throw new Error(`NOT_SUPPORTED: pieces may not use ${what} (only HTTP through the host's guard)`);
    };
  net.Socket.prototype.connect = function connect(this: net.Socket) {
    process.nextTick(() =>
      this.destroy(new Error("NOT_SUPPORTED: pieces may not open raw network connections (only HTTP through the host's guard)")),
    );
    return this;
  } as typeof net.Socket.prototype.connect;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the modules' objects are patched in place, for pieces that require them later
  const childProcess = require('node:child_process') as Record<string, unknown>;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
    childProcess[name] = refuse('child processes');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const threads = require('node:worker_threads') as Record<string, unknown>;
  threads.Worker = refuse('worker threads');
}
