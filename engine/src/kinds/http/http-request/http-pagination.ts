/**
 * Pagination of the `http.request` step (docs/automations.md "HTTP Request: pagination"): the
 * step follows an API's pages and gathers their items into one list.
 * - `cursor`: the next page's cursor is read from the response at `cursorPath` and sent as the
 *   query parameter `paramName` of the same request (Slack `cursor` /
 *   `response_metadata.next_cursor`, Notion `start_cursor` / `next_cursor`);
 * - `linkHeader`: the next page is the `Link` header's `rel="next"` target (RFC 8288; GitHub,
 *   GitLab), resolved against the page's URL.
 * Each page is a request through the host's {@link Http} port, so the server's SSRF guard checks
 * every next URL; a next URL on another origin keeps only the safe headers (`crossOriginHeaders`).
 */
import { Type } from '@sinclair/typebox';
import { permanent } from '../../../errors';
import { OneOf } from '../../parts';
import type { HttpRequest, HttpResponse } from '../../../ports';
import { crossOriginHeaders } from '../../../redaction';

/** Pages read by default. */
export const DEFAULT_MAX_PAGES = 10;
/** Most pages one step may read. */
export const MAX_PAGES_LIMIT = 100;
/** Most items gathered over all pages; past it the step fails (permanent `RESPONSE_TOO_LARGE`). */
export const MAX_PAGINATED_ITEMS = 10_000;
/** Most response text read over all pages, in characters; past it the step fails (permanent `RESPONSE_TOO_LARGE`). */
export const MAX_PAGINATED_CHARS = 10 * 1024 * 1024;

/** A dot path into a parsed JSON body. */
const path = (title: string, description: string, examples: string[]) =>
  Type.String({ minLength: 1, maxLength: 500, pattern: '^[^.\\s]+(\\.[^.\\s]+)*$', title, description, examples });
const itemsPath = Type.Optional(
  path('Items path', 'Where the list is in each page (a dot path); absent: the body is the list.', ['data', 'results']),
);
const maxPages = Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGES_LIMIT, default: DEFAULT_MAX_PAGES, title: 'Most pages' }));

/** The `pagination` field of an `http.request` step (TypeBox, with the builder's annotations). */
export const PaginationSchema = OneOf(
  [
    Type.Object(
      {
        type: Type.Literal('cursor', { title: 'Pagination type' }),
        cursorPath: path('Cursor path', "Where the next page's cursor is in each page; empty or absent: the last page.", [
          'meta.next_cursor',
          'response_metadata.next_cursor',
        ]),
        paramName: Type.String({
          minLength: 1,
          maxLength: 100,
          pattern: '^[^\\s&=#]+$',
          title: 'Query parameter',
          description: 'The query parameter that carries the cursor.',
          examples: ['cursor', 'start_cursor'],
        }),
        itemsPath,
        maxPages,
      },
      { additionalProperties: false, title: 'Cursor' },
    ),
    Type.Object(
      { type: Type.Literal('linkHeader', { title: 'Pagination type' }), itemsPath, maxPages },
      { additionalProperties: false, title: 'Link header (rel="next")' },
    ),
  ],
  { title: 'Pagination', description: "Follow the API's pages and gather their items into one list." },
);

/**
 * The `pagination` field of an `http.request` step. Paths are dot paths into the parsed JSON
 * body (`data.items`, `meta.next_cursor`, `results.0.id`); an absent `itemsPath` means the body
 * itself is the list.
 */
export type HttpPagination =
  | { type: 'cursor'; cursorPath: string; paramName: string; itemsPath?: string; maxPages?: number }
  | { type: 'linkHeader'; itemsPath?: string; maxPages?: number };

/** The output of a paginated step: the last page's status and headers, every page's items, the pages read. */
export interface PaginatedOutput {
  status: number;
  headers: Record<string, string>;
  body: unknown[];
  pages: number;
}

