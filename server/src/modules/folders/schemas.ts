import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, Params, Responses, nullable, singleLine } from '../../http/schemas';

/** A folder (docs "API notes"): the home folder's id is the workspace id; `parentId` null at the top. */
export const FolderSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    workspaceId: Type.String(),
    parentId: nullable(Type.String()),
    isHome: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Path of the folder routes. */
export const workspaceParams = Params('workspaceId');

/** Body of `POST /workspaces/{workspaceId}/folders`: a single-line name of 1..200 characters and an optional parent folder. */
export const CreateFolderBody = Type.Object(
  { name: singleLine(200), parentId: Type.Optional(Type.String({ minLength: 1 })) },
  { additionalProperties: false },
);

/** Responses of the folder list. */
export const foldersResponses = Responses(ItemsEnvelope(FolderSchema));
/** Responses of folder creation. */
export const folderResponses = Responses(ItemEnvelope(FolderSchema));
