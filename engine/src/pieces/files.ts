/**
 * Files of pieces (docs/integrations.md "Files"): a `FILE` property's value names a media item
 * of the automation's workspace, which the host reads and the piece receives as Activepieces'
 * `ApFile` (`{filename, extension, data, base64}`); `context.files.write` stores bytes as a new
 * media item through the host. A `FILE` property may also be an http(s) URL, which the host
 * downloads through the step's guarded HTTP port, or a `data:` URL (RFC 2397), as Activepieces'
 * props processor takes them. Bytes cross the worker boundary as base64; the host, never the
 * worker, reads and writes media.
 */
import { ActionError, permanent } from '../errors';
import type { Http } from '../ports';
import type { PiecePropInfo } from './manifest';
import type { PieceFileValue } from './protocol';

/** Largest file a piece reads (a `FILE` property) or writes (`files.write`), in bytes (10 MiB). */
export const PIECE_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** A media item's bytes as the host reads them. */
export interface PieceMediaFile {
  /** The item's file name. */
  filename: string;
  data: Buffer;
}

/** The host's media port for pieces. */
export interface PieceFiles {
  /**
   * The bytes of media `mediaId` of `workspaceId` (at most `maxBytes`).
   * @throws ActionError MEDIA_NOT_FOUND (permanent) for a missing item or one of another
   *   workspace; FILE_TOO_LARGE (permanent) past `maxBytes`.
   */
  read(workspaceId: string, mediaId: string, maxBytes: number): Promise<PieceMediaFile>;
  /**
   * Stores `data` as a new media item of `workspaceId` (made by the automation's owner) and
   * resolves to its reference: the media content URL `…/api/v1/medias/{id}/content`.
   * @throws ActionError FILE_TOO_LARGE past the media size limit.
   */
  write(where: { workspaceId: string; automationId?: string }, fileName: string, data: Buffer): Promise<string>;
}

/** A media content URL (`…/api/v1/medias/{id}/content`), whose id is taken as a media reference. */
const CONTENT_URL = /\/api\/v1\/medias\/([A-Za-z0-9_-]{1,200})\/content(?:[?#].*)?$/;
/** What a media id looks like (ids are URL-safe). */
const MEDIA_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * The media id `value` names: an id, `{mediaId}`, or a media content URL (what `files.write`
 * returns); undefined for any other value.
 */
export function mediaReference(value: unknown): string | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const id = (value as { mediaId?: unknown }).mediaId;
    return typeof id === 'string' && MEDIA_ID.test(id.trim()) ? id.trim() : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (MEDIA_ID.test(text)) return text;
  return CONTENT_URL.exec(text)?.[1];
}

/** The extension of a file name, without the dot (`''` when it has none), as ApFile's `extension`. */
export function extensionOf(filename: string): string {
  const match = /\.([^./\\]{1,20})$/.exec(filename);
  return match ? match[1]!.toLowerCase() : '';
}

/** How long a `FILE` property's URL download may take, in ms. */
export const PIECE_FILE_DOWNLOAD_TIMEOUT_MS = 30_000;
/** A `data:` URL (RFC 2397): media type, `;base64` or not, and the data. */
const DATA_URL = /^data:([^,;]*)((?:;[^,;=]+=[^,;]*)*)(;base64)?,(.*)$/is;
/** A few media types' usual extensions, for a file name when the source gives none. */
const EXTENSIONS: Record<string, string> = {
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'image/gif': 'gif',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/plain': 'txt',
};

/** `file` (or `file.<ext>` when `mediaType` is a known one) as a name for bytes that came without one. */
function defaultName(mediaType: string): string {
  const ext = EXTENSIONS[mediaType.split(';')[0]!.trim().toLowerCase()];
  return ext ? `file.${ext}` : 'file';
}

/** The file name a download answer gives (`Content-Disposition`, RFC 6266), else the URL path's last segment. */
export function downloadName(url: string, headers: Record<string, string>): string {
  const disposition = headers['content-disposition'] ?? '';
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended.trim()) : undefined;
  } catch {
    name = undefined;
  }
  name ??= (plain?.[1] ?? plain?.[2])?.trim();
  if (!name) {
    const segment = new URL(url).pathname.split('/').pop() ?? '';
    try {
      name = decodeURIComponent(segment);
    } catch {
      name = segment;
    }
  }
  // Only the last path component of whatever was given.
  name = name.split(/[/\\]/).pop()!.trim();
  return name || defaultName(headers['content-type'] ?? '');
}

/**
 * The bytes of a `data:` URL (RFC 2397 §2; percent-encoded or `;base64`), named `file.<ext>` after its media type.
 * @throws ActionError FILE_TOO_LARGE (permanent) past {@link PIECE_FILE_MAX_BYTES}.
 */
