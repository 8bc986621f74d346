/**
 * "Webhook": the inbound call as trigger variables (spec section 4.7; docs "Webhooks", "Inbound
 * webhooks", "Triggers"). Any body is accepted: `trigger.body` is the whole body (an object, an
 * array, a string for a text or XML body…), and a JSON object's top-level fields are also
 * variables of their own (`{{ trigger.email }}` for `{"email": …}`, as before). The call itself
 * gives `method`, `headers`, `query`, `rawBody` and `http` (all four together).
 */

/** The HTTP request behind an inbound call, as the host read it. */
export interface WebhookRequest {
  /** The HTTP method, upper case (`POST`, `GET`…). */
  method: string;
  /** Request headers by lower-case name, credentials already redacted (see `redactHeaders`). */
  headers: Record<string, string>;
  /** Query string parameters; a repeated one is a list. */
  query: Record<string, string | string[]>;
  /** The body as UTF-8 text; absent past the host's limit (1 MiB). */
  rawBody?: string;
}

/**
 * The `trigger.*` variables of an inbound call. Precedence, lowest first: the request's
 * `method`, `headers`, `query`, `rawBody` and `http` (`{method, headers, query, rawBody}`), then
 * `body`, then an object body's own fields: a body field keeps winning over any name, as it did
 * before the request variables existed (a GraphQL body's `query` is `trigger.query`; read the
 * call's query string as `trigger.http.query` then).
 * @param body the parsed body (any JSON value, form fields, or text).
 * @param request the call; absent for runs not started by an HTTP call (test runs, `automation.run`).
 */
export function webhookVariables(body: unknown, request?: WebhookRequest): Record<string, unknown> {
  const base: Record<string, unknown> = {};
  if (request) {
    const http: Record<string, unknown> = {
      method: request.method,
      headers: request.headers,
      query: request.query,
    };
    if (request.rawBody !== undefined) http.rawBody = request.rawBody;
    Object.assign(base, http, { http });
  }
  base.body = body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return { ...base, ...(body as Record<string, unknown>) };
  return base;
}
