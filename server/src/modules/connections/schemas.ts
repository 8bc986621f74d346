import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses, nullable, singleLine } from '../../http/schemas';

/** A connection as every answer shows it (docs/integrations.md "Connections"): never its value. */
export const ConnectionSchema = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    piece: Type.String({ description: "the piece's short name (`wordpress`)" }),
    name: Type.String(),
    authType: Type.String({ description: 'SECRET_TEXT, BASIC_AUTH or CUSTOM_AUTH' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    createdBy: nullable(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * A connection's value, write-only: `{type: 'SECRET_TEXT', secret_text}`, `{type: 'BASIC_AUTH',
 * username, password}` or `{type: 'CUSTOM_AUTH', props: {…the piece's fields}}`.
 */
export const ConnectionValueSchema = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 40, description: 'SECRET_TEXT, BASIC_AUTH or CUSTOM_AUTH' }),
    secret_text: Type.Optional(Type.String({ maxLength: 8192 })),
    username: Type.Optional(Type.String({ maxLength: 2000 })),
    password: Type.Optional(Type.String({ maxLength: 8192 })),
    props: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 50 })),
  },
  { additionalProperties: false },
);

/** Body of `POST …/connections`. */
export const CreateConnectionBody = Type.Object(
  { piece: Type.String({ minLength: 1, maxLength: 200 }), name: singleLine(200), auth: ConnectionValueSchema },
  { additionalProperties: false },
);

/** Body of `PATCH …/connections/{id}`: a new name, a new value, or both. */
export const UpdateConnectionBody = Type.Object(
  { name: Type.Optional(singleLine(200)), auth: Type.Optional(ConnectionValueSchema) },
  { additionalProperties: false, minProperties: 1 },
);

/** Query of the connection list. */
export const ListConnectionsQuery = Type.Object({ piece: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false });

/** Path of the connection list. */
export const WorkspaceParams = Params('workspaceId');
/** Path of one connection. */
export const ConnectionParams = Params('workspaceId', 'id');

/** Answers with one connection / the list / nothing. */
export const connectionResponses = Responses(ItemEnvelope(ConnectionSchema));
export const connectionsResponses = Responses(ItemsEnvelope(ConnectionSchema));
export const deleteConnectionResponses = Responses(OkOnly);

/** Answer of a connection test: whether the piece accepted it (`checked` false: the piece has no check). */
export const connectionTestResponses = Responses(
  ItemEnvelope(
    Type.Object({ valid: Type.Boolean(), checked: Type.Boolean(), error: Type.Optional(Type.String()) }, { additionalProperties: false }),
  ),
);