function decodeDataUrl(match: RegExpExecArray, field: string): PieceMediaFile {
  const [, mediaType = '', , base64, data = ''] = match;
  // Base64 is 4 characters for 3 bytes: a longer text cannot fit.
  if (data.length > Math.ceil(PIECE_FILE_MAX_BYTES / 3) * 4 + 4)
    throw permanent('FILE_TOO_LARGE', `${field}: the file exceeds ${PIECE_FILE_MAX_BYTES} bytes`, { field });
  let bytes: Buffer;
  if (base64) bytes = Buffer.from(data, 'base64');
  else {
    try {
      bytes = Buffer.from(decodeURIComponent(data), 'utf8');
    } catch {
      throw permanent('INVALID_FILE', `${field}: the data URL is not percent-encoded correctly`, { field });
    }
  }
  if (bytes.length > PIECE_FILE_MAX_BYTES)
    throw permanent('FILE_TOO_LARGE', `${field}: the file exceeds ${PIECE_FILE_MAX_BYTES} bytes`, { field });
  return { filename: defaultName(mediaType || 'text/plain'), data: bytes };
}

/**
 * Downloads `url` for property `field` through `http` (the step's guarded port: the SSRF guard
 * refuses what it refuses for every step), following up to 5 redirects.
 * @throws ActionError FILE_DOWNLOAD_FAILED (permanent for a 4xx, transient for a 5xx) naming the
 *   property; the port's errors (BLOCKED_TARGET, RESPONSE_TOO_LARGE past 10 MiB…) with the property named.
 */
async function download(url: string, field: string, http: Http, signal?: AbortSignal): Promise<PieceMediaFile> {
  let response;
  try {
    response = await http.request({
      method: 'GET',
      url,
      headers: { accept: '*/*' },
      responseBytes: true,
      maxResponseBytes: PIECE_FILE_MAX_BYTES,
      maxRedirects: 5,
      timeoutMs: PIECE_FILE_DOWNLOAD_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    throw new ActionError(error.code, `${field}: ${error.message}`, error.transient, { details: { field } });
  }
  if (response.status < 200 || response.status > 299)
    throw new ActionError(
      'FILE_DOWNLOAD_FAILED',
      `${field}: downloading the file answered HTTP ${response.status}`,
      response.status >= 500,
      {
        details: { field, status: response.status },
      },
    );
  const data = Buffer.from(response.bytes ?? Buffer.from(response.body, 'utf8'));
  return { filename: downloadName(response.url ?? url, response.headers), data };
}

/** Where a `FILE` property's bytes come from, or undefined for a value that names no file (handed to the piece as it is). */
function fileSource(value: unknown): { media: string } | { url: string } | { data: RegExpExecArray } | undefined {
  const mediaId = mediaReference(value);
  if (mediaId !== undefined) return { media: mediaId };
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const data = DATA_URL.exec(text);
  if (data) return { data };
  return /^https?:\/\//i.test(text) ? { url: text } : undefined;
}

/** Where {@link readFileProps} reads from: the media port, the step's HTTP port for URLs, the call's abort signal. */
export interface FileSources {
  files: PieceFiles | undefined;
  http?: Http;
  signal?: AbortSignal;
}

/**
 * The `FILE` properties of `props` in `values` that name a file — workspace media (read through
 * the media port), an http(s) URL (downloaded through `sources.http`) or a `data:` URL — as the
 * values to hand the worker (property name → base64 file), and `values` without them.
 * @throws ActionError NOT_SUPPORTED when the host has no media port (or no HTTP port for a URL);
 *   the ports' errors, naming the property; see {@link download} and {@link decodeDataUrl}.
 */
export async function readFileProps(
  props: Record<string, PiecePropInfo>,
  values: Record<string, unknown>,
  workspaceId: string,
  sources: FileSources,
): Promise<{ values: Record<string, unknown>; files: Record<string, PieceFileValue> }> {
  const rest: Record<string, unknown> = { ...values };
  const out: Record<string, PieceFileValue> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (prop.type !== 'FILE' || values[name] === undefined) continue;
    const source = fileSource(values[name]);
    if (source === undefined) continue;
    const field = `props.${name}`;
    let file: PieceMediaFile;
    if ('data' in source) file = decodeDataUrl(source.data, field);
    else if ('url' in source) {
      if (!sources.http) throw permanent('NOT_SUPPORTED', 'downloading files is not available on this host', { field });
      file = await download(source.url, field, sources.http, sources.signal);
    } else file = await readMedia(source.media, field, workspaceId, sources.files);
    delete rest[name];
    out[name] = { filename: file.filename, extension: extensionOf(file.filename), base64: file.data.toString('base64') };
  }
  return { values: rest, files: out };
}

/** Media `mediaId` of `workspaceId` for property `field`; the port's refusals name the property, anything else (the store failing) is rethrown as is. */
async function readMedia(mediaId: string, field: string, workspaceId: string, files: PieceFiles | undefined): Promise<PieceMediaFile> {
  if (!files) throw permanent('NOT_SUPPORTED', 'files from workspace media are not available on this host', { field });
  try {
    return await files.read(workspaceId, mediaId, PIECE_FILE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    throw new ActionError(error.code, `${field}: ${error.message}`, error.transient, { details: { field } });
  }
}
