import type { FastifyError, FastifyInstance } from 'fastify';
import { SCHEMA_REASONS } from '@taskspace/engine';
import { fromEngineError } from '../automations/engine-errors';
import { ServiceError, type ErrorCode } from '../errors';
import { NO_LINE_BREAKS } from './schemas';

interface AjvError {
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

/** Turns an ajv failure into the envelope's `{field, reason}` and a message. */
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
  if (error.keyword === 'enum') message = `${field} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return new ServiceError(400, 'VALIDATION_ERROR', message, { field, reason });
}

const FASTIFY_CODES: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'request body is empty but the content type is JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'unsupported content type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'VALIDATION_ERROR', 'content-length does not match the body'],
  FST_REQ_FILE_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'uploaded file is too large'],
  FST_FILES_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'too many files in the upload'],
  FST_PARTS_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'too many parts in the upload'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'the request is not multipart/form-data'],
};

/** Maps any thrown error to a {@link ServiceError}; unknown errors become 500 INTERNAL_ERROR. */
export function toServiceError(error: FastifyError | ServiceError | Error): ServiceError {
  const converted = fromEngineError(error);
  if (converted instanceof ServiceError) return converted;
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation && fe.validation.length > 0) return validationError(fe.validation[0]!, fe.validationContext);
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return new ServiceError(known[0], known[1], known[2]);
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code: ErrorCode = fe.statusCode === 404 ? 'NOT_FOUND' : fe.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
    return new ServiceError(fe.statusCode, code, fe.message);
  }
  return new ServiceError(500, 'INTERNAL_ERROR', 'internal server error');
}

/** Installs the error and not-found handlers that give every failure the one envelope. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toServiceError(error as FastifyError);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    reply.status(mapped.statusCode).send(mapped.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(new ServiceError(404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`).toBody());
  });
}

/**
 * Treats an empty body sent with `content-type: application/json` as no body (many HTTP clients,
 * n8n's among them, send that header on body-less POST and PUT), and parses every other JSON body
 * with Fastify's own parser, so malformed JSON is still 400 INVALID_JSON.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
