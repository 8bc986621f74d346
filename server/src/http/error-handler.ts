import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { rateLimitHeaders, type RateLimitState } from './rate-limit-headers';
import { fromEngineError } from './engine-errors';
import {
  busy,
  insufficientStorage,
  isConnectionLost,
  isStorageFull,
  isUnstorableText,
  ServiceError,
  unavailable,
  unstorableText,
  type ErrorCode,
} from '../errors';
import { isRetryableConflict } from '../platform/db/query';
import { assertJsonDepth } from './json-depth';
import { validationError, type AjvError } from './validate-input';

const FASTIFY_CODES: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'request body is empty but the content type is JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'unsupported content type'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'URI_TOO_LONG', 'a path parameter is longer than the server accepts'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'VALIDATION_ERROR', 'content-length does not match the body'],
  FST_REQ_FILE_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'uploaded file is too large'],
  FST_FILES_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'too many files in the upload'],
  FST_PARTS_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'too many parts in the upload'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'the request is not multipart/form-data'],
};

/** The body types a route takes: its schema's `consumes` (uploads), else JSON. */
function typesTaken(request: FastifyRequest): string[] {
  const consumes = (request.routeOptions?.schema as { consumes?: string[] } | undefined)?.consumes;
  return consumes && consumes.length > 0 ? consumes : ['application/json'];
}

/** 415 naming the Content-Type received and the types the route takes. */
export function unsupportedMediaType(request: FastifyRequest): ServiceError {
  const received = request.headers['content-type'];
  const wanted = typesTaken(request).join(' or ');
  const message = received
    ? `Content-Type "${received.slice(0, 200)}" is not supported here; send ${wanted}`
    : `Content-Type is missing; send ${wanted}`;
  return new ServiceError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
}

/** Fastify and plugin error codes that mean "this body type is not taken here". */
const MEDIA_TYPE_CODES = new Set(['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'FST_INVALID_MULTIPART_CONTENT_TYPE']);

/**
 * Maps any thrown error to a {@link ServiceError}: a full disk or database (see `isStorageFull`)
 * becomes 507 INSUFFICIENT_STORAGE; text PostgreSQL cannot store (U+0000) 400 VALIDATION_ERROR; unknown errors become 500 INTERNAL_ERROR.
 * With `request`, a 415 names the Content-Type received and the types the route takes.
 */
export function toServiceError(error: FastifyError | ServiceError | Error, request?: FastifyRequest): ServiceError {
  const converted = fromEngineError(error);
  if (converted instanceof ServiceError) return converted;
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation && fe.validation.length > 0) return validationError(fe.validation[0]!, fe.validationContext);
  if (request && fe.code && MEDIA_TYPE_CODES.has(fe.code)) return unsupportedMediaType(request);
  if (fe.code === 'FST_ERR_BAD_URL') {
    return new ServiceError(400, 'VALIDATION_ERROR', 'the URL path is not valid percent-encoding', {
      field: 'path',
      reason: 'invalid_encoding',
    });
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return new ServiceError(known[0], known[1], known[2]);
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code: ErrorCode = fe.statusCode === 404 ? 'NOT_FOUND' : fe.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
    return new ServiceError(fe.statusCode, code, fe.message);
  }
  if (isRetryableConflict(error)) return busy();
  if (isStorageFull(error)) return insufficientStorage();
  if (isConnectionLost(error)) return unavailable();
  if (isUnstorableText(error)) return unstorableText();
  return new ServiceError(500, 'INTERNAL_ERROR', 'internal server error');
}

/**
 * The longest path parameter the router accepts, in characters (`routerOptions.maxParamLength`).
 * Signed webhook ids are URL-encoded target URLs of up to 2048 characters (spec 4.6); a longer
 * parameter is answered 414 URI_TOO_LONG.
 */
export const MAX_PATH_PARAM_LENGTH = 8192;

/** The 414 envelope of a path whose parameter is longer than {@link MAX_PATH_PARAM_LENGTH}. */
export function uriTooLong(): ServiceError {
  return new ServiceError(414, 'URI_TOO_LONG', 'a path parameter is longer than the server accepts');
}

/** Installs the error and not-found handlers that give every failure the one envelope. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toServiceError(error as FastifyError, request);
    if (mapped.statusCode === 503) reply.header('retry-after', '1');
    if (mapped.code === 'UNAVAILABLE')
      request.log.warn({ err: error }, 'the database connection was lost mid-request; answered 503 UNAVAILABLE');
    else if (mapped.code === 'INSUFFICIENT_STORAGE') {
      request.log.error(
        { err: error },
        'storage full: the disk or database has no space left, the write was refused with 507 INSUFFICIENT_STORAGE; free space',
      );
    } else if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    reply.status(mapped.statusCode).send(mapped.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(new ServiceError(404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`).toBody());
  });
}

/** The envelope of an error Node's HTTP parser raised before any request existed. */
function socketError(error: NodeJS.ErrnoException): ServiceError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError(431, 'HEADERS_TOO_LARGE', 'the request headers are larger than the server accepts');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ServiceError(408, 'REQUEST_TIMEOUT', 'the request was not received in time');
  }
  return new ServiceError(400, 'BAD_REQUEST', 'the request is not valid HTTP');
}

