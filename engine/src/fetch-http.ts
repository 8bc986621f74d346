/**
 * An {@link Http} over Node's built-in `fetch`, for standalone use. No SSRF guard: a host that
 * runs automations written by others should supply its own guarded implementation (the server
 * does). Redirects are followed only when the step asks (`maxRedirects`), hop by hop: a hop that
 * leaves the first URL's origin keeps only the safe headers ({@link crossOriginHeaders}), and
 * 303 (or 301/302 after a POST) continues as a GET without a body.
 */
import { ActionError } from './errors';
import type { Http, HttpRequest, HttpResponse } from './ports';
import { crossOriginHeaders } from './redaction';

/** Options of {@link fetchHttp}. */
export interface FetchHttpOptions {
  /** Largest response body accepted, in bytes (default 1 MiB); larger is a permanent failure. */
  maxResponseBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Creates an {@link Http} over global `fetch`. */
export function fetchHttp(options: FetchHttpOptions = {}): Http {
  const max = options.maxResponseBytes ?? 1024 * 1024;
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      // Media live in the host's store; a standalone host has none to read file parts from.
      if (req.multipart) throw new ActionError('NOT_SUPPORTED', 'multipart bodies need a host that reads workspace media', false);
      const signal = req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]) : AbortSignal.timeout(req.timeoutMs);
      const origin = new URL(req.url).origin;
      let hop = { method: req.method, url: req.url, headers: { ...req.headers }, body: req.body };
      for (let hops = 0; ; hops++) {
        const init: RequestInit = { method: hop.method, headers: hop.headers, redirect: 'manual', signal };
        if (hop.body !== undefined) init.body = hop.body;
        const res = await fetch(hop.url, init);
        const location = res.headers.get('location');
        if (req.maxRedirects && REDIRECTS.has(res.status) && location !== null) {
          if (hops >= req.maxRedirects)
            throw new ActionError('TOO_MANY_REDIRECTS', `${req.url} redirected more than ${req.maxRedirects} times`, false);
          await res.body?.cancel();
          let url: URL;
          try {
            url = new URL(location, hop.url);
          } catch {
            throw new ActionError('INVALID_URL', `a redirect to '${location.slice(0, 200)}', which is not a URL`, false);
          }
          if (url.protocol !== 'http:' && url.protocol !== 'https:')
            throw new ActionError('INVALID_URL', `a redirect to a ${url.protocol} URL`, false);
          const headers = url.origin === origin ? { ...hop.headers } : crossOriginHeaders(hop.headers);
          const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && hop.method === 'POST');
          if (toGet) for (const name of Object.keys(headers)) if (/^content-(type|length)$/i.test(name)) delete headers[name];
          hop = {
            method: toGet && hop.method !== 'HEAD' ? 'GET' : hop.method,
            url: url.toString(),
            headers,
            body: toGet ? undefined : hop.body,
          };
          continue;
        }
        const headers: Record<string, string> = {};
        res.headers.forEach((value, key) => (headers[key] = value));
        const buffer = Buffer.from(await res.arrayBuffer());
        const limit = req.maxResponseBytes ?? max;
        if (buffer.length > limit) throw new ActionError('RESPONSE_TOO_LARGE', `response body exceeds ${limit} bytes`, false);
        return {
          status: res.status,
          headers,
          body: buffer.toString('utf8'),
          ...(req.responseBytes ? { bytes: new Uint8Array(buffer) } : {}),
          ...(hops > 0 ? { url: hop.url } : {}),
        };
      }
    },
  };
}
