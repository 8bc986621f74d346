import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { SCHEMA_REASONS } from '@taskspace/engine';
import { ServiceError } from '../errors';
import { NO_LINE_BREAKS } from './schemas';

/**
 * Validation of inputs against the route schemas, for the routes' error handler and for calls
 * that do not come through a route (the automation engine's task actions): one schema, one
 * validator configuration, one mapping of a failure to the error envelope.
 */

/**
 * The app's `ajv` option (Fastify's route validator): Fastify's defaults (type coercion,
 * defaults, the `ajv-formats` formats, first error only) with `removeAdditional: false`, so
 * `additionalProperties: false` rejects an unknown field (400, reason `unknown_field`) instead
 * of silently dropping it. {@link InputValidator} builds its validator from the same option.
 */
export const ROUTE_AJV: NonNullable<FastifyServerOptions['ajv']> = { customOptions: { allErrors: false, removeAdditional: false } };

/** One schema failure as ajv reports it (Fastify's `error.validation[i]`). */
export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/tasks/0/content` → `tasks[0].content`, prefixed by the missing property where there is one. */
function fieldOf(error: AjvError, context: string | undefined): string {
  const parts = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = (error.params.missingProperty ?? error.params.additionalProperty) as string | undefined;
  if (extra) parts.push(extra);
  const path = parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
  return path || context || 'body';
}

/**
 * Turns an ajv failure into the envelope's `{field, reason}` and a message: `field` is the
 * failing property's path (`tasks[0].content`), else `context` (the request part, e.g. `body`);
 * `reason` is the engine's name for the keyword ({@link SCHEMA_REASONS}), `contains_line_break`
 * for the no-line-breaks pattern.
 * @returns a 400 VALIDATION_ERROR {@link ServiceError}.
 */
export function validationError(error: AjvError, context: string | undefined): ServiceError {
  const field = fieldOf(error, context);
  if (error.keyword === 'pattern' && error.params.pattern === NO_LINE_BREAKS) {
    return new ServiceError(400, 'VALIDATION_ERROR', `${field} must not contain line breaks (CR or LF)`, {
      field,
      reason: 'contains_line_break',
    });
  }
  const reason = SCHEMA_REASONS[error.keyword] ?? error.keyword;
  let message = `${field} ${error.message ?? 'is invalid'}`;
  if (error.keyword === 'required') message = `${field} is required`;
  if (error.keyword === 'additionalProperties') message = `${field} is not a known field`;
  if (error.keyword === 'enum') message = `${field} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return new ServiceError(400, 'VALIDATION_ERROR', message, { field, reason });
}

/** A compiled schema: true for a valid input, else false with the failures in `errors`. */
type CompiledSchema = ((input: unknown) => boolean) & { errors?: AjvError[] | null };

/**
 * Checks inputs that do not come through a route against the routes' own schemas, with a
 * validator built like the routes' ({@link ROUTE_AJV}, Fastify's own ajv compiler), so a call
 * fails exactly as the same request to the route would. Each schema object is compiled once, on
 * first use, and kept for the life of this instance (one per app, in `Services.inputs`).
 */
export class InputValidator {
  private readonly compileSchema: (schema: TSchema) => CompiledSchema;
  private readonly compiled = new WeakMap<TSchema, CompiledSchema>();

  constructor() {
    // Fastify's validator factory, with no shared schemas: its own ajv instance and defaults.
    const build = AjvCompiler()({}, ROUTE_AJV) as unknown as (route: { schema: TSchema }) => CompiledSchema;
    this.compileSchema = (schema) => build({ schema });
  }

  /**
   * Validates `input` against `schema` as the route validator does (with its type coercion and
   * defaults applied to `input` in place) and returns it typed by the schema.
   * `context` names the input where a failure has no property path (as Fastify's `body`).
   * @throws ServiceError 400 VALIDATION_ERROR with the `{field, reason}` details and message
   *   the route error handler gives for the same failure ({@link validationError}).
   */
  check<S extends TSchema>(schema: S, input: unknown, context = 'body'): Static<S> {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.compileSchema(schema);
      this.compiled.set(schema, validate);
    }
    if (!validate(input)) throw validationError(validate.errors?.[0] ?? { keyword: 'type', instancePath: '', params: {} }, context);
    return input as Static<S>;
  }
}
