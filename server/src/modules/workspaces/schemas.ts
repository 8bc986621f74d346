import { Type } from '@sinclair/typebox';
import { ErrorRef, ItemEnvelope, ItemsEnvelope, Params, Responses, singleLine } from '../../http/schemas';

/** Longest workspace name, in characters. */
export const MAX_WORKSPACE_NAME = 100;
/** Longest display name, in characters (as at sign-up). */
export const MAX_DISPLAY_NAME = 100;

/** A workspace of the caller with the caller's role in it (docs "API notes"). */
export const WorkspaceSchema = Type.Object(
  { id: Type.String(), name: Type.String(), role: Type.String() },
  { additionalProperties: false },
);

/** The authenticated account, as `GET /me` returns it. */
export const MeSchema = Type.Object(
  {
    id: Type.String(),
    handle: Type.String(),
    displayName: Type.String(),
    plan: Type.String(),
    rateTier: Type.String(),
    verified: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Responses of `GET /me`. */
export const meResponses = Responses(ItemEnvelope(MeSchema));
/** Responses of `GET /workspaces`. */
export const workspacesResponses = Responses(ItemsEnvelope(WorkspaceSchema));

/** Body of `POST /workspaces` and `PATCH /workspaces/{workspaceId}`: a single-line name of 1..100 characters (trimmed; not blank). */
export const WorkspaceNameBody = Type.Object({ name: singleLine(MAX_WORKSPACE_NAME) }, { additionalProperties: false });

/** Body of `PATCH /me`: the new display name, single-line, 1..100 characters (trimmed; not blank). */
export const MePatchBody = Type.Object({ displayName: singleLine(MAX_DISPLAY_NAME) }, { additionalProperties: false });

/** Path of `PATCH /workspaces/{workspaceId}`. */
export const WorkspaceParams = Params('workspaceId');

/** Responses of `POST /workspaces` and `PATCH /workspaces/{workspaceId}` (409 CONFLICT `name` `taken`). */
export const workspaceResponses = Responses(ItemEnvelope(WorkspaceSchema), { 409: ErrorRef });