/**
 * What the framework-error envelope needs of the request meter (`auth/hook.ts` `RequestMeter`;
 * a structural type, so `http/` does not import `auth/`).
 */
export interface FrameworkErrorMeter {
  /** Counts the request; the refusal (401, 429) when it is not admitted. */
  admit(request: FastifyRequest, reply: FastifyReply): Promise<ServiceError | undefined>;
  /** The anonymous budget of a caller address, without counting anything. */
  peekAddress(address: string): RateLimitState;
}

/**
 * Fastify options that put the errors raised before any route or hook runs into the error
 * envelope with the X-RateLimit-* headers:
 * - `frameworkErrors`: the router's bad percent-encoding (400) and over-long path parameter (414).
 *   These requests are counted by `meter` like any other (so past the limit they get 429).
 * - `clientErrorHandler`: Node's HTTP parser errors (oversized headers 431, timeouts 408, malformed
 *   requests 400). No request exists yet, so no token is read and nothing is counted; the headers
 *   report the caller address's anonymous budget. The connection is closed after the answer.
 */
export function envelopeForFrameworkErrors(
  meter: FrameworkErrorMeter,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      void meter.admit(request, reply).then(
        (refusal) => {
          const mapped = refusal ?? toServiceError(error, request);
          reply.status(mapped.statusCode).send(mapped.toBody());
        },
        (failure: unknown) => reply.send(failure),
      );
    },
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      // As Node's own handler: write nothing into a response already under way on this connection.
      const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if (socket.writable && !inFlight?.headersSent) {
        const mapped = socketError(error);
        const body = JSON.stringify(mapped.toBody());
        const headers: Record<string, string | number> = {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(body),
          ...rateLimitHeaders(meter.peekAddress(socket.remoteAddress ?? '')),
          Connection: 'close',
        };
        const head = Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('');
        socket.write(`HTTP/1.1 ${mapped.statusCode} ${STATUS_CODES[mapped.statusCode]}\r\n${head}\r\n${body}`);
      }
      socket.destroy(error);
    },
  };
}

/**
 * Drops Fastify's built-in `text/plain` parser: no route takes a text body, so one is 415 naming
 * the type instead of a schema error about a string body.
 */
export function refuseTextBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
}

/**
 * The JSON body parser: treats an empty body sent with `content-type: application/json` as no
 * body (many HTTP clients, n8n's among them, send that header on body-less POST and PUT),
 * refuses bodies nesting deeper than `maxDepth` levels with 400 before anything recursive (the
 * parser, schema validation, serialization) runs over them, and parses every other body with
 * Fastify's own parser, so malformed JSON is still 400 INVALID_JSON.
 */
export function installJsonBodyParser(app: FastifyInstance, maxDepth: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      assertJsonDepth(text, maxDepth);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
