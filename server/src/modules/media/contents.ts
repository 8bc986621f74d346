import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { Config } from '../../config';
import type { Query, Sql } from '../../platform/db/query';
import type { Store } from '../../platform/db/store';
import { commitTemp, mediaPath, openMediaFile, readMediaPrefix, removeMediaFile, removeQuietly, type TempUpload } from './files';

/**
 * Where media bytes live, chosen by `TASKSPACE_MEDIA_STORE` (config `mediaStore`; docs
 * "Operations", "Media bytes"): one file per item under `<dataDir>/media/` (`files`, modules/media/files.ts)
 * or numbered chunks in the `media_chunks` table (`database`, migration 021), which every
 * process on one PostgreSQL database reaches and which a database backup holds.
 *
 * Either way an upload is first streamed to a temporary file in the data directory, and the
 * bytes are placed in the transaction that inserts the media row, so row and bytes exist
 * together or not at all.
 */

/** A stored media item as the contents need it: its id and its storage key (equal for every item stored so far). */
export interface StoredMedia {
  id: string;
  storageKey: string;
}

/** The bytes of media items, wherever they live. */
export interface MediaContents {
  /**
   * Places the bytes of a finished upload for `media`, inside the transaction `tx` that inserts
   * its row. Runs again when the transaction is retried (PostgreSQL): placing twice is harmless.
   * @throws the storage error; the caller then calls {@link MediaContents.discard}.
   */
  place(tx: Sql, media: StoredMedia, upload: TempUpload): Query<void>;
  /** After a failed upload: removes the temporary file and anything placed outside the database. */
  discard(media: StoredMedia, upload: TempUpload): void;
  /** After a committed delete of `media`'s row: removes bytes kept outside the database (chunks went with the row). */
  afterDelete(media: StoredMedia): void;
  /**
   * A stream of the bytes of `media`, or undefined when they are missing. The stream fails
   * when the item is deleted while it is read.
   */
  open(q: Sql, media: StoredMedia): Query<Readable | undefined>;
  /** Up to `maxBytes` bytes from the start of `media` (empty when missing). */
  prefix(q: Sql, media: StoredMedia, maxBytes: number): Query<Buffer>;
}

/** Largest chunk of the `database` store, in bytes (512 KiB). */
export const MEDIA_CHUNK_BYTES = 512 * 1024;

/**
 * The media contents of `config.mediaStore`; `store` is used to read chunks while a download
 * streams. New uploads go where the setting says; reads (and deletes) also find bytes kept the
 * other way, so items stored before the setting changed stay downloadable — notably those of a
 * PostgreSQL store made before migration 021, whose media are files while `database` is now the
 * default there (docs "Operations", "Media bytes").
 */
export function mediaContents(config: Config, store: Store): MediaContents {
  const files = fileContents(config.dataDir);
  const chunks = databaseContents(store);
  return config.mediaStore === 'database' ? withFallback(chunks, files) : withFallback(files, chunks);
}

/** `primary`, reading from `other` what `primary` does not hold, and deleting from both. */
function withFallback(primary: MediaContents, other: MediaContents): MediaContents {
  return {
    place: (tx, media, upload) => primary.place(tx, media, upload),
    discard: (media, upload) => primary.discard(media, upload),
    afterDelete(media) {
      primary.afterDelete(media);
      other.afterDelete(media);
    },
    *open(q, media) {
      return (yield* primary.open(q, media)) ?? (yield* other.open(q, media));
    },
    *prefix(q, media, maxBytes) {
      const head = yield* primary.prefix(q, media, maxBytes);
      return head.length > 0 ? head : yield* other.prefix(q, media, maxBytes);
    },
  };
}

/** Bytes as files in the data directory: placed by an atomic rename, removed after the row. */
function fileContents(dataDir: string): MediaContents {
  return {
    // eslint-disable-next-line require-yield -- a store Query that needs no statement (media kept as files)
    *place(_tx, media, upload) {
      // A retried transaction finds the file in place already.
      if (fs.existsSync(upload.file)) commitTemp(dataDir, upload, media.storageKey);
    },
    discard(media, upload) {
      removeQuietly(upload.file);
      removeQuietly(mediaPath(dataDir, media.storageKey));
    },
    afterDelete(media) {
      removeMediaFile(dataDir, media.storageKey);
    },
    // eslint-disable-next-line require-yield -- a store Query that needs no statement (media kept as files)
    *open(_q, media) {
      return openMediaFile(dataDir, media.storageKey);
    },
    // eslint-disable-next-line require-yield -- a store Query that needs no statement (media kept as files)
    *prefix(_q, media, maxBytes) {
      return readMediaPrefix(dataDir, media.storageKey, maxBytes);
    },
  };
}

/** Bytes as rows of `media_chunks` (seq 0, 1, …; an empty item has one empty chunk, so a missing item has none). */
function databaseContents(store: Store): MediaContents {
  return {
    *place(tx, media, upload) {
      // A retried transaction rolled back the chunks of its first try: they are inserted again.
      const fd = fs.openSync(upload.file, 'r');
      try {
        const buffer = Buffer.alloc(MEDIA_CHUNK_BYTES);
        let seq = 0;
        do {
          const read = fs.readSync(fd, buffer, 0, MEDIA_CHUNK_BYTES, seq * MEDIA_CHUNK_BYTES);
          yield* tx.run('INSERT INTO media_chunks (media_id, seq, bytes) VALUES (?, ?, ?)', [
            media.id,
            seq,
            Buffer.from(buffer.subarray(0, read)),
          ]);
        } while (++seq * MEDIA_CHUNK_BYTES < upload.size);
      } finally {
        fs.closeSync(fd);
      }
    },
    discard(_media, upload) {
      removeQuietly(upload.file);
    },
    afterDelete() {},
    *open(q, media) {
      const first = yield* chunk(q, media.id, 0);
      if (!first) return undefined;
      return Readable.from(chunksFrom(store, media.id, first), { objectMode: false });
    },
    *prefix(q, media, maxBytes) {
      const parts: Buffer[] = [];
      let length = 0;
      for (let seq = 0; length < maxBytes; seq++) {
        const part = yield* chunk(q, media.id, seq);
        if (!part) break;
        parts.push(part);
        length += part.length;
      }
      return Buffer.concat(parts).subarray(0, maxBytes);
    },
  };
}

/** Chunk `seq` of media item `mediaId`, or undefined past the last one. */
function* chunk(q: Sql, mediaId: string, seq: number): Query<Buffer | undefined> {
  const row = yield* q.get<{ bytes: Buffer }>('SELECT bytes FROM media_chunks WHERE media_id = ? AND seq = ?', [mediaId, seq]);
  return row?.bytes;
}

/**
 * The chunks of `mediaId`: `first` (chunk 0, read already), then each following one read when
 * the stream asks for it.
 * @throws Error when the item is deleted between two chunks.
 */
async function* chunksFrom(store: Store, mediaId: string, first: Buffer): AsyncGenerator<Buffer> {
  yield first;
  for (let seq = 1; ; seq++) {
    const part = await store.run(chunk(store.sql, mediaId, seq));
    if (part) {
      yield part;
      continue;
    }
    const exists = await store.run(store.sql.get('SELECT 1 AS found FROM media WHERE id = ?', [mediaId]));
    if (!exists) throw new Error(`media '${mediaId}' was deleted while it was read`);
    return;
  }
}
