/**
 * `http.request`: GET, POST, PUT, PATCH, DELETE, HEAD with templated URL, query, headers and a
 * JSON, form, raw (text, XML...) or multipart (fields and workspace media as files,
 * `http-multipart.ts`) body, through the host's {@link Http} port (the server's applies
 * the SSRF guard, at every redirect hop when `followRedirects` is on, and to every page with
 * `pagination`).
 * Output: `{status, headers, body, url?}`; `body` is parsed when the response is JSON; `url` is
 * the address that answered when a redirect led elsewhere. With `pagination`
 * (`http-pagination.ts`): `{status, headers, body: [every page's items], pages}`.
 * With `failOnHttpError` (default true), 408, 429 and 5xx are transient failures (retried on the
 * shared policy of `retry.ts`, honouring `Retry-After`) and other 4xx permanent ones.
 */
import { Type } from '@sinclair/typebox';
import type { ActionKind } from '../../executor';
import { ActionError, permanent } from '../../../errors';
import { MultipartBodySchema, renderMultipart } from './http-multipart';
import { paginate, PaginationSchema, type HttpPagination } from './http-pagination';
import type { HttpRequest, HttpResponse } from '../../../ports';
import { redactHeaders, redactUrl } from '../../../redaction';
import { isTransientStatus, parseRetryAfter } from '../../../retry';
import { defineAction } from '../../kind';
import { Dict, Enum, JsonTemplate, OneOf, Template } from '../../parts';
import type { ActionOf } from '../../kind';

/** HTTP methods of the HTTP Request action. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
/** Default per-attempt timeout of an HTTP request, in ms. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** Redirects followed by default when `followRedirects` is on. */
export const DEFAULT_MAX_REDIRECTS = 5;
/** Longest response body text kept in a failed step's error details, in characters. */
const ERROR_BODY_CHARS = 2000;

const templates = (title: string, maxProperties: number) => Dict(Template({ title: 'Value' }), { maxProperties, title });

const parameters = Type.Object({
  method: Enum(HTTP_METHODS, { title: 'Method', default: 'GET' }),
  url: Type.String({
    minLength: 1,
    maxLength: 8000,
    title: 'URL',
    'x-editor': 'template',
    examples: ['https://api.example.com/items/{{ trigger.nodeId }}'],
  }),
  query: Type.Optional(templates('Query parameters', 100)),
  headers: Type.Optional(templates('Headers', 100)),
  body: Type.Optional(
    OneOf(
      [
        Type.Object(
          { type: Type.Literal('json', { title: 'Body type' }), value: JsonTemplate({ title: 'JSON' }) },
          { additionalProperties: false, title: 'JSON' },
        ),
        Type.Object(
          { type: Type.Literal('form', { title: 'Body type' }), fields: templates('Fields', 200) },
          { additionalProperties: false, title: 'Form (URL-encoded)' },
        ),
        Type.Object(
          {
            type: Type.Literal('raw', { title: 'Body type' }),
            value: Type.String({ maxLength: 1_000_000, title: 'Body', 'x-editor': 'template' }),
            contentType: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 200,
                pattern: '^[^\\r\\n]*$',
                title: 'Content type',
                default: 'text/plain; charset=utf-8',
                examples: ['application/xml'],
              }),
            ),
          },
          { additionalProperties: false, title: 'Raw text' },
        ),
        MultipartBodySchema,
      ],
      {
        title: 'Body',
        description:
          'json: any JSON whose strings are templates; form: URL-encoded fields; raw: one template sent as it renders; multipart: form-data fields and files from media.',
      },
    ),
  ),
  pagination: Type.Optional(PaginationSchema),
  followRedirects: Type.Optional(
    Type.Boolean({ title: 'Follow redirects', default: false, description: 'Each hop is checked by the SSRF guard again.' }),
  ),
  maxRedirects: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: DEFAULT_MAX_REDIRECTS, title: 'Most redirects' })),
  failOnHttpError: Type.Optional(
    Type.Boolean({
      title: 'Fail on HTTP error',
      default: true,
      description: 'Off: every response is the output (network errors are still retried).',
    }),
  ),
});

/**
 * Sends an HTTP request. URL, query values, header values and the body are templates. The
 * output is `{status, headers, body}` (body parsed when the response is JSON). `timeoutMs`
 * (common to work steps) defaults to 30000 here.
 */
export type HttpRequestAction = ActionOf<'http.request', typeof parameters>;

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

