import { ServiceError } from '../../errors';
import { assertJsonDepth } from '../../http/json-depth';

/**
 * Reading the body of an inbound call (docs "Automations", "Triggers", webhook): what each
 * Content-Type becomes as `trigger.body`, and the body as text for `trigger.rawBody`.
 */

/** Largest body kept as `trigger.rawBody`, in bytes (1 MiB); a larger one has no `rawBody`. */
export const MAX_RAW_BODY_BYTES = 1024 * 1024;

/** Media types read as text: `text/*`, XML (`application/xml`, `…+xml`) and a few text formats. */
const TEXT_TYPE = /^(text\/[\w.+-]+|application\/(xml|[\w.-]+\+xml|javascript|x-ndjson|csv|yaml|x-yaml|graphql))$/;

/** Media types refused as binary (415): bytes that are not text. */
const BINARY_TYPE =
  /^(image|audio|video|font|multipart)\/|^application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|protobuf|x-protobuf|msgpack|x-msgpack|cbor|wasm)$/;

/** The media type of a Content-Type header, lower case without parameters (undefined when absent). */
export function mediaTypeOf(contentType: string | string[] | undefined): string | undefined {
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}

function unsupported(type: string): ServiceError {
  return new ServiceError(415, 'UNSUPPORTED_MEDIA_TYPE', `a ${type} body is binary; send JSON, a form, text or XML`, {
    field: 'content-type',
    reason: 'binary_body',
  });
}

/** The bytes as UTF-8 text. @throws ServiceError 415 when they are not valid UTF-8. */
function utf8(raw: Buffer, type: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw unsupported(type);
  }
}

function parseJson(text: string, maxDepth: number): unknown {
  assertJsonDepth(text, maxDepth);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError(400, 'INVALID_JSON', 'the body must be JSON (or a form, text or XML, with its Content-Type)', {
      field: 'body',
      reason: 'invalid_json',
    });
  }
}

/**
 * The body of an inbound call as `trigger.body`:
 * - empty (0 bytes, any type): `{}`;
 * - `application/x-www-form-urlencoded`: the form fields (a repeated field becomes a list);
 * - `text/plain`: the JSON value when the text is JSON (what AWS SNS and `sendBeacon` send), else the text;
 * - other `text/*`, XML and text formats (see `TEXT_TYPE`): the text;
 * - binary types (`application/octet-stream`, `image/*`, `multipart/*`…): refused;
 * - anything else, or no Content-Type: any JSON value.
 * @throws ServiceError 400 INVALID_JSON (field `body`), or `too_deep` past `maxDepth` levels;
 *   415 UNSUPPORTED_MEDIA_TYPE for a binary type or text that is not UTF-8.
 */
export function inboundBody(raw: Buffer, contentType: string | string[] | undefined, maxDepth: number): unknown {
  if (raw.length === 0) return {};
  const type = mediaTypeOf(contentType) ?? 'application/json';
  if (BINARY_TYPE.test(type)) throw unsupported(type);
  if (type === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(raw.toString('utf8'))) {
      const seen = fields[key];
      fields[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    return fields;
  }
  if (type === 'text/plain') {
    const text = utf8(raw, type);
    try {
      return parseJson(text, maxDepth);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'INVALID_JSON') return text;
      throw error;
    }
  }
  if (TEXT_TYPE.test(type)) return utf8(raw, type);
  return parseJson(raw.toString('utf8'), maxDepth);
}

/** The body as text for `trigger.rawBody`: undefined past {@link MAX_RAW_BODY_BYTES}. */
export function rawBodyText(raw: Buffer): string | undefined {
  return raw.length > MAX_RAW_BODY_BYTES ? undefined : raw.toString('utf8');
}
