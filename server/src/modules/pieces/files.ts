import { Readable } from 'node:stream';
import { ActionError, type PieceFiles } from '@taskspace/engine';
import { ServiceError } from '../../errors';
import type { Services } from '../../services';
import { mediaContents } from '../media/contents';
import { storeMediaBytes } from '../media/service';

/** Collects a stream's bytes, failing past `maxBytes`. */
async function collect(stream: Readable, maxBytes: number, label: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += part.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new ActionError('FILE_TOO_LARGE', `${label} is larger than the limit of ${maxBytes} bytes for a piece's file`, false);
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/**
 * The server's media port for pieces (docs/integrations.md "Files"): a `FILE` property reads a
 * media item of the run's workspace only (another workspace's id is as unknown as a missing
 * one); `files.write` stores a new item in the workspace's home folder, made by the
 * automation's owner, through the media service (its size limit applies), and answers the
 * item's content URL.
 */
export function pieceFiles(svc: Services): PieceFiles {
  return {
    async read(workspaceId, mediaId, maxBytes) {
      const { store } = svc;
      const row = await store.run(
        store.sql.get<{ id: string; name: string; size_bytes: number; storage_key: string }>(
          'SELECT id, name, size_bytes, storage_key FROM media WHERE id = ? AND workspace_id = ?',
          [mediaId, workspaceId],
        ),
      );
      if (!row) throw new ActionError('MEDIA_NOT_FOUND', `the workspace has no media '${mediaId}'`, false);
      const label = `media '${mediaId}' (${row.size_bytes} bytes)`;
      if (row.size_bytes > maxBytes)
        throw new ActionError('FILE_TOO_LARGE', `${label} is larger than the limit of ${maxBytes} bytes for a piece's file`, false);
      const stream = await store.run(mediaContents(svc.config, store).open(store.sql, { id: row.id, storageKey: row.storage_key }));
      if (!stream) throw new ActionError('MEDIA_NOT_FOUND', `the bytes of media '${mediaId}' are missing from the media store`, false);
      return { filename: row.name, data: await collect(stream, maxBytes, label) };
    },
    async write(where, fileName, data) {
      const { store } = svc;
      const owner = where.automationId
        ? await store.run(store.sql.get<{ owner_id: string | null }>('SELECT owner_id FROM automations WHERE id = ?', [where.automationId]))
        : undefined;
      try {
        const media = await storeMediaBytes(svc, {
          workspaceId: where.workspaceId,
          createdBy: owner?.owner_id ?? null,
          filename: fileName,
          data,
        });
        return media.url;
      } catch (error) {
        if (error instanceof ServiceError && error.statusCode === 413) throw new ActionError('FILE_TOO_LARGE', error.message, false);
        throw error;
      }
    },
  };
}
