import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses, nullable, singleLine, stringEnum } from '../../http/schemas';
import { CLIENT_TYPES, MAX_REDIRECT_URIS } from './clients';

const clientProperties = {
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  redirectUris: Type.Array(Type.String()),
  type: stringEnum(CLIENT_TYPES),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: nullable(Type.String()),
};

/** An OAuth client as listed (docs/oauth.md "Registering a client"): never its secret. */
export const ClientSchema = Type.Object(clientProperties, { additionalProperties: false });

/** A client as registered: a confidential client's `clientSecret` is in this answer only. */
export const RegisteredClientSchema = Type.Object(
  { ...clientProperties, clientSecret: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** An app the caller authorized (docs/oauth.md "Grants"): the client, the scopes granted, when it was last used. */
export const GrantSchema = Type.Object(
  {
    id: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String(), workspaceId: Type.String() }, { additionalProperties: false }),
    scopes: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    lastUsedAt: nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** Body of registering a client: a name (1..100 characters, one line), 1..{@link MAX_REDIRECT_URIS} redirect URIs (≤ 2,000 characters each), the client type. */
export const RegisterClientBody = Type.Object(
  {
    name: singleLine(100),
    redirectUris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: MAX_REDIRECT_URIS }),
    type: stringEnum(CLIENT_TYPES),
  },
  { additionalProperties: false },
);

/** Path of a workspace's clients. */
export const WorkspaceParams = Params('workspaceId');
/** Path of one client. */
export const ClientParams = Params('clientId');
/** Path of one of the caller's grants. */
export const GrantParams = Params('grantId');

/** Responses of registering a client. */
export const registeredResponses = Responses(ItemEnvelope(RegisteredClientSchema));
/** Responses of the client list. */
export const clientsResponses = Responses(ItemsEnvelope(ClientSchema));
/** Responses of the caller's grants. */
export const grantsResponses = Responses(ItemsEnvelope(GrantSchema));
/** Responses of deleting a client or revoking a grant. */
export const okResponses = Responses(OkOnly);
