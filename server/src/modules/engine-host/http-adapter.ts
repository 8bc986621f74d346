import { ActionError, crossOriginHeaders, type Http, type HttpRequest, type HttpResponse } from '@taskspace/engine';
import { BlockedTargetError, GuardedHttp, type GuardPolicy } from '../../platform/guarded-http';
import type { MediaReader } from './http-media';

/** The statuses whose `Location` a request following redirects goes to. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One request of a chain of redirects. */
interface Hop {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/**
 * The request a redirect leads to: the `Location` resolved against the URL that answered;
 * 303 (and 301/302 after a POST) becomes a GET without a body; once the chain leaves `origin`
 * only the safe headers of `crossOriginHeaders` go on.
 * @throws ActionError INVALID_URL (permanent) for a Location that is not an http(s) URL.
 */
function nextHop(hop: Hop, status: number, location: string, origin: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new ActionError('INVALID_URL', `a redirect to '${location.slice(0, 200)}', which is not a URL`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ActionError('INVALID_URL', `a redirect to a ${url.protocol} URL`, false);
  // Off the first URL's origin only the safe headers go on (Accept, Content-Type…): a key in any header is dropped.
  const headers = url.origin === origin ? { ...hop.headers } : crossOriginHeaders(hop.headers);
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  if (!toGet) return { ...hop, url: url.toString(), headers };
  delete headers['content-type'];
  delete headers['content-length'];
  return { method: hop.method === 'HEAD' ? 'HEAD' : 'GET', url: url.toString(), headers };
}

/** Largest response body a request accepts by default, in bytes (1 MiB; `HttpRequest.maxResponseBytes` sets another); larger fails the step (permanent). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Largest multipart request body an HTTP Request action sends, in bytes (25 MiB, text fields and files together). */
export const MAX_MULTIPART_BYTES = 25 * 1024 * 1024;

/**
 * Encodes a multipart body (RFC 7578) with the platform's `FormData`: text fields as they are,
 * file parts with the media's bytes, content type and name (or the part's `filename`).
 * @throws ActionError NOT_SUPPORTED without a media reader for file parts; PAYLOAD_TOO_LARGE past
 *   {@link MAX_MULTIPART_BYTES}; MEDIA_NOT_FOUND from the reader.
 */
async function encodeMultipart(req: HttpRequest, media: MediaReader | undefined): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  let size = 0;
  for (const part of req.multipart ?? []) {
    if ('value' in part) {
      size += Buffer.byteLength(part.value);
      form.append(part.name, part.value);
    } else {
      if (!media || !req.onBehalfOf) throw new ActionError('NOT_SUPPORTED', 'file parts need the workspace media store', false);
      const file = await media(req.onBehalfOf, part.mediaId, MAX_MULTIPART_BYTES - size);
      size += file.bytes.length;
      form.append(part.name, new Blob([file.bytes], { type: file.contentType }), part.filename ?? file.name);
    }
    if (size > MAX_MULTIPART_BYTES)
      throw new ActionError('PAYLOAD_TOO_LARGE', `the multipart body exceeds ${MAX_MULTIPART_BYTES} bytes`, false);
  }
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/**
 * The engine's {@link Http} port: undici through the same SSRF guard as webhook delivery
 * (`platform/guarded-http.ts`): https only and no loopback/private/link-local/metadata targets,
 * unless the development switch `TASKSPACE_WEBHOOKS_ALLOW_INSECURE=1` is on (or the address is
 * listed in `TASKSPACE_WEBHOOKS_ALLOW_ADDRESSES`). Redirects are followed only when the step asks,
 * each hop through the guard again. A refused target
 * is a permanent `BLOCKED_TARGET` failure; network errors and timeouts are transient.
 */
export class GuardedHttpAdapter implements Http {
  private readonly guarded: GuardedHttp;

  /**
   * @param policy the app's address policy (`Services.addressPolicy`).
   * @param media reads workspace media for multipart file parts (without it they fail with `NOT_SUPPORTED`).
   */
  constructor(
    policy: GuardPolicy,
    private readonly media?: MediaReader,
  ) {
    this.guarded = new GuardedHttp(policy);
  }

  /**
   * Sends `req`; with `maxRedirects`, follows 301/302/303/307/308 answers up to that many hops,
   * each one resolved and checked by the SSRF guard again (a redirect to a refused address is a
   * permanent `BLOCKED_TARGET`). 303, and 301/302 after a POST, continue as a GET without a body,
   * as browsers do; when a hop leaves the first URL's origin every header the author set is dropped
   * but the safe ones (`crossOriginHeaders`: Accept, Content-Type, User-Agent…). A `multipart` body is encoded once, its media read as the
   * automation's owner from its workspace.
   * @throws ActionError BLOCKED_TARGET, RESPONSE_TOO_LARGE, TOO_MANY_REDIRECTS, INVALID_URL,
   *   MEDIA_NOT_FOUND, PAYLOAD_TOO_LARGE (permanent); network errors.
   */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const body = typeof req.body === 'string' || req.body === undefined ? req.body : Buffer.from(req.body);
    let hop: Hop = { method: req.method, url: req.url, headers: { ...req.headers }, ...(body !== undefined ? { body } : {}) };
    if (req.multipart) {
      const { body, contentType } = await encodeMultipart(req, this.media);
      hop = { ...hop, body, headers: { ...hop.headers, 'content-type': contentType } };
    }
    const origin = new URL(req.url).origin;
    for (let hops = 0; ; hops++) {
      const res = await this.once(hop, req);
      const location = res.headers.location;
      if (!req.maxRedirects || !REDIRECT_STATUSES.has(res.status) || location === undefined)
        return hops > 0 ? { ...res, url: hop.url } : res;
      if (hops >= req.maxRedirects)
        throw new ActionError('TOO_MANY_REDIRECTS', `${req.url} redirected more than ${req.maxRedirects} times`, false);
      hop = nextHop(hop, res.status, location, origin);
    }
  }

  private async once(hop: Hop, req: HttpRequest): Promise<HttpResponse> {
    let res;
    try {
      const init: Parameters<GuardedHttp['request']>[1] = {
        method: hop.method as 'GET',
        headers: hop.headers,
        timeoutMs: req.timeoutMs,
        maxResponseBytes: (req.maxResponseBytes ?? MAX_RESPONSE_BYTES) + 1,
      };
      if (hop.body !== undefined) init.body = hop.body;
      if (req.signal) init.signal = req.signal;
      res = await this.guarded.request(hop.url, init);
    } catch (error) {
      if (error instanceof BlockedTargetError) throw new ActionError('BLOCKED_TARGET', error.message, false);
      throw error;
    }
    const max = req.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    if (res.body.length > max) throw new ActionError('RESPONSE_TOO_LARGE', `the response body exceeds ${max} bytes`, false);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return {
      status: res.statusCode,
      headers,
      body: res.body.toString('utf8'),
      ...(req.responseBytes ? { bytes: new Uint8Array(res.body) } : {}),
    };
  }

  /** Closes pooled connections. */
  close(): Promise<void> {
    return this.guarded.close();
  }
}
