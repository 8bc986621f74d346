/**
 * HTTP Request: GET, POST, PUT, PATCH, DELETE, HEAD with templated URL, query, headers and a
 * JSON, form or raw (text, XML...) body, through the host's {@link Http} port (the server's
 * applies the SSRF guard, at every redirect hop when `followRedirects` is on).
 * Output: `{status, headers, body, url?}`; `body` is parsed when the response is JSON; `url` is
 * the address that answered when a redirect led elsewhere.
 * With `failOnHttpError` (default true), 408, 429 and 5xx are transient failures (retried on the
 * shared policy of `retry.ts`, honouring `Retry-After`) and other 4xx permanent ones.
 */
import type { HttpRequestAction } from '../definition';
import { ActionError, permanent } from '../errors';
import type { HttpRequest } from '../ports';
import { redactHeaders, redactUrl } from '../redaction';
import { isTransientStatus, parseRetryAfter } from '../retry';
import type { ActionKind } from './types';

/** Default per-attempt timeout of an HTTP request, in ms. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** Redirects followed by default when `followRedirects` is on. */
export const DEFAULT_MAX_REDIRECTS = 5;

/** Longest response body text kept in a failed step's error details, in characters. */
const ERROR_BODY_CHARS = 2000;

function parseBody(contentType: string | undefined, text: string): unknown {
  if (contentType && /[/+]json\b/i.test(contentType) && text !== '') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The `http.request` kind. */
export const HTTP_ACTION: ActionKind<HttpRequestAction, HttpRequest> = {
  prepare(a, s, t) {
    let url: URL;
    const rendered = t.render(a.url, s, 'url').trim();
    try {
      url = new URL(rendered);
    } catch {
      throw permanent('INVALID_URL', `url '${rendered}' is not an absolute URL`, { field: 'url' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw permanent('INVALID_URL', `url must be http or https, got ${url.protocol}`, { field: 'url' });
    for (const [k, v] of Object.entries(a.query ?? {})) url.searchParams.append(k, t.render(v, s, `query.${k}`));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(a.headers ?? {})) {
      const value = t.render(v, s, `headers.${k}`);
      if (/[\r\n]/.test(value)) throw permanent('INVALID_INPUT', `header '${k}' must not contain line breaks`, { field: `headers.${k}` });
      headers[k.toLowerCase()] = value;
    }
    let body: string | undefined;
    if (a.body?.type === 'json') {
      body = JSON.stringify(t.renderValue(a.body.value, s, 'body.value') ?? null);
      headers['content-type'] ??= 'application/json';
    } else if (a.body?.type === 'form') {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(a.body.fields)) form.append(k, t.render(v, s, `body.fields.${k}`));
      body = form.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (a.body?.type === 'raw') {
      body = t.render(a.body.value, s, 'body.value');
      headers['content-type'] ??= a.body.contentType ?? 'text/plain; charset=utf-8';
    }
    if (body !== undefined && (a.method === 'GET' || a.method === 'HEAD')) {
      throw permanent('INVALID_INPUT', `a ${a.method} request has no body`, { field: 'body' });
    }
    const request: HttpRequest = { method: a.method, url: url.toString(), headers, timeoutMs: a.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS };
    if (body !== undefined) request.body = body;
    if (a.followRedirects) request.maxRedirects = a.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    return request;
  },

  // The journal hides credentials with the shared rule of `redaction.ts`.
  journalInput(p) {
    const headers = redactHeaders(p.headers);
    let body: unknown = p.body;
    if (p.body !== undefined && (p.headers['content-type'] ?? '').includes('json')) body = parseBody('application/json', p.body);
    return { method: p.method, url: redactUrl(p.url), headers, ...(body === undefined ? {} : { body }) };
  },

  async execute(ctx, p, a) {
    const response = await ctx.http.request(ctx.signal ? { ...p, signal: ctx.signal } : p);
    // Response headers that carry credentials (`Set-Cookie`, `X-API-Key`…) are recorded redacted by name.
    const output: Record<string, unknown> = {
      status: response.status,
      headers: redactHeaders(response.headers),
      body: parseBody(response.headers['content-type'], response.body),
    };
    if (response.url !== undefined && response.url !== p.url) output.url = redactUrl(response.url);
    if (a.failOnHttpError !== false && response.status >= 400) {
      const transient = isTransientStatus(response.status);
      const details = { status: response.status, body: response.body.slice(0, ERROR_BODY_CHARS) };
      const extra: { status: number; details: unknown; retryAfterMs?: number } = { status: response.status, details };
      const after = parseRetryAfter(response.headers['retry-after'], ctx.clock.now());
      if (after !== undefined) extra.retryAfterMs = after;
      throw new ActionError('HTTP_STATUS', `${p.method} ${p.url} answered ${response.status}`, transient, extra);
    }
    return output;
  },
};
