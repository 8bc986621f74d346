import type { Dialect, Query, Sql } from '../../platform/db/query';
import { Readable } from 'node:stream';
import type { Actor } from '../../auth/tokens';
import { requireFolder, requireMedia } from '../../auth/access';
import { badRequest, isStorageFull, ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import { pageWindow, type PageRequest } from '../../platform/paging';
import { receiveToTemp, removeQuietly, type TempUpload } from './files';
import { mediaContents } from './contents';

/**
 * Media (spec 4.3 `GET /folders/{folderId}/medias`, 4.5; plus upload and download;
 * README "Agents, conversations, media and model providers"). Bytes live in the data directory or
 * in the database, by `TASKSPACE_MEDIA_STORE` (modules/media/contents.ts).
 */

/** Media kinds, derived from the content type (see {@link kindOf}). */
export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'text', 'archive', 'other'] as const;
/** One of {@link MEDIA_KINDS}. */
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Longest stored file name, in characters. */
export const MEDIA_NAME_MAX = 255;

/** A media item as the API returns it. */
export interface Media {
  id: string;
  /** The folder (space) holding it. */
  space_id: string;
  kind: MediaKind;
  /** The uploaded file name, without directories. */
  name: string;
  /** The stored content type, e.g. `image/png` (no parameters). */
  contentType: string;
  /** Size in bytes. */
  size: number;
  /** Absolute URL of the bytes (`GET /api/v1/medias/{id}/content`, bearer token required). */
  url: string;
  /** ISO 8601. */
  createdAt: string;
}

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/rtf',
  'text/rtf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
]);
const DOCUMENT_PREFIXES = ['application/vnd.openxmlformats-officedocument.', 'application/vnd.oasis.opendocument.', 'application/vnd.ms-'];
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/javascript',
  'application/x-ndjson',
]);
const ARCHIVE_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-bzip2',
  'application/x-xz',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/zstd',
]);

/**
 * The kind of a content type: `image/*`, `video/*`, `audio/*` by their top type; `document` for
 * PDF, RTF and office formats (Microsoft, OpenXML, OpenDocument); `text` for other `text/*` and
 * JSON, XML, YAML, JavaScript, NDJSON; `archive` for zip, gzip, tar, bzip2, xz, 7z, rar, zstd;
 * `other` for the rest. Parameters (`; charset=...`) are ignored.
 */
export function kindOf(contentType: string): MediaKind {
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  const top = base.split('/')[0];
  if (top === 'image' || top === 'video' || top === 'audio') return top;
  if (DOCUMENT_TYPES.has(base) || DOCUMENT_PREFIXES.some((p) => base.startsWith(p))) return 'document';
  if (top === 'text' || TEXT_TYPES.has(base) || base.endsWith('+json') || base.endsWith('+xml')) return 'text';
  if (ARCHIVE_TYPES.has(base)) return 'archive';
  return 'other';
}

/** Content types guessed from the file extension when the upload says `application/octet-stream`. */
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/**
 * The content type to store: the declared `type/subtype`, lower-cased, without parameters; a
 * missing, malformed or `application/octet-stream` type is guessed from the file extension,
 * falling back to `application/octet-stream`.
 */
export function storedContentType(declared: string | undefined, name: string): string {
  const base = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (CONTENT_TYPE.test(base) && base !== 'application/octet-stream') return base;
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}

/** The file name to store: the last path segment, control characters removed, at most {@link MEDIA_NAME_MAX}; `upload` when empty. */
export function storedName(filename: string | undefined): string {
  const last = (filename ?? '').split(/[\\/]/).pop() ?? '';
  const clean = last
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, MEDIA_NAME_MAX)
    .trim();
  return clean || 'upload';
}

interface MediaRow {
  id: string;
  folder_id: string;
  kind: MediaKind;
  name: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
  created_at: number;
}

const MEDIA_COLUMNS = 'id, folder_id, kind, name, content_type, size_bytes, storage_key, created_at';