/** The value at a dot path (`a.b.0.c`) of a parsed body; undefined when a segment is missing. */
export function valueAt(value: unknown, path: string | undefined): unknown {
  if (path === undefined || path === '') return value;
  let current = value;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * The `rel="next"` target of a `Link` header value (RFC 8288 §3: `<uri>; rel="next"`, several
 * links separated by commas, `rel` holding space-separated relation types, quoted or not),
 * resolved against `base`; undefined when there is none.
 */
export function nextLink(header: string | undefined, base: string): string | undefined {
  if (!header) return undefined;
  const link = /<([^>]*)>((?:\s*;\s*[^;,]+)*)/g;
  for (let match = link.exec(header); match; match = link.exec(header)) {
    for (const param of match[2]!.split(';')) {
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
      const rels = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '')
        .toLowerCase()
        .split(/\s+/);
      if (rels.includes('next')) {
        try {
          return new URL(match[1]!.trim(), base).toString();
        } catch {
          throw permanent('INVALID_URL', `the Link header's next page '${match[1]!.slice(0, 200)}' is not a URL`);
        }
      }
    }
  }
  return undefined;
}

/** The items of one page. @throws ActionError INVALID_RESPONSE when the value at `itemsPath` is not a list. */
function itemsOf(body: unknown, itemsPath: string | undefined, page: number): unknown[] {
  const items = valueAt(body, itemsPath);
  if (!Array.isArray(items)) {
    const where = itemsPath ? `at '${itemsPath}'` : 'as its body';
    throw permanent('INVALID_RESPONSE', `page ${page} of the response has no list ${where}`, { field: 'pagination.itemsPath', page });
  }
  return items;
}

/**
 * Reads the pages of `first` (a request already prepared by the step) and gathers their items.
 * `send` sends one page's request and throws for a failed one (the step's `failOnHttpError`
 * rule); `parse` parses a response body.
 * Stops at the last page (no cursor or next link, or a page without items), at `maxPages`, or
 * when a cursor repeats.
 * @throws ActionError INVALID_RESPONSE (a page without a list at `itemsPath`, a cursor that is
 *   not text or a number), RESPONSE_TOO_LARGE (past {@link MAX_PAGINATED_ITEMS} items or
 *   {@link MAX_PAGINATED_CHARS} characters), INVALID_URL; whatever `send` throws.
 */
export async function paginate(
  first: HttpRequest,
  pagination: HttpPagination,
  send: (request: HttpRequest) => Promise<HttpResponse>,
  parse: (response: HttpResponse) => unknown,
): Promise<PaginatedOutput> {
  const maxPages = pagination.maxPages ?? DEFAULT_MAX_PAGES;
  const origin = new URL(first.url).origin;
  const items: unknown[] = [];
  const cursors = new Set<string>();
  let request = first;
  let chars = 0;
  for (let page = 1; ; page++) {
    const response = await send(request);
    chars += response.body.length;
    if (chars > MAX_PAGINATED_CHARS)
      throw permanent('RESPONSE_TOO_LARGE', `the pages' bodies exceed ${MAX_PAGINATED_CHARS} characters in all`, { page });
    const body = parse(response);
    const pageItems = itemsOf(body, pagination.itemsPath, page);
    items.push(...pageItems);
    if (items.length > MAX_PAGINATED_ITEMS)
      throw permanent('RESPONSE_TOO_LARGE', `the pages hold more than ${MAX_PAGINATED_ITEMS} items`, { page });
    const done = { status: response.status, headers: response.headers, body: items, pages: page };
    if (page >= maxPages || pageItems.length === 0) return done;

    let nextUrl: string | undefined;
    if (pagination.type === 'cursor') {
      const cursor = valueAt(body, pagination.cursorPath);
      if (cursor === undefined || cursor === null || cursor === '' || cursor === false) return done;
      if (typeof cursor !== 'string' && typeof cursor !== 'number') {
        throw permanent('INVALID_RESPONSE', `the cursor at '${pagination.cursorPath}' of page ${page} is not text or a number`, {
          field: 'pagination.cursorPath',
          page,
        });
      }
      const key = String(cursor);
      if (cursors.has(key)) return done;
      cursors.add(key);
      const url = new URL(first.url);
      url.searchParams.set(pagination.paramName, key);
      nextUrl = url.toString();
    } else {
      nextUrl = nextLink(response.headers.link, response.url ?? request.url);
      if (nextUrl === undefined) return done;
      const protocol = new URL(nextUrl).protocol;
      if (protocol !== 'http:' && protocol !== 'https:')
        throw permanent('INVALID_URL', `the Link header's next page is a ${protocol} URL`, { page });
    }
    const headers = new URL(nextUrl).origin === origin ? { ...first.headers } : crossOriginHeaders(first.headers);
    request = { ...first, url: nextUrl, headers };
  }
}