/**
 * Throws the step's failure for an error status when `failOnHttpError` is on (408, 429, 5xx
 * transient, honouring `Retry-After`; other 4xx permanent).
 */
function checkStatus(a: HttpRequestAction, p: HttpRequest, response: HttpResponse, now: number): void {
  if (a.failOnHttpError === false || response.status < 400) return;
  const transient = isTransientStatus(response.status);
  const details = { status: response.status, body: response.body.slice(0, ERROR_BODY_CHARS) };
  const extra: { status: number; details: unknown; retryAfterMs?: number } = { status: response.status, details };
  const after = parseRetryAfter(response.headers['retry-after'], now);
  if (after !== undefined) extra.retryAfterMs = after;
  throw new ActionError('HTTP_STATUS', `${p.method} ${p.url} answered ${response.status}`, transient, extra);
}

/** Renders and sends the request. */
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
    const multipart = a.body?.type === 'multipart' ? renderMultipart(a.body, s, t) : undefined;
    // The host writes the boundary into a multipart body's content type.
    if (multipart) delete headers['content-type'];
    if ((body !== undefined || multipart) && (a.method === 'GET' || a.method === 'HEAD')) {
      throw permanent('INVALID_INPUT', `a ${a.method} request has no body`, { field: 'body' });
    }
    const request: HttpRequest = { method: a.method, url: url.toString(), headers, timeoutMs: a.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS };
    if (body !== undefined) request.body = body;
    if (multipart) request.multipart = multipart;
    if (a.followRedirects) request.maxRedirects = a.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    return request;
  },

  // The journal hides credentials with the shared rule of `redaction.ts`.
  journalInput(p) {
    const headers = redactHeaders(p.headers);
    // This kind sends text; bytes (a piece's upload) are journalled as their size only.
    let body: unknown = typeof p.body === 'string' || p.body === undefined ? p.body : { bytes: p.body.byteLength };
    if (typeof p.body === 'string' && (p.headers['content-type'] ?? '').includes('json')) body = parseBody('application/json', p.body);
    // A multipart body is journalled as its parts (text values and media ids), never file bytes.
    return {
      method: p.method,
      url: redactUrl(p.url),
      headers,
      ...(body === undefined ? {} : { body }),
      ...(p.multipart ? { multipart: p.multipart } : {}),
    };
  },

  async execute(ctx, p, a) {
    const request: HttpRequest = { ...p };
    if (ctx.signal) request.signal = ctx.signal;
    // File parts are read from the run's workspace as the automation's owner.
    if (p.multipart) request.onBehalfOf = { workspaceId: ctx.run.workspaceId, ownerId: ctx.run.ownerId };
    if (a.pagination) {
      const send = async (page: HttpRequest) => {
        const response = await ctx.http.request(page);
        checkStatus(a, page, response, ctx.clock.now());
        return response;
      };
      const out = await paginate(request, a.pagination as HttpPagination, send, (r) => parseBody(r.headers['content-type'], r.body));
      return { ...out, headers: redactHeaders(out.headers) };
    }
    const response = await ctx.http.request(request);
    // Response headers that carry credentials (`Set-Cookie`, `X-API-Key`…) are recorded redacted by name.
    const output: Record<string, unknown> = {
      status: response.status,
      headers: redactHeaders(response.headers),
      body: parseBody(response.headers['content-type'], response.body),
    };
    if (response.url !== undefined && response.url !== p.url) output.url = redactUrl(response.url);
    checkStatus(a, p, response, ctx.clock.now());
    return output;
  },
};

/** The `http.request` kind. */
export const HTTP_REQUEST_KIND = defineAction({
  type: 'http.request',
  title: 'Send an HTTP request',
  summary: 'Calls a URL and returns its status, headers and body.',
  category: 'HTTP',
  icon: 'globe',
  sideEffects: true,
  timeout: true,
  parameters,
  output: Type.Object(
    {
      status: Type.Integer(),
      headers: Dict(Type.String()),
      body: Type.Unknown(),
      url: Type.Optional(Type.String()),
      pages: Type.Optional(Type.Integer({ description: "With pagination: the pages read; body is then every page's items." })),
    },
    { title: 'Response' },
  ),
  executor: HTTP_ACTION as ActionKind<never, unknown>,
});

declare module '../../../definition/types' {
  /** This module's kinds (see {@link ActionTypes}). */
  interface ActionTypes {
    httpRequest: HttpRequestAction;
  }
}