function toMedia(svc: Services, row: MediaRow): Media {
  return {
    id: row.id,
    space_id: row.folder_id,
    kind: row.kind,
    name: row.name,
    contentType: row.content_type,
    size: row.size_bytes,
    url: svc.links.url(`/api/v1/medias/${encodeURIComponent(row.id)}/content`),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function* mediaRow(q: Sql, mediaId: string): Query<MediaRow> {
  const row = yield* q.get<MediaRow>(`SELECT ${MEDIA_COLUMNS} FROM media WHERE id = ?`, [mediaId]);
  if (!row) throw new ServiceError(404, 'NOT_FOUND', `media '${mediaId}' not found`);
  return row;
}

/** A file part of an upload, as handed over by the route. */
export interface IncomingFile {
  /** File name as sent by the client (may contain directories; only the last segment is kept). */
  filename: string | undefined;
  /** Content type as sent by the client. */
  contentType: string | undefined;
  /** The bytes. Ends early (truncated) when the upload passes `config.mediaMaxBytes`. */
  stream: Readable;
  /** True when the stream was cut at the size limit. */
  truncated(): boolean;
}

/**
 * Stores an uploaded file in a folder (`POST /api/v1/folders/{folderId}/medias`). Needs
 * Collaborator, checked before any byte of the file is read. The bytes go to a temporary file; the row is
 * inserted and the bytes placed (file renamed, or chunks inserted) in one transaction, and
 * whatever was placed is removed if that fails, so row and bytes exist together or not at all.
 * @param openFile yields the first file part of the request, or undefined when there is none.
 * @throws ServiceError 404, 403; 400 `file` required (no file part) or incomplete (the body
 *   ended early); 413 PAYLOAD_TOO_LARGE past `config.mediaMaxBytes` (nothing is kept); a full
 *   disk or database is rethrown as is (the error handler answers 507 INSUFFICIENT_STORAGE).
 */
export async function uploadMedia(
  svc: Services,
  actor: Actor,
  folderId: string,
  openFile: () => Promise<IncomingFile | undefined>,
): Promise<Media> {
  const { store, config } = svc;
  // The file part is opened first (its headers only: no byte is read from it until the role is
  // checked): the multipart parser must be listening before the request waits on anything else,
  // or a body cut short is consumed unnoticed and the upload never ends.
  const file = await openFile();
  await store.run(requireFolder(store.sql, actor, folderId, 'Collaborator', 'uploading media'));
  if (!file) throw badRequest('file', 'required', 'the multipart body has no file part');
  let upload;
  try {
    upload = await receiveToTemp(config.dataDir, file.stream);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    // The server's disk, not the client: 507 through the error handler, which logs it.
    if (isStorageFull(error)) throw error;
    if ((error as { statusCode?: number }).statusCode === 413 || file.truncated()) throw tooLarge(config.mediaMaxBytes);
    throw badRequest('file', 'incomplete', 'the upload ended before the file was complete');
  }
  if (file.truncated()) {
    removeQuietly(upload.file);
    throw tooLarge(config.mediaMaxBytes);
  }
  return storeUpload(svc, upload, file, function* (tx) {
    const folder = yield* requireFolder(tx, actor, folderId, 'Collaborator', 'uploading media');
    return { workspaceId: folder.workspaceId, folderId: folder.id, createdBy: actor.userId };
  });
}

/** Where an item is stored and by whom. */
interface MediaPlace {
  workspaceId: string;
  folderId: string;
  createdBy: string | null;
}

/** Inserts the row of a received upload and places its bytes in one transaction (`placeOf` checks access in it and says where); removes what was placed on failure. */
async function storeUpload(
  svc: Services,
  temp: TempUpload,
  file: { filename: string | undefined; contentType: string | undefined },
  placeOf: (tx: Sql) => Query<MediaPlace>,
): Promise<Media> {
  const { store, config } = svc;
  const name = storedName(file.filename);
  const contentType = storedContentType(file.contentType, name);
  const id = newId();
  const stored = { id, storageKey: id };
  const contents = mediaContents(config, store);
  try {
    await store.run(
      store.sql.transaction(function* (tx) {
        const place = yield* placeOf(tx);
        yield* tx.run(
          `INSERT INTO media (id, workspace_id, folder_id, kind, name, content_type, size_bytes, storage_key, created_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [id, place.workspaceId, place.folderId, kindOf(contentType), name, contentType, temp.size, id, place.createdBy, svc.clock.now()],
        );
        yield* contents.place(tx, stored, temp);
      }),
    );
  } catch (error) {
    contents.discard(stored, temp);
    throw error;
  }
  removeQuietly(temp.file);
  return toMedia(svc, await store.run(mediaRow(store.sql, id)));
}

/**
 * Stores `data` as a new media item in the home folder of `workspaceId` (a piece's
 * `files.write`, docs/integrations.md "Files"), made by `createdBy`; the same size limit as an
 * upload applies.
 * @throws ServiceError 413 PAYLOAD_TOO_LARGE past `config.mediaMaxBytes`; 404 when the workspace is gone.
 */
export async function storeMediaBytes(
  svc: Services,
  input: { workspaceId: string; createdBy: string | null; filename: string; data: Buffer },
): Promise<Media> {
  if (input.data.length > svc.config.mediaMaxBytes) throw tooLarge(svc.config.mediaMaxBytes);
  const upload = await receiveToTemp(svc.config.dataDir, Readable.from([input.data]));
  // The home folder of a workspace has the workspace's id.
  const place = { workspaceId: input.workspaceId, folderId: input.workspaceId, createdBy: input.createdBy };
  return storeUpload(svc, upload, { filename: input.filename, contentType: undefined }, function* (tx) {
    const home = yield* tx.get('SELECT id FROM folders WHERE id = ? AND workspace_id = ?', [place.folderId, place.workspaceId]);
    if (!home) throw new ServiceError(404, 'NOT_FOUND', `workspace '${input.workspaceId}' not found`);
    return place;
  });
}

function tooLarge(max: number): ServiceError {
  return new ServiceError(413, 'PAYLOAD_TOO_LARGE', `the file is larger than the limit of ${max} bytes (TASKSPACE_MEDIA_MAX_BYTES)`);
}

/**
 * The order of {@link listMedia}, newest first. Items uploaded in the same millisecond come
 * newest first by insertion on SQLite (`rowid`); PostgreSQL rows have no insertion order, so the
 * id breaks such ties there.
 */
const NEWEST_FIRST: Readonly<Record<Dialect, string>> = {
  sqlite: 'ORDER BY created_at DESC, rowid DESC',
  postgres: 'ORDER BY created_at DESC, id DESC',
};

/**
 * The media of a folder, newest first (spec 4.3 `GET /folders/{folderId}/medias`). Needs Viewer.
 * @throws ServiceError 404, 403.
 */
export function* listMedia(svc: Services, actor: Actor, folderId: string, page: PageRequest, q: Sql = svc.store.sql): Query<Media[]> {
  yield* requireFolder(q, actor, folderId, 'Viewer');
  const rows = yield* q.all<MediaRow>(
    `SELECT ${MEDIA_COLUMNS} FROM media WHERE folder_id = ? ${NEWEST_FIRST[q.dialect]} LIMIT ? OFFSET ?`,
    [folderId, ...pageWindow(page)],
  );
  return rows.map((row) => toMedia(svc, row));
}

/**
 * One media item (spec 4.5 `GET /medias/{mediaId}`). Needs Viewer.
 * @throws ServiceError 404 (unknown or outside the caller's workspaces).
 */
export function* getMedia(svc: Services, actor: Actor, mediaId: string, q: Sql = svc.store.sql): Query<Media> {
  yield* requireMedia(q, actor, mediaId, 'Viewer');
  return toMedia(svc, yield* mediaRow(q, mediaId));
}

/**
 * Opens a media item's bytes for download (`GET /api/v1/medias/{mediaId}/content`). Needs Viewer.
 * @throws ServiceError 404 (unknown, outside the caller's workspaces, or bytes missing from the media store).
 */
export function* openMediaContent(
  svc: Services,
  actor: Actor,
  mediaId: string,
  q: Sql = svc.store.sql,
): Query<{ media: Media; stream: Readable }> {
  yield* requireMedia(q, actor, mediaId, 'Viewer');
  const row = yield* mediaRow(q, mediaId);
  const stream = yield* mediaContents(svc.config, svc.store).open(q, { id: row.id, storageKey: row.storage_key });
  if (!stream)
    throw new ServiceError(
      404,
      'NOT_FOUND',
      `the bytes of media '${mediaId}' are missing from the media store (TASKSPACE_MEDIA_STORE=${svc.config.mediaStore})`,
    );
  return { media: toMedia(svc, row), stream };
}

/**
 * Deletes a media item: its row (and with it, through migration 006's trigger, every agent
 * knowledge link to it, and its chunks in the database) in one transaction, then its file when
 * the bytes are files (spec 4.5 `DELETE /medias/{mediaId}`).
 * Needs Collaborator.
 * @throws ServiceError 404, 403.
 */
export function* deleteMedia(svc: Services, actor: Actor, mediaId: string, q: Sql = svc.store.sql): Query<void> {
  const storageKey = yield* q.transaction(function* (tx) {
    yield* requireMedia(tx, actor, mediaId, 'Collaborator', 'deleting media');
    const row = yield* mediaRow(tx, mediaId);
    yield* tx.run('DELETE FROM media WHERE id = ?', [mediaId]);
    return row.storage_key;
  });
  mediaContents(svc.config, svc.store).afterDelete({ id: mediaId, storageKey });
}

/** The query of {@link mediaForKnowledge}, one JSON array of media ids as its parameter. */
const KNOWLEDGE_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: `SELECT ${MEDIA_COLUMNS} FROM media WHERE id IN (SELECT value FROM json_each(?))`,
  postgres: `SELECT ${MEDIA_COLUMNS} FROM media WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb))`,
};

/**
 * Storage key, kind, name and content type of media items (in the order of `mediaIds`, unknown
 * ids skipped, one query), for agent knowledge. No access check.
 */
export function* mediaForKnowledge(
  svc: Services,
  mediaIds: string[],
  q: Sql = svc.store.sql,
): Query<{ id: string; name: string; kind: MediaKind; contentType: string; size: number; storageKey: string }[]> {
  const rows = yield* q.all<MediaRow>(KNOWLEDGE_SQL[q.dialect], [JSON.stringify(mediaIds)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return mediaIds
    .map((id) => byId.get(id))
    .filter((row): row is MediaRow => row !== undefined)
    .map((row) => ({
      id: row.id,
      name: row.name,
      kind: row.kind,
      contentType: row.content_type,
      size: row.size_bytes,
      storageKey: row.storage_key,
    }));
}
