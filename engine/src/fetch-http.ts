/**
 * An {@link Http} over Node's built-in `fetch`, for standalone use. No SSRF guard: a host that
 * runs automations written by others should supply its own guarded implementation (the server
 * does). Redirects are not followed (the 3xx response is the output).
 */
import { ActionError } from './errors';
import type { Http, HttpRequest, HttpResponse } from './ports';

/** Options of {@link fetchHttp}. */
export interface FetchHttpOptions {
  /** Largest response body accepted, in bytes (default 1 MiB); larger is a permanent failure. */
  maxResponseBytes?: number;
}

/** Creates an {@link Http} over global `fetch`. */
export function fetchHttp(options: FetchHttpOptions = {}): Http {
  const max = options.maxResponseBytes ?? 1024 * 1024;
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      // Media live in the host's store; a standalone host has none to read file parts from.
      if (req.multipart) throw new ActionError('NOT_SUPPORTED', 'multipart bodies need a host that reads workspace media', false);
      const init: RequestInit = {
        method: req.method,
        headers: req.headers,
        redirect: req.maxRedirects ? 'follow' : 'manual',
        signal: req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]) : AbortSignal.timeout(req.timeoutMs),
      };
      if (req.body !== undefined) init.body = req.body;
      const res = await fetch(req.url, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, key) => (headers[key] = value));
      const buffer = Buffer.from(await res.arrayBuffer());
      if (buffer.length > max) throw new ActionError('RESPONSE_TOO_LARGE', `response body exceeds ${max} bytes`, false);
      return { status: res.status, headers, body: buffer.toString('utf8'), ...(res.redirected ? { url: res.url } : {}) };
    },
  };
}
