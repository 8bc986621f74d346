/**
 * Files of pieces (docs/integrations.md "Files"): a `FILE` property's value names a media item
 * of the automation's workspace, which the host reads and the piece receives as Activepieces'
 * `ApFile` (`{filename, extension, data, base64}`); `context.files.write` stores bytes as a new
 * media item through the host. Bytes cross the worker boundary as base64; the host, never the
 * worker, reads and writes media.
 */
import { ActionError, permanent } from '../errors';
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
 * returns); undefined for any other value (another URL is handed to the piece as it is).
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

/**
 * The `FILE` properties of `props` in `values` that name media, read through `files`: the values
 * to hand the worker (property name → base64 file), and `values` without them.
 * @throws ActionError NOT_SUPPORTED when the host has no media port; the port's errors, naming the property.
 */
export async function readFileProps(
  props: Record<string, PiecePropInfo>,
  values: Record<string, unknown>,
  workspaceId: string,
  files: PieceFiles | undefined,
): Promise<{ values: Record<string, unknown>; files: Record<string, PieceFileValue> }> {
  const rest: Record<string, unknown> = { ...values };
  const out: Record<string, PieceFileValue> = {};
  for (const [name, prop] of Object.entries(props)) {
    if (prop.type !== 'FILE' || values[name] === undefined) continue;
    const mediaId = mediaReference(values[name]);
    if (mediaId === undefined) continue;
    if (!files) throw permanent('NOT_SUPPORTED', 'files from workspace media are not available on this host', { field: `props.${name}` });
    let file: PieceMediaFile;
    try {
      file = await files.read(workspaceId, mediaId, PIECE_FILE_MAX_BYTES);
    } catch (error) {
      // The port's refusals name the property; anything else (the store failing) is rethrown as is.
      if (!(error instanceof ActionError)) throw error;
      throw new ActionError(error.code, `props.${name}: ${error.message}`, error.transient, { details: { field: `props.${name}` } });
    }
    delete rest[name];
    out[name] = { filename: file.filename, extension: extensionOf(file.filename), base64: file.data.toString('base64') };
  }
  return { values: rest, files: out };
}
