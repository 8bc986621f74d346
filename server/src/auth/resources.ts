/**
 * The protected resources of this service (RFC 8707 resource indicators, RFC 9728; docs/oauth.md
 * "Resource indicators"): the REST API and the MCP endpoint, each named by a canonical URI under
 * the public base URL. An authorization or token request's `resource` must name one of them.
 */

/** The canonical URI of the MCP endpoint (`<base>/mcp`). */
export function mcpResource(base: string): string {
  return `${base}/mcp`;
}

/** The canonical URI of the REST API (`<base>/api`). */
export function apiResource(base: string): string {
  return `${base}/api`;
}

/**
 * The canonical URI of the resource a `resource` parameter names, or undefined when it is none
 * of this service's: `<base>/mcp` (with or without a trailing slash) is the MCP endpoint;
 * `<base>`, `<base>/` and `<base>/api…` are the REST API. Scheme and host compare
 * case-insensitively (RFC 3986 section 6.2.2.1); a fragment is never allowed (RFC 8707 section 2).
 */
export function canonicalResource(value: string, base: string): string | undefined {
  let url: URL;
  let baseUrl: URL;
  try {
    url = new URL(value);
    baseUrl = new URL(base);
  } catch {
    return undefined;
  }
  if (url.hash || value.includes('#') || url.origin !== baseUrl.origin) return undefined;
  const root = baseUrl.pathname.replace(/\/$/, '');
  const path = url.pathname.replace(/\/$/, '');
  if (path === `${root}/mcp`) return mcpResource(base);
  if (path === root || path === `${root}/api` || path.startsWith(`${root}/api/`)) return apiResource(base);
  return undefined;
}
