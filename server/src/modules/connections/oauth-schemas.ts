import { Type } from '@sinclair/typebox';
import { ItemEnvelope, ItemsEnvelope, OkOnly, Params, Responses, nullable, singleLine } from '../../http/schemas';

/** A provider app as listed (docs/integrations.md "OAuth2 apps"): never its secret. */
export const OAuthAppSchema = Type.Object(
  {
    piece: Type.String(),
    clientId: Type.String(),
    source: Type.Union([Type.Literal('workspace'), Type.Literal('instance')], {
      description: "workspace: registered by an Owner here; instance: the server's configuration",
    }),
    createdAt: nullable(Type.String({ format: 'date-time' })),
    updatedAt: nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

/** Body of `PUT …/oauth2-apps/{piece}`: the app's credentials at the provider; the secret is write-only. */
export const PutOAuthAppBody = Type.Object(
  { clientId: Type.String({ minLength: 1, maxLength: 2000 }), clientSecret: Type.String({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);

/** Body of `POST …/connections/oauth2`: the connection to make and the piece's extra fields. */
export const StartConsentBody = Type.Object(
  {
    piece: Type.String({ minLength: 1, maxLength: 200 }),
    name: singleLine(200),
    props: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 50, description: "the piece's OAuth2 fields" })),
  },
  { additionalProperties: false },
);

/** Body of `POST …/connections/{id}/oauth2` (reconnect): the piece's OAuth2 fields, when they change. */
export const ReconsentBody = Type.Object(
  {
    props: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        maxProperties: 50,
        description: "the piece's OAuth2 fields; absent: the connection's own",
      }),
    ),
  },
  { additionalProperties: false },
);

/** A started consent. */
export const ConsentSchema = Type.Object(
  {
    authorizationUrl: Type.String({ description: "the provider's consent page: open it in the person's browser" }),
    state: Type.String({ description: 'one-time; ask GET …/connections/oauth2/{state} how it ended' }),
    redirectUri: Type.String({ description: 'where the provider sends the browser back (register it with the app)' }),
  },
  { additionalProperties: false },
);

/** How a consent stands. */
export const ConsentStatusSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('pending'), Type.Literal('connected'), Type.Literal('failed')]),
    connectionId: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** The provider's redirect (RFC 6749 section 4.1.2 and 4.1.2.1). */
export const CallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 200 })),
    code: Type.Optional(Type.String({ maxLength: 8192 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);

export const AppParams = Params('workspaceId', 'piece');
export const StateParams = Params('workspaceId', 'state');
export const ReconsentParams = Params('workspaceId', 'id');
export const appResponses = Responses(ItemEnvelope(OAuthAppSchema));
export const appsResponses = Responses(ItemsEnvelope(OAuthAppSchema));
export const deleteAppResponses = Responses(OkOnly);
export const consentResponses = Responses(ItemEnvelope(ConsentSchema));
export const consentStatusResponses = Responses(ItemEnvelope(ConsentStatusSchema));
