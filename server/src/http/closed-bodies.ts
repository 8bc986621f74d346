import type { FastifyInstance, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import { badRequest } from '../errors';

/**
 * The unknown-field rule (README "Errors": reason `unknown_field`) for routes that take no body:
 * a POST, PUT or PATCH without a body schema accepts no body, an empty body or `{}`/`null`, and
 * refuses any field (400, `details.field` the first field name) or any other JSON value (400,
 * `details.field` `body`, reason `invalid_type`). Routes with a body schema get the rule from
 * ajv (`additionalProperties: false` with `removeAdditional` off, see app.ts).
 */

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Refuses a body with content on a route that defines none. */
const refuseBody: preValidationHookHandler = async (request: FastifyRequest) => {
  const body = request.body;
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw badRequest('body', 'invalid_type', 'this route takes no body (send none, or {})');
  }
  const first = Object.keys(body)[0];
  if (first !== undefined) throw badRequest(first, 'unknown_field', `${first} is not a known field (this route takes no body)`);
};

/** Installs {@link refuseBody} on every body-less write route registered after this call in `app`'s scope. */
export function closeBodylessRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema as { body?: unknown; consumes?: unknown } | undefined;
    // Routes with a body schema are closed by ajv; routes declaring `consumes` (uploads) read their own body.
    if (!methods.some((m) => WRITE_METHODS.has(m)) || schema?.body !== undefined || schema?.consumes !== undefined) return;
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [refuseBody] : [...(Array.isArray(existing) ? existing : [existing]), refuseBody];
  });
}
