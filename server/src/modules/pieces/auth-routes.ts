import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { PieceAuthInfo, PiecePropInfo } from '@taskspace/engine';
import { notFound } from '../../errors';
import { ItemEnvelope, Responses } from '../../http/schemas';

const Label = Type.Object({ displayName: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: false });

/** One field of a connection form (a custom auth's or an OAuth2 auth's own fields). */
const AuthFieldSchema = Type.Object(
  {
    type: Type.String({ description: 'SHORT_TEXT, LONG_TEXT, SECRET_TEXT, NUMBER, CHECKBOX, STATIC_DROPDOWN…' }),
    displayName: Type.String(),
    description: Type.Optional(Type.String()),
    required: Type.Boolean(),
    defaultValue: Type.Optional(Type.Unknown()),
    options: Type.Optional(Type.Array(Type.Object({ label: Type.String(), value: Type.Unknown() }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);

/** One way to connect to a piece: what its connection form asks (docs/integrations.md "Connections"). */
const AuthSchema = Type.Object(
  {
    type: Type.String({ description: 'SECRET_TEXT, BASIC_AUTH, CUSTOM_AUTH or OAUTH2' }),
    displayName: Type.String(),
    description: Type.Optional(Type.String()),
    required: Type.Boolean(),
    props: Type.Optional(Type.Record(Type.String(), AuthFieldSchema)),
    username: Type.Optional(Label),
    password: Type.Optional(Label),
    authUrl: Type.Optional(Type.String()),
    tokenUrl: Type.Optional(Type.String()),
    scope: Type.Optional(Type.Array(Type.String())),
    pkce: Type.Optional(Type.Boolean()),
    extra: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'OAUTH2: parameters added to the authorization URL' })),
    authorizationMethod: Type.Optional(
      Type.Union([Type.Literal('HEADER'), Type.Literal('BODY')], {
        description: 'OAUTH2: the app credentials in token requests as HTTP Basic (HEADER) or form fields (BODY, the default)',
      }),
    ),
    validates: Type.Boolean({ description: 'whether the piece can check a connection (POST …/connections/{id}/test)' }),
  },
  { additionalProperties: false },
);

const PieceAuthSchema = Type.Object(
  { name: Type.String(), displayName: Type.String(), auth: Type.Array(AuthSchema) },
  { additionalProperties: false },
);

function field(p: PiecePropInfo) {
  return {
    type: p.type,
    displayName: p.displayName,
    ...(p.description ? { description: p.description } : {}),
    required: p.required,
    ...(p.defaultValue !== undefined ? { defaultValue: p.defaultValue } : {}),
    ...(p.options ? { options: p.options } : {}),
  };
}

function auth(a: PieceAuthInfo) {
  const { props, ...rest } = a;
  return { ...rest, ...(props ? { props: Object.fromEntries(Object.entries(props).map(([name, p]) => [name, field(p)])) } : {}) };
}

/**
 * `GET /api/v1/automations/pieces/{piece}/auth` (docs/integrations.md "Connections"): what a
 * piece's connection form asks — its ways to connect and their fields — for the web app's
 * Connections screen and the builder's "New connection".
 */
export const pieceAuthRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/automations/pieces/:piece/auth',
    {
      config: { firstParty: true },
      schema: {
        tags: ['automations'],
        summary: "What a piece's connection form asks: its ways to connect and their fields",
        params: Type.Object({ piece: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: Responses(ItemEnvelope(PieceAuthSchema)),
      },
    },
    async (request) => {
      const piece = app.automations.pieces.catalogue.find(request.params.piece);
      if (!piece) throw notFound('piece', request.params.piece);
      return { ok: true, item: { name: piece.name, displayName: piece.displayName, auth: piece.auth.map(auth) } };
    },
  );
};
