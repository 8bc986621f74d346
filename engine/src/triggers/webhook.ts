/**
 * "Webhook": the inbound body as trigger variables (spec section 4.7; docs "Webhooks", "Inbound
 * webhooks"). Any JSON value is accepted: `trigger.body` is the whole body (an array, a string,
 * a number…), and a JSON object's top-level fields are also variables of their own
 * (`{{ trigger.email }}` for `{"email": …}`, as before). An object's own `body` field keeps that
 * meaning.
 */
export function webhookVariables(body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return { body, ...(body as Record<string, unknown>) };
  return { body };
}
