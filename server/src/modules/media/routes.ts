import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteMedia, getMedia, listMedia, openMediaContent, uploadMedia, type IncomingFile } from './service';
import { badRequest, ServiceError } from '../../errors';
import {
  deleteMediaResponses,
  folderParams,
  mediaListQuery,
  mediaListResponses,
  mediaParams,
  mediaResponses,
  uploadResponses,
} from './schemas';
import { sweepTempUploads } from './files';

const tags = ['media'];

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Media routes: upload (`POST /folders/{folderId}/medias`, multipart, ours), the folder list
 * (spec 4.3), get and delete (spec 4.5) and download (`GET /medias/{mediaId}/content`, ours).
 * `@fastify/multipart` is registered in this plugin's scope only, with the upload limit of
 * `TASKSPACE_MEDIA_MAX_BYTES` and one file per request.
 */
export const mediaRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const svc = app.services;
  sweepTempUploads(svc.config.dataDir);
  await app.register(multipart, { limits: { fileSize: svc.config.mediaMaxBytes, files: 1 } });

  app.post(
    '/folders/:folderId/medias',
    {
      schema: {
        tags,
        summary: 'Upload a file (multipart/form-data, one file part)',
        params: folderParams,
        consumes: ['multipart/form-data'],
        response: uploadResponses,
      },
    },
    async (request) => {
      const openFile = async (): Promise<IncomingFile | undefined> => {
        let part;
        try {
          part = await request.file();
        } catch (error) {
          // Limit and content-type errors carry a 4xx status the error handler maps; anything
          // else is busboy refusing the body (no boundary, broken headers).
          const status = (error as { statusCode?: number }).statusCode;
          if (error instanceof ServiceError || (status !== undefined && status >= 400 && status < 500)) throw error;
          throw badRequest('file', 'invalid_format', `the multipart body is malformed: ${(error as Error).message}`);
        }
        if (!part) return undefined;
        return {
          filename: part.filename,
          contentType: part.mimetype,
          stream: part.file,
          truncated: () => part.file.truncated,
        };
      };
      return { ok: true, item: await uploadMedia(svc, request.actor, request.params.folderId, openFile) };
    },
  );

  app.get(
    '/folders/:folderId/medias',
    {
      schema: {
        tags,
        summary: "A folder's media, newest first",
        params: folderParams,
        querystring: mediaListQuery,
        response: mediaListResponses,
      },
    },
    async (request) => ({ ok: true, items: await svc.store.run(listMedia(svc, request.actor, request.params.folderId, request.query)) }),
  );

  app.get(
    '/medias/:mediaId',
    { schema: { tags, summary: 'Get a media item', params: mediaParams, response: mediaResponses } },
    async (request) => ({ ok: true, item: await svc.store.run(getMedia(svc, request.actor, request.params.mediaId)) }),
  );

  app.get(
    '/medias/:mediaId/content',
    { schema: { tags, summary: "Download a media item's bytes", params: mediaParams } },
    async (request, reply) => {
      const { media, stream } = await svc.store.run(openMediaContent(svc, request.actor, request.params.mediaId));
      reply
        .type(media.contentType)
        .header('content-length', String(media.size))
        .header('content-disposition', contentDisposition(media.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return reply.send(stream);
    },
  );

  app.delete(
    '/medias/:mediaId',
    { schema: { tags, summary: 'Delete a media item and its bytes', params: mediaParams, response: deleteMediaResponses } },
    async (request) => {
      await svc.store.run(deleteMedia(svc, request.actor, request.params.mediaId));
      return { ok: true };
    },
  );
};
