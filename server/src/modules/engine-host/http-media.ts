import { ActionError } from '@taskspace/engine';
import type { Readable } from 'node:stream';
import type { Query, Sql } from '../../platform/db/query';
import type { Services } from '../../services';
import { openMediaContent, type Media } from '../media/service';
import { ownerActor } from './service-adapter';

/** A media item's bytes with the name and content type a multipart file part carries. */
export interface MediaFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Reads a media item of the automation's workspace as its owner, for a file part of an HTTP
 * step's multipart body; at most `maxBytes` bytes.
 * @throws ActionError MEDIA_NOT_FOUND (permanent) for an unknown media id, one of another
 *   workspace or one the owner cannot read; PAYLOAD_TOO_LARGE (permanent) past `maxBytes`.
 */
export type MediaReader = (owner: { workspaceId: string; ownerId: string }, mediaId: string, maxBytes: number) => Promise<MediaFile>;

/** The {@link MediaReader} over the service's media store (`TASKSPACE_MEDIA_STORE`). */
export function workspaceMediaReader(svc: Services): MediaReader {
  return async (owner, mediaId, maxBytes) => {
    let opened: { media: Media; stream: Readable };
    try {
      opened = await svc.store.run(
        (function* (q: Sql): Query<{ media: Media; stream: Readable }> {
          const row = yield* q.get<{ workspace_id: string }>('SELECT workspace_id FROM media WHERE id = ?', [mediaId]);
          if (!row || row.workspace_id !== owner.workspaceId) throw notFound(mediaId);
          return yield* openMediaContent(svc, yield* ownerActor(q, { ownerId: owner.ownerId, depth: 0 }), mediaId, q);
        })(svc.store.sql),
      );
    } catch (error) {
      if (error instanceof ActionError) throw error;
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 404 || status === 403) throw notFound(mediaId);
      throw error;
    }
    const { media, stream } = opened;
    if (media.size > maxBytes) {
      stream.destroy();
      throw new ActionError(
        'PAYLOAD_TOO_LARGE',
        `media '${mediaId}' (${media.size} bytes) makes the multipart body larger than ${maxBytes} bytes`,
        false,
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return { name: media.name, contentType: media.contentType, bytes: Buffer.concat(chunks) };
  };
}

function notFound(mediaId: string): ActionError {
  return new ActionError('MEDIA_NOT_FOUND', `media '${mediaId}' is not in the automation's workspace`, false, { details: { mediaId } });
}
