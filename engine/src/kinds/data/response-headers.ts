/**
 * The headers a `respond` step may set (docs "Automations", "Respond to webhook"). The response is
 * served from the service's own origin, so only headers that describe the body, its caching and
 * the caller's next step are allowed — never ones that act on the origin (cookies, site data,
 * CORS, framing, security policies), frame the message (length, encoding, connection) or imitate
 * the service's own headers (rate limits). An allow-list: a header not named here is refused.
 */

/** Standard headers a `respond` step may set, lower-case. `Location` is allowed with a 3xx status only. */
export const ALLOWED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'cache-control',
  'content-disposition',
  'content-language',
  'content-type',
  'etag',
  'expires',
  'last-modified',
  'link',
  'location',
  'retry-after',
  'vary',
]);

/**
 * `X-` headers a `respond` step may not set although any other `X-` header is allowed: security
 * headers the service sets itself, its rate-limit report, proxy and web-server controls (which
 * would make a front proxy serve files or rewrite the request) and forwarding information.
 * A name ending in `-` covers every header starting with it. Lower-case.
 */
export const REFUSED_CUSTOM_HEADERS: readonly string[] = [
  'x-accel-',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-forwarded-',
  'x-frame-options',
  'x-lighttpd-send-file',
  'x-permitted-cross-domain-policies',
  'x-ratelimit-',
  'x-real-ip',
  'x-request-id',
  'x-sendfile',
  'x-xss-protection',
];

/**
 * Why a `respond` step may not set header `name` with HTTP `status`, or undefined when it may:
 * a message for the step's author. Names compare case-insensitively.
 */
export function responseHeaderRefusal(name: string, status: number): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'location') {
    return status >= 300 && status < 400 ? undefined : `Location may only be set with a 3xx status (this response is ${status})`;
  }
  if (ALLOWED_RESPONSE_HEADERS.has(lower)) return undefined;
  if (lower.startsWith('x-') && lower.length > 2) {
    const refused = REFUSED_CUSTOM_HEADERS.some((r) => (r.endsWith('-') ? lower.startsWith(r) : lower === r));
    return refused ? `an automation may not set the ${name} header` : undefined;
  }
  return `an automation may not set the ${name} header: allowed are ${[...ALLOWED_RESPONSE_HEADERS].join(', ')} and X- headers of its own`;
}
