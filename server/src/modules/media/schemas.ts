import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, OkOnly, PageQuerySchema, Params, Responses, stringEnum } from '../../http/schemas';
import { MEDIA_KINDS } from './service';

/** The media item (README "Agents, conversations, media and model providers", "Media"); `size` in bytes. */
export const MediaSchema = Type.Object(
  {
    id: Type.String(),
    space_id: Type.String(),
    kind: stringEnum(MEDIA_KINDS),
    name: Type.String(),
    contentType: Type.String(),
    size: Type.Integer(),
    url: Type.String({ format: 'uri' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** Path of the folder media routes. */
export const folderParams = Params('folderId');
/** Path of one media item. */
export const mediaParams = Params('mediaId');
/** Query of a folder's media list. */
export const mediaListQuery = PageQuerySchema(100);

/** Responses of an upload: 413 over the size limit, 415 without a file part. */
export const uploadResponses = Responses(ItemEnvelope(MediaSchema), { 413: ErrorRef, 415: ErrorRef });
/** Responses of one media item. */
export const mediaResponses = Responses(ItemEnvelope(MediaSchema));
/** Responses of a folder's media list. */
export const mediaListResponses = Responses(ItemsEnvelope(MediaSchema));
/** Responses of deleting a media item. */
export const deleteMediaResponses = Responses(OkOnly);
