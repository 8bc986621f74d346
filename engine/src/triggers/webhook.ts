/**
 * "Webhook": every top-level field of the inbound JSON object body becomes a variable
 * (spec section 4.7): `{{ trigger.email }}` for a body `{"email": ...}`.
 */
export function webhookVariables(body: Record<string, unknown>): Record<string, unknown> {
  return { ...body };
}
